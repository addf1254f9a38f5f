/**
 * The valid twins asked while cases are in flight: a refused case starts its twin's request at
 * once (so the twin travels while earlier cases are judged), and the case takes the answer in its
 * turn. Cases that share a twin (the fixed examples repeat twins) share its one request.
 */
import type { TestCase } from '../core/case.ts';
import type { Exchange } from '../core/exchange.ts';

export class TwinRequests {
  /** Twins under way, by the number of what they send, with the case that started them. */
  private readonly pending = new Map<number, { exchange: Promise<Exchange>; startedBy: TestCase }>();

  constructor(
    private readonly keyOf: (c: TestCase) => number,
    private readonly send: (twin: TestCase) => Promise<Exchange>,
  ) {}

  /** Starts the request of `c`'s twin, unless it is under way. */
  start(c: TestCase, twin: () => TestCase): void {
    const key = this.keyOf(c);
    if (this.pending.has(key)) return;
    const exchange = this.send(twin());
    // Its failure (an interruption) reaches whoever takes it; unhandled until then is no crash.
    exchange.catch(() => undefined);
    this.pending.set(key, { exchange, startedBy: c });
  }

  /** The answer to `c`'s twin: the request under way, or a new one. */
  answer(c: TestCase, twin: () => TestCase): Promise<Exchange> {
    this.start(c, twin);
    return this.pending.get(this.keyOf(c))!.exchange;
  }

  /**
   * Forgets `c`'s twin once its verdict is known (or it got no answer, so the next case asks
   * again). Until then a case that is refused meanwhile finds it under way and sends nothing.
   */
  settle(c: TestCase): void {
    this.pending.delete(this.keyOf(c));
  }

  /** Whether the request of `c`'s twin is under way (whoever started it). */
  underWay(c: TestCase): boolean {
    return this.pending.has(this.keyOf(c));
  }

  /** Whether `c` started a twin request that nobody has taken yet. */
  startedBy(c: TestCase): boolean {
    return c.control !== undefined && this.pending.get(this.keyOf(c))?.startedBy === c;
  }
}
