/**
 * The HAR's side of the one judge (rules/rule-judge.ts): the exchanges of a HAR's entries judged in
 * the HAR's order, as the run judged them. A refusal's valid twin is the entry its `_case.twin`
 * links to (report/files/twin-link.ts); the scenarios that judge their own rules judge them again
 * from their entries (each scenario's `rejudge`, rules/scenarios.ts), so no rule is left out by
 * omission. The exchanges come from sending the entries again (har-replay.ts) or from their
 * recorded answers (har-rejudge.ts): one judge for both.
 */
import type { RuleId } from '../core/catalogue.ts';
import type { Exchange } from '../core/exchange.ts';
import type { Problem } from '../rules/check.ts';
import { is2xx } from '../rules/checks/exchange-facts.ts';
import { RuleJudge, twinDecides } from '../rules/rule-judge.ts';
import { SCENARIOS, type ScenarioRejudge } from '../rules/scenarios.ts';

/** The status of a rule from a replay: failed, passed (judged, no problem), error (a check crashed), or not judged by any entry. */
export type ReplayStatus = 'passed' | 'failed' | 'error' | 'not judged';

/** One rule as the replay judged it: its status, the entries that judged it, what they found. */
export interface ReplayedRule {
  id: RuleId;
  status: ReplayStatus;
  cases: number;
  problems: Problem[];
  /** The index in the HAR of the entry whose exchange gave the first problem (the last of its round or sequence for a scenario). */
  firstProblemAt?: number;
}

/** Problems kept per rule (the first is what the replay prints). */
export const PROBLEMS_KEPT = 20;

interface Tally {
  cases: number;
  problems: Problem[];
  crashed: boolean;
  firstProblemAt?: number;
}

/** Judging the exchanges in order: the one judge and its state, the scenarios' rejudges, each rule's tally. */
class EntryJudge {
  private readonly rules = new RuleJudge();
  private readonly scenarios: ScenarioRejudge[];
  readonly tallies = new Map<RuleId, Tally>();

  /** @param fiatAccountIds the target's pool */
  constructor(private readonly fiatAccountIds: readonly string[]) {
    const { created, metadata } = this.rules.state;
    const state = { created, metadataSemantics: () => metadata.semantics };
    this.scenarios = SCENARIOS.flatMap((s) => (s.judgesItsRule ? [s.rejudge(state)] : []));
  }

  /** `twinAccepted`: whether the valid twin of the exchange's case was accepted; undefined when the HAR holds none. */
  judge(exchange: Exchange, at: number, twinAccepted: boolean | undefined): void {
    const verdict = this.rules.judgeRecorded(exchange, {
      fiatAccountIds: this.fiatAccountIds,
      refusedWithTwin: twinDecides,
      twinAccepted: () => twinAccepted,
    });
    for (const j of verdict.judgements) this.tally(j.rule, j.problems, j.crashed === true, at);
    for (const f of verdict.openPointFindings) this.tally(f.rule, f.problems, false, at, false);
    for (const scenario of this.scenarios) for (const o of scenario.observe(exchange, at)) this.tally(o.rule, o.problems, false, o.at);
    this.rules.state.metadata.observe(exchange);
  }

  /** What is decided once every exchange is in: the concurrent rounds, the last sequence. */
  finish(): void {
    for (const scenario of this.scenarios) for (const o of scenario.finish()) this.tally(o.rule, o.problems, false, o.at);
  }

  private tally(rule: RuleId, problems: readonly Problem[], crashed: boolean, at: number, counts = true): void {
    const tally = this.tallies.get(rule) ?? { cases: 0, problems: [], crashed: false };
    if (counts) tally.cases++;
    if (problems.length && tally.firstProblemAt === undefined) tally.firstProblemAt = at;
    // What is shown is the first problem; a HAR of 95,000 failing entries keeps a few.
    if (tally.problems.length < PROBLEMS_KEPT) tally.problems.push(...problems.slice(0, PROBLEMS_KEPT - tally.problems.length));
    tally.crashed ||= crashed;
    this.tallies.set(rule, tally);
  }
}

/** A HAR entry's exchange (sent again, or rebuilt from the recorded answer): its place in the HAR, whether a rule judges it, its twin links. */
export interface EntryExchange {
  exchange: Exchange;
  at: number;
  judged: boolean;
  links: { twin?: string; input?: string };
}

/**
 * Where each valid twin is in the HAR: the entries that carry each twin input (`_case.input`),
 * in order, among those a rule judges. Known before the judging starts (a first read of the HAR),
 * so a refused case waits only for the one entry that decides it.
 */
export class TwinOrder {
  /** By input, where it is: one place (a run asks a twin once), or several in increasing order. */
  private readonly byInput = new Map<string, number | number[]>();
  /** The recorded verdicts, by place, when the answers are known before the judging (a re-judge); a replay's come as it sends. */
  private readonly recordedAt = new Map<number, boolean>();

  /** Notes an entry that carries `input`, at `at` (in increasing order), and whether its recorded answer accepted it when that decides. */
  add(input: string, at: number, recordedAccepted?: boolean): void {
    if (recordedAccepted !== undefined) this.recordedAt.set(at, recordedAccepted);
    const known = this.byInput.get(input);
    if (known === undefined) this.byInput.set(input, at);
    else if (typeof known === 'number') this.byInput.set(input, [known, at]);
    else known.push(at);
  }

  /** The entries with `input` after `at`, nearest first. */
  *after(input: string, at: number): Generator<number> {
    const list = this.places(input);
    for (let i = firstAbove(list, at); i < list.length; i++) yield list[i];
  }

  /** The entries with `input` before `at`, nearest first. */
  *before(input: string, at: number): Generator<number> {
    const list = this.places(input);
    for (let i = firstAbove(list, at - 1) - 1; i >= 0; i--) yield list[i];
  }

  /** Whether the twin at `at` was accepted in the recorded answers, when they decide. */
  recorded(at: number): boolean | undefined {
    return this.recordedAt.get(at);
  }

  /** Whether the entry at `at` carries the twin input `input`. */
  has(input: string | undefined, at: number): boolean {
    return input !== undefined && this.places(input).includes(at);
  }

  private places(input: string): readonly number[] {
    const known = this.byInput.get(input);
    return known === undefined ? [] : typeof known === 'number' ? [known] : known;
  }
}

/** The index of the first number above `at` in an increasing list. */
function firstAbove(list: readonly number[], at: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (list[mid] <= at) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Judging waits: the entry that decides a refusal is not sent or left out yet. */
const WAIT = Symbol('wait');

/**
 * How far after its case, in entries, a twin the run sent for that case can be: the requests in
 * flight (--concurrency) and their twins. A --runs 5000 HAR at concurrency 8 has them 1 to 16
 * entries after; a later entry with the same link is another case's twin.
 */
export const TWIN_REACH = 4096;

/**
 * Judges the exchanges of a HAR's entries as they come, in the HAR's order, holding only those that
 * wait for a twin's verdict (issue 33: a 95,000-entry HAR is never held whole). A refusal's valid
 * twin is the entry its `_case.twin` links to (twin-link.ts): the nearest after the case among
 * those judged, within TWIN_REACH when there is one before; else the last before (a twin asked
 * once serves every case that repeats it, as in the run); none: undefined. An entry of the order
 * that is left out (not sent) is `skipped`. Only a refusal a twin decides waits.
 */
export class StreamingEntryJudge {
  private readonly judge: EntryJudge;
  /** Judged exchanges not judged yet: the first waits for its twin's entry, the others for it. */
  private readonly waiting: EntryExchange[] = [];
  /** The verdicts of the order's entries that came (accepted or not), and those left out. */
  private readonly verdictAt = new Map<number, boolean>();
  private readonly skippedAt = new Set<number>();

  constructor(
    fiatAccountIds: readonly string[],
    private readonly order: TwinOrder,
  ) {
    this.judge = new EntryJudge(fiatAccountIds);
  }

  /** One exchange, in the HAR's order; those no rule judges only count as come. */
  add(sent: EntryExchange): void {
    if (!sent.judged) {
      this.skip(sent.at, sent.links.input);
      return;
    }
    if (this.order.has(sent.links.input, sent.at)) this.verdictAt.set(sent.at, is2xx(sent.exchange));
    this.waiting.push(sent);
    this.judgeReady();
  }

  /** An entry left out (not sent, or judged by no rule), with the twin input it carries: a twin there decides nothing. */
  skip(at: number, input: string | undefined): void {
    if (this.order.has(input, at)) this.skippedAt.add(at);
    this.judgeReady();
  }

  /** How many exchanges wait for a twin's entry now (what the judge holds). */
  get held(): number {
    return this.waiting.length;
  }

  /** Every rule judged, sorted by id: what waits is decided by what came. */
  finish(): ReplayedRule[] {
    this.judgeReady(true);
    this.judge.finish();
    const rules = [...this.judge.tallies.entries()].map(
      ([id, t]): ReplayedRule => ({
        id,
        status: t.crashed ? 'error' : t.problems.length ? 'failed' : 'passed',
        cases: t.cases,
        problems: t.problems,
        ...(t.firstProblemAt !== undefined ? { firstProblemAt: t.firstProblemAt } : {}),
      }),
    );
    return rules.sort((a, b) => a.id.localeCompare(b.id));
  }

  private judgeReady(ended = false): void {
    while (this.waiting.length) {
      const next = this.waiting[0];
      const verdict = this.twinVerdict(next, ended);
      if (verdict === WAIT) return;
      this.waiting.shift();
      this.judge.judge(next.exchange, next.at, verdict);
    }
  }

  /** Whether the twin of the exchange's case was accepted; WAIT while the entry that decides it has not come. */
  private twinVerdict({ exchange, at, links }: EntryExchange, ended: boolean): boolean | undefined | typeof WAIT {
    // The judge asks only of a refusal a twin decides (rule-judge.ts): nothing else waits.
    if (links.twin === undefined || !twinDecides(exchange)) return undefined;
    for (const later of this.order.after(links.twin, at)) {
      // The run sends a twin as soon as its case is refused, among the requests in flight: one far
      // after was sent for another case (the link cannot tell every input the run kept apart),
      // and an earlier one, cached by the run, decided this case.
      if (later - at > TWIN_REACH) {
        const earlier = this.verdictBefore(links.twin, at);
        if (earlier !== undefined) return earlier;
      }
      // A re-judge knows every twin's verdict from its first read: nothing waits.
      const verdict = this.verdictAt.get(later) ?? this.order.recorded(later);
      if (verdict !== undefined) return verdict;
      if (!ended && !this.skippedAt.has(later)) return WAIT;
    }
    return this.verdictBefore(links.twin, at);
  }

  /** The verdict of the last twin entry with `input` before `at` that came, if any. */
  private verdictBefore(input: string, at: number): boolean | undefined {
    for (const earlier of this.order.before(input, at)) {
      const verdict = this.verdictAt.get(earlier) ?? this.order.recorded(earlier);
      if (verdict !== undefined) return verdict;
    }
    return undefined;
  }
}

/**
 * Whether a status judged again agrees with the report's: a failed rule must fail, a passed one be
 * judged and pass, an errored one crash again, an inconclusive one not fail.
 */
export function statusAgrees(reported: string, judgedAgain: ReplayStatus): boolean {
  if (reported === 'failed' || reported === 'passed' || reported === 'error') return judgedAgain === reported;
  return judgedAgain !== 'failed';
}
