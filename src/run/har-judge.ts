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

  /**
   * @param fiatAccountIds the target's pool
   * @param twinAccepted whether the valid twin of a case was accepted; undefined when the HAR holds none
   */
  constructor(
    private readonly fiatAccountIds: readonly string[],
    private readonly twinAccepted: (at: number) => boolean | undefined,
  ) {
    const { created, metadata } = this.rules.state;
    const state = { created, metadataSemantics: () => metadata.semantics };
    this.scenarios = SCENARIOS.flatMap((s) => (s.judgesItsRule ? [s.rejudge(state)] : []));
  }

  judge(exchange: Exchange, at: number): void {
    const verdict = this.rules.judgeRecorded(exchange, {
      fiatAccountIds: this.fiatAccountIds,
      refusedWithTwin: twinDecides,
      twinAccepted: () => this.twinAccepted(at),
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
    tally.problems.push(...problems);
    tally.crashed ||= crashed;
    this.tallies.set(rule, tally);
  }
}

/**
 * Whether the valid twin of the case at `at` was accepted on replay: the entry its `_case.twin`
 * links to (twin-link.ts), the nearest after the case, else the last before (a twin asked once
 * serves every case that repeats it, as in the run); undefined when the HAR links none.
 */
function twinVerdicts(sent: readonly EntryExchange[]): (at: number) => boolean | undefined {
  const byInput = new Map<string, { at: number; accepted: boolean }[]>();
  const twinOf = new Map<number, string>();
  for (const { exchange, at, links } of sent) {
    if (links.twin) twinOf.set(at, links.twin);
    if (!links.input) continue;
    const list = byInput.get(links.input) ?? [];
    list.push({ at, accepted: is2xx(exchange) });
    byInput.set(links.input, list);
  }
  return (at) => {
    const twins = byInput.get(twinOf.get(at) ?? '') ?? [];
    return (twins.find((t) => t.at > at) ?? twins.filter((t) => t.at < at).at(-1))?.accepted;
  };
}

/** A HAR entry's exchange (sent again, or rebuilt from the recorded answer): its place in the HAR, whether a rule judges it, its twin links. */
export interface EntryExchange {
  exchange: Exchange;
  at: number;
  judged: boolean;
  links: { twin?: string; input?: string };
}

/**
 * Judges the exchanges of a HAR's entries in the HAR's order (those no rule judges left out here),
 * each refusal by the verdict of its twin among them; every rule judged, sorted by id.
 */
export function judgeEntryExchanges(exchanges: readonly EntryExchange[], fiatAccountIds: readonly string[]): ReplayedRule[] {
  const judged = exchanges.filter((s) => s.judged);
  const entryJudge = new EntryJudge(fiatAccountIds, twinVerdicts(judged));
  for (const { exchange, at } of judged) entryJudge.judge(exchange, at);
  entryJudge.finish();
  const rules = [...entryJudge.tallies.entries()].map(
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

/**
 * Whether a status judged again agrees with the report's: a failed rule must fail, a passed one be
 * judged and pass, an errored one crash again, an inconclusive one not fail.
 */
export function statusAgrees(reported: string, judgedAgain: ReplayStatus): boolean {
  if (reported === 'failed' || reported === 'passed' || reported === 'error') return judgedAgain === reported;
  return judgedAgain !== 'failed';
}
