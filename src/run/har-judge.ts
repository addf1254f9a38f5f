/**
 * Judging the exchanges of a HAR's entries, in the HAR's order, as the run judged them: every check
 * (src/rules/judge.ts), the identities created so far (id.distinct-identities, with its precedence
 * over the checks that compare an answer with its request), a refusal only when its valid twin
 * (linked by `_case.twin`, report/files/twin-link.ts) was accepted, the open points' observed
 * contract, the metadata state; the scenarios' rules from their entries: each ref_id repeat
 * against the identity its ref_id made, each concurrent round by the identities it made, each
 * update sequence against the model of what it stored. The exchanges come from sending the
 * entries again (har-replay.ts) or from their recorded answers (har-rejudge.ts): one judge for both.
 */
import type { RuleId } from '../core/catalogue.ts';
import type { Exchange } from '../core/exchange.ts';
import { OPERATIONS } from '../core/operations.ts';
import { MetadataState } from '../rules/update-fiat-account/metadata-state.ts';
import { AccountModel, SEQUENCE_RULES, type SequenceRule } from '../rules/update-fiat-account/sequences/account-model.ts';
import { SEQUENCE_ACCOUNTS } from '../rules/update-fiat-account/sequences/account-sequences.ts';
import { SCENARIOS, scenarioRules } from '../rules/scenarios.ts';
import { raceOutcome, repeatOutcome } from '../rules/create-identity/ref-id-scenarios.ts';
import type { Problem } from '../rules/check.ts';
import { CreatedIdentities, createdId, sentRefId } from '../rules/create-identity/created-identities.ts';
import { is2xx } from '../rules/checks/exchange-facts.ts';
import { refusesOpenPoint } from '../rules/checks/status-codes.ts';
import { type NeighbourFinding, OpenPointBook } from '../rules/open-points/open-point-book.ts';
import { checkJudgements } from '../engine/exchange-judge.ts';

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

/** The ref_id scenarios' rules, re-judged from their entries: each repeat against the identity its ref_id made, each race by its round. */
const SEQUENTIAL: RuleId = 'id.ref-id.sequential-duplicate';
const CONCURRENT: RuleId = 'id.ref-id.concurrent-duplicate';
/** The scenarios' rules a replay judges from their entries. */
const REJUDGED_SCENARIO_RULES: readonly RuleId[] = [SEQUENTIAL, CONCURRENT, ...SEQUENCE_RULES];

/**
 * Rules a HAR's entries cannot judge again, with why. None today: the scenarios' rules are
 * re-judged from their entries (the ref_id repeats and races, the update sequences' steps); a
 * scenario added later that judges from something a HAR does not hold belongs here.
 */
export const NOT_REJUDGED: readonly { id: RuleId; why: string }[] = SCENARIOS.filter((s) => s.judgesItsRule)
  .flatMap((s) => scenarioRules(s).map((id) => ({ id, why: `judged by the scenario of ${s.rule}, which a replay does not know` })))
  .filter((r) => !REJUDGED_SCENARIO_RULES.includes(r.id));

interface Tally {
  cases: number;
  problems: Problem[];
  crashed: boolean;
  firstProblemAt?: number;
}

/** What judging the exchanges in order keeps: the state the run's judge keeps, and each rule's tally. */
class EntryJudge {
  private readonly metadata = new MetadataState();
  private readonly created = new CreatedIdentities();
  private readonly openPoints = new OpenPointBook();
  /** The update sequence under way: its model, the rules it judged, the contradictions of its last answer. */
  private sequence: { model: AccountModel; judged: Set<SequenceRule>; problems: Map<SequenceRule, Problem[]>; over: boolean; at: number } | undefined;
  /** The creates of each concurrent round, by their shared ref_id, and the entry of its last create. */
  private readonly rounds = new Map<string, { results: Exchange[]; at: number }>();
  readonly tallies = new Map<RuleId, Tally>();

  /**
   * @param fiatAccountIds the target's pool
   * @param twinAccepted whether the valid twin of a case was accepted; undefined when the HAR holds none
   */
  constructor(
    private readonly fiatAccountIds: readonly string[],
    private readonly twinAccepted: (at: number) => boolean | undefined,
  ) {}

  /** Judges one exchange as the run's exchange judge (engine/exchange-judge.ts) does, with the twins' verdicts of these exchanges. */
  judge(exchange: Exchange, at: number): void {
    const c = exchange.testCase;
    const context = { fiatAccountIds: this.fiatAccountIds, mergeMayExceedLimit: (e: Exchange) => this.metadata.mergeMayExceedLimit(e) };
    let judgements = checkJudgements(exchange, context, this.created);
    // A refusal judges its rule only when its valid twin was accepted (else the target refuses something else).
    const own = c.violates ?? c.exercises;
    if (own && !c.open && exchange.response && !is2xx(exchange) && this.twinAccepted(at) === false) judgements = judgements.filter((j) => j.rule !== own);
    for (const j of judgements) this.tally(j.rule, j.problems, j.crashed === true, at);
    if (c.open) this.learnOpenPoint(exchange, at);
    if (c.mode === 'duplicate') this.judgeRepeat(exchange, at);
    this.judgeSequenceStep(exchange, at);
    this.metadata.observe(exchange);
  }

  /**
   * A step of an update sequence (engine/sequences/), against the model of what its sequence
   * stored, as the scenario judges it; a sequence starts again at its step 1 and ends at its first
   * contradiction.
   */
  private judgeSequenceStep(exchange: Exchange, at: number): void {
    const step = exchange.testCase.sequence;
    if (!step) return;
    if (step.step === 1) this.closeSequence();
    this.sequence ??= {
      model: new AccountModel(SEQUENCE_ACCOUNTS, () => this.metadata.semantics),
      judged: new Set(),
      problems: new Map(),
      over: false,
      at,
    };
    const sequence = this.sequence;
    if (sequence.over) return;
    sequence.at = at;
    const judgement = sequence.model.observe(step.account - 1, exchange);
    for (const rule of judgement.judged) sequence.judged.add(rule);
    sequence.problems = judgement.problems;
    sequence.over = judgement.problems.size > 0;
  }

  /** The rules a sequence judged: each passed in it unless its last answer contradicted it. */
  private closeSequence(): void {
    const sequence = this.sequence;
    this.sequence = undefined;
    if (!sequence) return;
    for (const rule of new Set([...sequence.judged, ...sequence.problems.keys()])) this.tally(rule, sequence.problems.get(rule) ?? [], false, sequence.at);
  }

  /** A repeat of a used ref_id, as its scenario judges it: against the identity the ref_id made (engine/scenarios.ts). */
  private judgeRepeat(exchange: Exchange, at: number): void {
    const refId = sentRefId(exchange);
    if (refId === undefined) return;
    if (exchange.testCase.exercises === CONCURRENT) {
      this.rounds.set(refId, { results: [...(this.rounds.get(refId)?.results ?? []), exchange], at });
      return;
    }
    const original = this.created.get(refId);
    // An accepted repeat without an id to compare judges nothing, as in the scenario.
    if (exchange.testCase.exercises !== SEQUENTIAL || !original || (is2xx(exchange) && createdId(exchange) === undefined)) return;
    this.tally(SEQUENTIAL, repeatOutcome(exchange, original).problems, false, at);
  }

  /** The concurrent rounds, each judged once all its creates are in, and the last sequence. */
  finish(): void {
    this.closeSequence();
    for (const [refId, round] of this.rounds) {
      const outcome = raceOutcome(round.results, refId);
      if (outcome) this.tally(CONCURRENT, outcome.problems, false, round.at);
    }
  }

  /** An open case adds to the observed contract; what no limit explains fails the rule of valid requests, as in the run. */
  private learnOpenPoint(exchange: Exchange, at: number): void {
    const c = exchange.testCase;
    let findings: NeighbourFinding[] = [];
    if (is2xx(exchange)) findings = this.openPoints.accepted(exchange);
    else if (refusesOpenPoint(exchange) && this.twinAccepted(at) === true && !this.metadata.mergeMayExceedLimit(exchange))
      findings = this.openPoints.refused(exchange);
    for (const f of findings) this.tally(OPERATIONS[c.operation].validAcceptedRule, f.problems, false, at, false);
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
