/**
 * Requests in flight, verdicts in order: items start (send their requests) up to `window` ahead
 * of the one being judged, but are judged strictly in the order they come. Whatever the target's
 * timing, the run's state (what an account holds, which identities exist, which findings are
 * kept) changes in the same order, so a seed gives the same cases and the same verdict at any
 * concurrency.
 *
 * Items of one lane (the updates of one fiat account) never overlap: an item starts only once
 * the previous item of its lane has been judged, so a target never sees two updates of one
 * account at once and the harness reads each answer against a known state.
 */
export interface ItemSource<T> {
  /** The next item, or undefined after the last. */
  next(): Promise<T | undefined>;
}

export interface PipelineOptions<T, R> {
  /** Items started and not yet judged, at most (1: one at a time). */
  window: number;
  /** The lane of an item, read when it is about to start; undefined: no lane. */
  laneOf(item: T): string | undefined;
  /** Sends what the item needs; a throw reaches the pipeline's caller in the item's turn. */
  start(item: T): Promise<R>;
  /** Judges an item's result, in the items' order. */
  judge(item: T, result: R): Promise<void>;
  /** Asked after each judged item: true ends the pipeline (items in flight are not judged). */
  done?(): boolean;
}

type Settled<R> = { ok: true; value: R } | { ok: false; error: unknown };

export async function pipeline<T, R>(source: ItemSource<T>, options: PipelineOptions<T, R>): Promise<void> {
  const window = Math.max(1, Math.floor(options.window) || 1);
  const inFlight: { item: T; lane: string | undefined; settled: Promise<Settled<R>> }[] = [];
  const busyLanes = new Set<string>();
  let upcoming = await source.next();

  for (;;) {
    // Start in order while there is room; an item whose lane is busy holds back the ones after it.
    while (upcoming !== undefined && inFlight.length < window) {
      const lane = options.laneOf(upcoming);
      if (lane !== undefined && busyLanes.has(lane)) break;
      if (lane !== undefined) busyLanes.add(lane);
      // Settled into a value at once: an item that fails while an earlier one is judged is no unhandled rejection.
      const settled = options.start(upcoming).then(
        (value): Settled<R> => ({ ok: true, value }),
        (error: unknown): Settled<R> => ({ ok: false, error }),
      );
      inFlight.push({ item: upcoming, lane, settled });
      upcoming = await source.next();
    }
    const head = inFlight.shift();
    if (!head) return;
    const outcome = await head.settled;
    if (!outcome.ok) throw outcome.error;
    await options.judge(head.item, outcome.value);
    if (head.lane !== undefined) busyLanes.delete(head.lane);
    if (options.done?.()) return;
  }
}

/** The items of several sources taken in turn, one of each, until all are spent. */
export function inTurn<T>(sources: ItemSource<T>[]): ItemSource<T> {
  const live = [...sources];
  let turn = 0;
  return {
    async next() {
      while (live.length) {
        const at = turn % live.length;
        const item = await live[at].next();
        if (item !== undefined) {
          turn = at + 1;
          return item;
        }
        live.splice(at, 1);
        turn = at;
      }
      return undefined;
    },
  };
}

/** A source of the items of an array. */
export function fromArray<T>(items: readonly T[]): ItemSource<T> {
  let at = 0;
  return { next: async () => (at < items.length ? items[at++] : undefined) };
}
