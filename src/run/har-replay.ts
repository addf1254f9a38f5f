/**
 * Replaying exchanges.har: every entry's request sent again, in the HAR's order, to a target (by
 * default a fresh embedded server: the run's pool accounts, named by the restore's start reads,
 * stand for its own), and judged by the rules as the run judged it: every check
 * (src/rules/judge.ts), the identities created so far (id.distinct-identities, with its
 * precedence over the checks that compare an answer with its request), a refusal only when its
 * valid twin (linked by `_case.twin`, report/files/twin-link.ts) was accepted, the open points'
 * observed contract, the metadata state; the scenarios' rules from their entries: each ref_id
 * repeat against the identity its ref_id made, each concurrent round (sent together again) by the
 * identities it made, each update sequence against the model of what it stored. Entries of the
 * restore (`_case.restore`) and attempts sent again are re-sent but judged by no rule; the
 * reachability check is not sent. A redacted HAR (bundle --redact-personal) replays the same way:
 * its stand-ins have the shape of the values.
 */
import type { TestCase } from '../core/case.ts';
import { getRule, type RuleId } from '../core/catalogue.ts';
import type { Exchange } from '../core/exchange.ts';
import { matchOperationPath, OPERATIONS, type Operation } from '../core/operations.ts';
import { MetadataState } from '../engine/metadata-state.ts';
import { AccountModel, SEQUENCE_RULES, type SequenceRule } from '../engine/sequences/account-model.ts';
import { SEQUENCE_ACCOUNTS } from '../engine/sequences/account-sequences.ts';
import { raceOutcome, repeatOutcome, SCENARIOS, scenarioRules } from '../engine/scenarios.ts';
import type { HarEntry } from '../report/files/har.ts';
import type { ReportFailure } from '../report/model/model.ts';
import { recordedCase } from '../report/model/recorded-case.ts';
import type { Problem } from '../rules/check.ts';
import { CreatedIdentities, createdId, sentRefId } from '../rules/created-identities.ts';
import { judge } from '../rules/judge.ts';
import { comparesWithRequest } from '../rules/rule-facts.ts';
import { is2xx } from '../rules/checks/exchange-facts.ts';
import { refusesOpenPoint } from '../rules/checks/status-codes.ts';
import { type NeighbourFinding, OpenPointBook } from '../engine/open-point-book.ts';
import type { RunConfig } from './run-config.ts';
import { UsageError } from '../core/errors.ts';
import { targetTransport } from './prepare-run.ts';
import type { Transport } from '../engine/transport/transport.ts';
import { startTarget } from './target.ts';

/** The status of a rule from a replay: failed, passed (judged, no problem), error (a check crashed), or not judged by any entry. */
export type ReplayStatus = 'passed' | 'failed' | 'error' | 'not judged';

/** One rule as the replay judged it: its status, the entries that judged it, what they found. */
export interface ReplayedRule {
  id: RuleId;
  status: ReplayStatus;
  cases: number;
  problems: Problem[];
}

/** What a replay of a HAR found. */
export interface HarReplay {
  rules: ReplayedRule[];
  /** The rules a HAR cannot judge again, each with why. */
  notRejudged: { id: RuleId; why: string }[];
  /** Entries sent again, and those left out with why (the reachability check, a body the HAR cut). */
  sent: number;
  leftOut: { index: number; why: string }[];
}

/** The ref_id scenarios' rules, re-judged from their entries: each repeat against the identity its ref_id made, each race by its round. */
const SEQUENTIAL: RuleId = 'id.ref-id.sequential-duplicate';
const CONCURRENT: RuleId = 'id.ref-id.concurrent-duplicate';
/** `sequence step 3, account 2: …`: a step of an update sequence (engine/sequences/update-commands.ts runStep). */
const SEQUENCE_STEP = /^sequence step (\d+), account (\d+): /;
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
}

/** The body as the case sent it: JSON that prints back the same is a body, any other text is sent verbatim. */
function bodyOf(text: string | undefined): { body?: unknown; rawBody?: string } {
  if (text === undefined) return {};
  try {
    const body = JSON.parse(text) as unknown;
    if (JSON.stringify(body) === text) return { body };
  } catch {
    // Malformed on purpose: sent as it was.
  }
  return { rawBody: text };
}

/** The operation a request without a case went to (an attempt sent again), by its method and path. */
function operationOf(entry: HarEntry): Operation | undefined {
  if (!URL.canParse(entry.request.url)) return undefined;
  const pathname = new URL(entry.request.url).pathname;
  return (Object.keys(OPERATIONS) as Operation[]).find((op) => OPERATIONS[op].method === entry.request.method && matchOperationPath(pathname, op));
}

/** What a HAR entry's `_case` says of its case beyond operation, label and mode. */
const intentFields = (c: HarEntry['_case']) => ({
  ...(c?.violates ? { violates: c.violates } : {}),
  ...(c?.exercises ? { exercises: c.exercises } : {}),
  ...(c?.open ? { open: c.open } : {}),
  ...(c?.around ? { around: c.around } : {}),
  ...(c?.auth ? { auth: c.auth } : {}),
});

/** The case of one HAR entry, or why it cannot be sent again. */
export function caseOfEntry(entry: HarEntry): { testCase: TestCase; judged: boolean } | { why: string } {
  if (entry.request.postData?.comment) return { why: 'its body was cut in the HAR' };
  const c = entry._case;
  const operation = c?.operation ?? operationOf(entry);
  if (!operation) return { why: entry.comment ?? 'no case and no operation of the document' };
  const failure = {
    case: { operation, label: c?.label ?? 'sent again', mode: c?.mode ?? 'valid', ...intentFields(c) },
    request: { method: entry.request.method, url: entry.request.url, headers: {}, ...bodyOf(entry.request.postData?.text) },
  } as unknown as ReportFailure;
  const rebuilt = recordedCase(failure);
  if ('problem' in rebuilt) return { why: rebuilt.problem };
  return { testCase: { ...rebuilt, ...(c?.restore ? { restore: c.restore } : {}) }, judged: c !== undefined && c.restore === undefined };
}

/** The fiat account a HAR entry's URL names, if any. */
function accountOf(entry: HarEntry): string | undefined {
  const rebuilt = caseOfEntry(entry);
  return 'testCase' in rebuilt ? rebuilt.testCase.fiatAccountId : undefined;
}

/**
 * The run's pool accounts, in the order the HAR first names them, paired with the target's: the
 * restore's start reads name the pool (else the accounts that answered a 2xx); a fresh embedded
 * server has as many accounts, with ids of its own. An id outside the pool (an unknown-id probe)
 * is sent as it was; so is every id when the target names no accounts (a remote one given none).
 */
function accountMap(entries: readonly HarEntry[], targetIds: readonly string[]): Map<string, string> {
  // A remote target given no account ids: the HAR's own accounts, as recorded.
  if (!targetIds.length) return new Map();
  const startReads = entries.filter((e) => e._case?.restore === 'start-read');
  const naming = startReads.length ? startReads : entries.filter((e) => e.response.status >= 200 && e.response.status < 300);
  const pool = [...new Set(naming.map(accountOf).filter((id): id is string => id !== undefined))];
  if (pool.length > targetIds.length)
    throw new UsageError(`the HAR updates ${pool.length} fiat accounts and the target has ${targetIds.length}: give as many --fiat-account-id`);
  return new Map(pool.map((id, i) => [id, targetIds[i]]));
}

/** What judging the re-sent exchanges in order keeps: the state the run's judge keeps, and each rule's tally. */
class ReplayJudge {
  private readonly metadata = new MetadataState();
  private readonly created = new CreatedIdentities();
  private readonly openPoints = new OpenPointBook();
  /** The update sequence under way: its model, the rules it judged, the contradictions of its last answer. */
  private sequence: { model: AccountModel; judged: Set<SequenceRule>; problems: Map<SequenceRule, Problem[]>; over: boolean } | undefined;
  /** The creates of each concurrent round, by their shared ref_id. */
  private readonly rounds = new Map<string, Exchange[]>();
  readonly tallies = new Map<RuleId, Tally>();

  /**
   * @param fiatAccountIds the target's pool
   * @param twinAccepted whether the valid twin of a case was accepted on replay; undefined when the HAR holds none
   */
  constructor(
    private readonly fiatAccountIds: readonly string[],
    private readonly twinAccepted: (at: number) => boolean | undefined,
  ) {}

  /** Judges one exchange as the run's exchange judge (engine/exchange-judge.ts) does, with the twins' verdicts from the replay. */
  judge(exchange: Exchange, at: number): void {
    const c = exchange.testCase;
    let judgements = judge(exchange, { fiatAccountIds: this.fiatAccountIds, mergeMayExceedLimit: (e) => this.metadata.mergeMayExceedLimit(e) });
    const distinct = c.around === undefined ? this.created.observe(exchange) : null;
    if (distinct) judgements.push({ rule: 'id.distinct-identities', problems: distinct });
    if (distinct?.length) judgements = judgements.filter((j) => !comparesWithRequest(j.rule));
    // A refusal judges its rule only when its valid twin was accepted (else the target refuses something else).
    const own = c.violates ?? c.exercises;
    if (own && !c.open && exchange.response && !is2xx(exchange) && this.twinAccepted(at) === false) judgements = judgements.filter((j) => j.rule !== own);
    for (const j of judgements) this.tally(j.rule, j.problems, j.crashed === true);
    if (c.open) this.learnOpenPoint(exchange, at);
    if (c.mode === 'duplicate') this.judgeRepeat(exchange);
    this.judgeSequenceStep(exchange);
    this.metadata.observe(exchange);
  }

  /**
   * A step of an update sequence (engine/sequences/), against the model of what its sequence
   * stored, as the scenario judges it; a sequence starts again at its step 1 and ends at its first
   * contradiction.
   */
  private judgeSequenceStep(exchange: Exchange): void {
    const step = SEQUENCE_STEP.exec(exchange.testCase.label);
    if (!step) return;
    if (step[1] === '1') this.closeSequence();
    this.sequence ??= { model: new AccountModel(SEQUENCE_ACCOUNTS, () => this.metadata.semantics), judged: new Set(), problems: new Map(), over: false };
    const sequence = this.sequence;
    if (sequence.over) return;
    const judgement = sequence.model.observe(Number(step[2]) - 1, exchange);
    for (const rule of judgement.judged) sequence.judged.add(rule);
    sequence.problems = judgement.problems;
    sequence.over = judgement.problems.size > 0;
  }

  /** The rules a sequence judged: each passed in it unless its last answer contradicted it. */
  private closeSequence(): void {
    const sequence = this.sequence;
    this.sequence = undefined;
    if (!sequence) return;
    for (const rule of new Set([...sequence.judged, ...sequence.problems.keys()])) this.tally(rule, sequence.problems.get(rule) ?? [], false);
  }

  /** A repeat of a used ref_id, as its scenario judges it: against the identity the ref_id made (engine/scenarios.ts). */
  private judgeRepeat(exchange: Exchange): void {
    const refId = sentRefId(exchange);
    if (refId === undefined) return;
    if (exchange.testCase.exercises === CONCURRENT) {
      this.rounds.set(refId, [...(this.rounds.get(refId) ?? []), exchange]);
      return;
    }
    const original = this.created.get(refId);
    // An accepted repeat without an id to compare judges nothing, as in the scenario.
    if (exchange.testCase.exercises !== SEQUENTIAL || !original || (is2xx(exchange) && createdId(exchange) === undefined)) return;
    this.tally(SEQUENTIAL, repeatOutcome(exchange, original).problems, false);
  }

  /** The concurrent rounds, each judged once all its creates are in, and the last sequence. */
  finish(): void {
    this.closeSequence();
    for (const [refId, results] of this.rounds) {
      const outcome = raceOutcome(results, refId);
      if (outcome) this.tally(CONCURRENT, outcome.problems, false);
    }
  }

  /** An open case adds to the observed contract; what no limit explains fails the rule of valid requests, as in the run. */
  private learnOpenPoint(exchange: Exchange, at: number): void {
    const c = exchange.testCase;
    let findings: NeighbourFinding[] = [];
    if (is2xx(exchange)) findings = this.openPoints.accepted(exchange);
    else if (refusesOpenPoint(exchange) && this.twinAccepted(at) === true && !this.metadata.mergeMayExceedLimit(exchange))
      findings = this.openPoints.refused(exchange);
    for (const f of findings) this.tally(OPERATIONS[c.operation].validAcceptedRule, f.problems, false, false);
  }

  private tally(rule: RuleId, problems: readonly Problem[], crashed: boolean, counts = true): void {
    const tally = this.tallies.get(rule) ?? { cases: 0, problems: [], crashed: false };
    if (counts) tally.cases++;
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
function twinVerdicts(sent: readonly Sent[]): (at: number) => boolean | undefined {
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

/** A re-sent entry: its exchange, its place in the HAR, whether a rule judges it, its twin links. */
interface Sent {
  exchange: Exchange;
  at: number;
  judged: boolean;
  links: { twin?: string; input?: string };
}

/** A burst of the concurrent ref_id scenario: this entry's ref_id when it is one of the race's creates. */
function raceRefId(entry: HarEntry): string | undefined {
  if (entry._case?.exercises !== CONCURRENT) return undefined;
  const refId = (bodyOf(entry.request.postData?.text).body as { ref_id?: unknown } | undefined)?.ref_id;
  return typeof refId === 'string' ? refId : undefined;
}

/**
 * Sends every entry that can be sent again, in the HAR's order, one at a time; the creates of one
 * concurrent round (consecutive, one ref_id) go out together, as the run sent them: a race needs them at once.
 */
async function sendAll(
  entries: readonly HarEntry[],
  transport: Transport,
  accounts: ReadonlyMap<string, string>,
): Promise<{ sent: Sent[]; leftOut: HarReplay['leftOut'] }> {
  const sent: Sent[] = [];
  const leftOut: HarReplay['leftOut'] = [];
  const ready: { at: number; entry: HarEntry; testCase: TestCase; judged: boolean }[] = [];
  for (const [at, entry] of entries.entries()) {
    const rebuilt = caseOfEntry(entry);
    if ('why' in rebuilt) leftOut.push({ index: at, why: rebuilt.why });
    else {
      const recorded = rebuilt.testCase;
      const mapped = recorded.fiatAccountId !== undefined ? accounts.get(recorded.fiatAccountId) : undefined;
      ready.push({ at, entry, testCase: mapped ? { ...recorded, fiatAccountId: mapped } : recorded, judged: rebuilt.judged });
    }
  }
  const sendOne = async ({ at, entry, testCase, judged }: (typeof ready)[number]): Promise<Sent> => {
    const exchange = await transport.send(testCase, testCase.auth ? { auth: testCase.auth } : undefined);
    const { twin, input } = entry._case ?? {};
    return { exchange, at, judged, links: { ...(twin ? { twin } : {}), ...(input ? { input } : {}) } };
  };
  for (let i = 0; i < ready.length; ) {
    const refId = raceRefId(ready[i].entry);
    let end = i + 1;
    while (refId !== undefined && end < ready.length && raceRefId(ready[end].entry) === refId) end++;
    sent.push(...(await Promise.all(ready.slice(i, end).map(sendOne))));
    i = end;
  }
  return { sent, leftOut };
}

/** Sends the HAR's entries again, in order, to the target of `config` (none: a fresh embedded server) and judges them. */
export async function replayHar(entries: readonly HarEntry[], config: RunConfig): Promise<HarReplay> {
  const target = await startTarget(config);
  try {
    const transport = targetTransport(config, target);
    await transport.authenticate();
    // Sent first, judged after: a refused case's twin goes after it, and its verdict decides the case.
    const { sent, leftOut } = await sendAll(entries, transport, accountMap(entries, target.fiatAccountIds));
    const judged = sent.filter((s) => s.judged);
    const replayJudge = new ReplayJudge(target.fiatAccountIds, twinVerdicts(judged));
    for (const { exchange, at } of judged) replayJudge.judge(exchange, at);
    replayJudge.finish();
    const rules = [...replayJudge.tallies.entries()].map(
      ([id, t]): ReplayedRule => ({ id, status: t.crashed ? 'error' : t.problems.length ? 'failed' : 'passed', cases: t.cases, problems: t.problems }),
    );
    return { rules: rules.sort((a, b) => a.id.localeCompare(b.id)), notRejudged: [...NOT_REJUDGED], sent: sent.length, leftOut };
  } finally {
    await target.close();
  }
}

/**
 * Where a replay disagrees with the report's rule statuses, one line per rule: a rule the report
 * failed must fail again, a passed one must be judged and pass, an inconclusive one must not fail.
 * Skipped rules and the rules a HAR cannot judge again are left out.
 */
export function replayDisagreements(reported: readonly { id: string; status: string }[], replayed: HarReplay): string[] {
  const byId = new Map(replayed.rules.map((r) => [r.id as string, r]));
  const skip = new Set(replayed.notRejudged.map((r) => r.id as string));
  const lines: string[] = [];
  for (const rule of reported) {
    if (skip.has(rule.id) || rule.status === 'skipped') continue;
    const status = byId.get(rule.id)?.status ?? 'not judged';
    const agrees =
      rule.status === 'failed'
        ? status === 'failed'
        : rule.status === 'passed'
          ? status === 'passed'
          : rule.status === 'error'
            ? status === 'error'
            : status !== 'failed';
    if (!agrees) lines.push(`${rule.id} (${getRule(rule.id).section}): the report says ${rule.status}, the replay ${status}`);
  }
  return lines;
}
