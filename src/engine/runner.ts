/**
 * The runner: reads the target's state, then sends the fixed cases of every family, the stateful
 * scenarios and the random cases, many at once (pipeline.ts) but judged in a fixed order, so a
 * seed gives the same cases and the same verdict at any concurrency. Each exchange is judged with
 * all checks; a failure found by a random case is then shrunk with fast-check against the live
 * target, within a request budget (shrink-budget.ts). It emits events; src/report folds them into
 * the verdict and the reports.
 */
import fc from 'fast-check';
import { getRule, type RuleDefinition, type RuleId } from '../core/catalogue.ts';
import type { CheckContext, Problem } from '../rules/check.ts';
import { caseFamilies, type CaseFamily } from './generators/families.ts';
import type { TestCase } from '../core/case.ts';
import { usesFiatAccount } from '../core/operations.ts';
import type { Exchange } from '../core/exchange.ts';
import type { Finding, RuleOutcome, RunEvent, RunListener, Stop } from './events.ts';
import type { Transport } from './transport/transport.ts';
import { AuthenticationError, RouteNotFoundError, UnknownAccountsError } from '../core/errors.ts';
import { notifyAll } from '../core/notify.ts';
import { judge } from '../rules/judge.ts';
import { MetadataState } from './metadata-state.ts';
import { RefIds } from './ref-ids.ts';
import type { ScenarioContext } from './scenarios.ts';
import { hasFamily, judgedOnEveryExchange, plannedShare, selectRules } from './plan.ts';
import type { Shard } from './shard.ts';
import { UndocumentedFields } from '../rules/undocumented-fields.ts';
import { registry } from '../schema/registry.ts';
import { CreatedIdentities } from '../rules/created-identities.ts';
import { fiatAccountChecks } from '../rules/checks/fiat-account-response.ts';
import { identityChecks } from '../rules/checks/identity-response.ts';
import { is2xx, successBody } from '../rules/checks/exchange-facts.ts';
import { coverageOf, emptyTally, inputKey, minimumFor, minimumUnder, randomRuns, Refusals, type Tally } from './coverage.ts';
import { InputIds, InputVerdicts } from './input-ids.ts';
import { asEvidence, problemAsEvidence } from './evidence.ts';
import { TargetWatch } from './target-watch.ts';
import { AnswerTally } from './answer-tally.ts';
import { RunInterrupted, RunStop } from './run-stop.ts';
import { fromArray, inTurn, pipeline, type ItemSource } from './pipeline.ts';
import { generatedCases, propertyParameters } from './generated-cases.ts';
import { ShrinkBudget } from './shrink-budget.ts';
import { TwinRequests } from './twin-requests.ts';

/** What the engine needs to know; how the run is reported is src/report's business. */
export interface RunSettings {
  /** The fiat account ids the target holds (the user's pool, or the embedded server's). */
  fiatAccountIds: string[];
  seed: number;
  /** Random cases per family, on top of the deterministic examples. */
  runs: number;
  /** How many identical creates the concurrent ref_id scenario sends at once. */
  concurrentDuplicates: number;
  /** Cases sent ahead of the one being judged (--concurrency); 1 by default: one at a time. */
  concurrency?: number;
  /** Only rules whose id starts with one of these prefixes (all when empty). */
  ruleFilter?: string[];
  /**
   * Aborted when the user interrupts the run (its reason is the signal's name): no further case
   * is sent, and the run ends with what was judged until then (`stopped.kind: 'interrupted'`).
   */
  signal?: AbortSignal;
  /** --fail-fast: the first failure of a rule this accepts ends the run (`stopped.kind: 'fail-fast'`). */
  failFast?: (rule: RuleDefinition) => boolean;
  /**
   * --shard: send only this shard's share of the families and scenarios (shard.ts). The accounts
   * are read in every shard; those reads count as cases in the first shard only, so the shards'
   * cases add up to the unsharded run's.
   */
  shard?: Shard;
}

/** Everything a run found: the payload of its run-end event. */
export type RunResult = Omit<Extract<RunEvent, { type: 'run-end' }>, 'type'>;

/** Evidence kept per rule: the first is the minimal one when a property shrank it. */
export const MAX_FAILURES_PER_RULE = 5;

type RuleRecord = Pick<RuleOutcome, 'cases' | 'findings' | 'crashed' | 'firstFailureAtRequest'>;

/** Rules that compare an identity with the request that created it. */
const REFLECTS_REQUEST: ReadonlySet<RuleId> = new Set<RuleId>(['id.dob.midnight-utc', 'id.govt-id.mirrors-cip', 'id.person-details.returned', 'id.is-merchant.returned', 'id.type-person']);

/** The rules judged from the body of a success: a 2xx that holds none of their fields leaves them silent. */
const RESPONSE_RULES: ReadonlySet<RuleId> = new Set([...fiatAccountChecks, ...identityChecks].map((c) => c.rule));

/** One case of a family's plan: an example (fixed) or a random case, with fast-check's replay path. */
interface PlannedCase {
  family: CaseFamily;
  /** The case's index in its family's property: `String(index)` replays it. */
  index: number;
  fixed: boolean;
  /** The case as generated, then with its ref_id and (when the pool is read in turn) its account. */
  testCase: TestCase;
  /** The pool account of the case, or of its twin (assigned in plan order; merge: when it starts). */
  account?: string;
}

export async function runConformance(transport: Transport, settings: RunSettings, listeners: RunListener[] = []): Promise<RunResult> {
  const started = Date.now();
  const startedAt = new Date(started).toISOString();
  const selected = selectRules(settings.ruleFilter);
  const selectedIds = new Set<string>(selected.map((r) => r.id));
  const records = new Map<RuleId, RuleRecord>(selected.map((r) => [r.id, { cases: 0, findings: [], crashed: false }]));
  const tallies = new Map<RuleId, Tally>(selected.map((r) => [r.id, emptyTally()]));
  const metadata = new MetadataState();
  const refIds = new RefIds(settings.seed);
  const undocumented = new UndocumentedFields(registry());
  const created = new CreatedIdentities();
  const refusals = new Refusals();
  const answers = new AnswerTally();
  const shrinkBudget = new ShrinkBudget();
  /** Cases from examples and scenarios; the others are random. */
  const fixedCases = new WeakSet<TestCase>();
  /** Cases judged but not counted: the account reads of every shard but the first. */
  const uncounted = new WeakSet<TestCase>();
  /** Numbers for what cases sent: distinct inputs per rule, and twins already asked. */
  const inputIds = new InputIds();
  /** Whether a valid twin was accepted, by what it sent: twins of fixed examples repeat. */
  const twinVerdicts = new InputVerdicts();
  const context: CheckContext = {
    fiatAccountIds: settings.fiatAccountIds,
    mergeMayExceedLimit: (e) => metadata.mergeMayExceedLimit(e),
  };
  const emit = (event: RunEvent) => notifyAll(listeners, event);
  const pool = settings.fiatAccountIds;
  let accountCursor = 0;
  let currentRule: RuleDefinition | undefined;
  /** Exchanges judged so far: where a rule first saw a problem, whatever was still in flight. */
  let judgedRequests = 0;
  /** The first failure that ends the run under --fail-fast. */
  let failFastRule: RuleId | undefined;

  /** Updates go to the accounts of the pool in turn, unless the case names its own id. */
  const withAccount = (c: TestCase): TestCase => {
    if (!usesFiatAccount(c.operation) || c.fiatAccountId !== undefined) return c;
    const inTurnOfPool = () => pool[accountCursor++ % pool.length];
    return { ...c, fiatAccountId: metadata.accountFor(c.body, pool, inTurnOfPool) };
  };
  /** Fills in what the generators leave to the runner (the account id, a fresh ref_id), and notes a fixed case. */
  const prepare = (c: TestCase, fixed: boolean): TestCase => {
    const prepared = refIds.stamp(withAccount(c));
    if (fixed) fixedCases.add(prepared);
    return prepared;
  };

  /** Rules that saw their first problem (or a crashed check) since the last `announceFailing`. */
  const failingNow: RuleId[] = [];
  const failing = new Set<RuleId>();
  const flagFailing = (rule: RuleId) => {
    if (!records.has(rule) || failing.has(rule)) return;
    failing.add(rule);
    failingNow.push(rule);
  };
  /** Tells the listeners which rules fail now, while the run goes (their rule-end comes at the end). */
  const announceFailing = async () => {
    for (const rule of failingNow.splice(0)) await emit({ type: 'rule-failing', rule: getRule(rule), atRequest: records.get(rule)?.firstFailureAtRequest ?? judgedRequests });
  };

  /** When a rule first saw a problem; under --fail-fast, the first one that ends the run. */
  const noteFailure = (rule: RuleId) => {
    const entry = records.get(rule);
    if (!entry) return;
    entry.firstFailureAtRequest ??= judgedRequests;
    flagFailing(rule);
    if (failFastRule === undefined && settings.failFast?.(getRule(rule))) failFastRule = rule;
  };

  /** Counts a case that judged `rule`: nothing of its exchange is kept. */
  const count = (rule: RuleId, exchange: Exchange) => {
    const entry = records.get(rule);
    const tally = tallies.get(rule);
    if (!entry || !tally || uncounted.has(exchange.testCase)) return;
    entry.cases += 1;
    fixedCases.has(exchange.testCase) ? tally.fixed++ : tally.random++;
    tally.inputs.add(inputIds.of(exchange.testCase));
  };

  const record = (rule: RuleId, problems: Problem[], exchange: Exchange, path?: string) => {
    count(rule, exchange);
    keepFindings(rule, problems, exchange, path);
  };

  /** Keeps what an exchange showed as evidence of `rule`, at most MAX_FAILURES_PER_RULE findings. */
  const keepFindings = (rule: RuleId, problems: Problem[], exchange: Exchange, path?: string, front = false) => {
    const entry = records.get(rule);
    if (!entry || !problems.length) return;
    noteFailure(rule);
    if (!front && entry.findings.length >= MAX_FAILURES_PER_RULE) return;
    const evidence = asEvidence(exchange);
    const found = problems.map((problem): Finding => ({ problem: problemAsEvidence(problem), exchange: evidence, ...(path ? { path } : {}) }));
    // The minimal counterexample goes in front, its problems in the order the checks gave them.
    if (front) entry.findings.unshift(...found);
    else entry.findings.push(...found);
    if (entry.findings.length > MAX_FAILURES_PER_RULE) entry.findings.length = MAX_FAILURES_PER_RULE;
  };

  /** Throws RunStop once the user asked the run to stop, or --fail-fast saw its failure: no case is sent after that. */
  const checkGoOn = () => {
    if (settings.signal?.aborted) throw new RunInterrupted(String(settings.signal.reason ?? 'a signal'));
    if (failFastRule !== undefined) throw new RunStop('fail-fast', `${failFastRule} failed, and --fail-fast ends the run at the first failure`);
  };

  const send = (c: TestCase): Promise<Exchange> => transport.send(c, c.auth ? { auth: c.auth } : undefined);

  /** Sends a case and judges it; what it found for `focus` is returned, not recorded. */
  const exercise = async (c: TestCase, focus?: RuleId) => {
    checkGoOn();
    return observe(await send(c), { focus });
  };

  /** Valid twins: sent as soon as their case is refused, judged in the case's turn. */
  const twins = new TwinRequests((c) => inputIds.of(c.control!), send);
  /** The twin of a case, ready to send: on the case's pool account when it has one. */
  const twinOf = (c: TestCase, account?: string): TestCase => {
    const twin = prepare(account && c.control!.fiatAccountId === undefined ? { ...c.control!, fiatAccountId: account } : c.control!, fixedCases.has(c));
    // A twin shared with a family of another shard counts there (shard.ts).
    if (foreignTwins?.has(inputKey(c.control!))) uncounted.add(twin);
    return twin;
  };
  /** A case of a selected rule that the target refused: its rule is judged only if its twin is accepted. */
  const refusedWithTwin = (c: TestCase, exchange: Exchange): boolean => {
    const own = c.violates ?? c.exercises;
    return c.control !== undefined && own !== undefined && selectedIds.has(own) && exchange.response !== undefined && !is2xx(exchange);
  };
  /** Whether a refused case needs its twin asked: a twin asked before is not asked again. */
  const needsTwin = (c: TestCase, exchange: Exchange): boolean => refusedWithTwin(c, exchange) && twinVerdicts.get(inputIds.of(c.control!)) === undefined;

  /**
   * A refused invalid or boundary case judges its rule only when its valid twin is accepted:
   * otherwise the target refuses something else (a name, every request), and the twin's own
   * refusal is the finding, under the rule of valid requests.
   */
  const twinAccepted = async (c: TestCase, account?: string): Promise<boolean> => {
    const key = inputIds.of(c.control!);
    const known = twinVerdicts.get(key);
    if (known !== undefined) return known;
    try {
      // A boundary twin has its own twin: on the same account, too.
      const { exchange } = await observe(await twins.answer(c, () => twinOf(c, account)), { account });
      // A target known to merge metadata may refuse the twin for the keys an account already
      // holds: the case keeps the benefit of that doubt. Any other refusal leaves it unjudged.
      const accepted = is2xx(exchange) || (metadata.semantics === 'merge' && context.mergeMayExceedLimit(exchange));
      // A twin that got no answer says nothing about the target: the next case that needs it asks again.
      if (exchange.response) twinVerdicts.set(key, accepted);
      return accepted;
    } finally {
      twins.settle(c);
    }
  };

  /**
   * Judges an exchange for every rule, and says what it found for `focus` (not recorded) and
   * which rules it failed. `path`: fast-check's replay path of the case, kept with its findings;
   * `account`: the pool account of the case, where its twin goes.
   */
  const observe = async (exchange: Exchange, { focus, path, account }: { focus?: RuleId; path?: string; account?: string } = {}): Promise<{ exchange: Exchange; focusProblems: Problem[] | null; failed: RuleId[] }> => {
    // An answer cut short by the interruption says nothing about the target: not judged.
    checkGoOn();
    judgedRequests++;
    answers.observe(exchange);
    await emit({ type: 'exchange', exchange });
    const c = exchange.testCase;
    const judgements = judge(exchange, context);
    const distinct = created.observe(exchange);
    if (distinct) judgements.push({ rule: 'id.distinct-identities', problems: distinct });
    // An answer that is another create's identity does not reflect this request: one root, one rule.
    if (distinct?.length) judgements.splice(0, judgements.length, ...judgements.filter((j) => !REFLECTS_REQUEST.has(j.rule)));
    const own = c.violates ?? c.exercises;
    const ownAt = judgements.findIndex((j) => j.rule === own);
    if (ownAt >= 0 && refusedWithTwin(c, exchange) && !(await twinAccepted(c, account))) {
      judgements.splice(ownAt, 1);
      const tally = tallies.get(own!);
      if (tally) tally.twinRefused += 1;
    }
    if (successBody(exchange)) {
      const judged = new Set(judgements.map((j) => j.rule));
      for (const rule of selected) if (rule.operation === c.operation && RESPONSE_RULES.has(rule.id) && !judged.has(rule.id)) tallies.get(rule.id)!.silentSuccesses++;
    }
    let focusProblems: Problem[] | null = null;
    const failed: RuleId[] = [];
    for (const j of judgements) {
      if (j.crashed && records.get(j.rule)) {
        records.get(j.rule)!.crashed = true;
        flagFailing(j.rule);
      }
      if (j.problems.length) failed.push(j.rule);
      if (j.rule === focus) focusProblems = j.problems;
      else record(j.rule, j.problems, exchange, path);
    }
    refusals.observe(exchange);
    metadata.observe(exchange);
    undocumented.observe(exchange);
    await watch.observe(exchange);
    await announceFailing();
    return { exchange, focusProblems, failed };
  };

  /** A request that worked at the start (an empty update): asked when answers stop coming. */
  const watch = new TargetWatch(() => transport.send({ operation: 'updateFiatAccount', mode: 'valid', label: 'probe: is the target still answering?', body: {}, fiatAccountId: pool[0] }));

  const families = caseFamilies();
  const merging = () => metadata.semantics === 'merge';
  const runsOf = (family: CaseFamily) => randomRuns(family, settings.runs);
  const minimums = new Map(selected.map((rule) => [rule.id, minimumFor(rule, settings.runs, families.find((f) => f.rule === rule.id))]));
  /** Set when the run ends early: the cause of every shortfall then. */
  let stoppedEarly: string | undefined;
  const outcomeOf = (rule: RuleDefinition): RuleOutcome => ({
    rule,
    ...records.get(rule.id)!,
    coverage: coverageOf(rule, tallies.get(rule.id)!, minimumUnder(rule, minimums.get(rule.id)!, merging()), refusals, stoppedEarly),
  });
  await emit({ type: 'run-start', rules: selected, fiatAccountIds: pool });

  const begun = new Set<RuleId>();
  const finished = new Set<RuleId>();
  const begin = async (rule: RuleDefinition) => {
    currentRule = rule;
    if (begun.has(rule.id)) return;
    begun.add(rule.id);
    await emit({ type: 'rule-start', rule });
  };
  const finish = async (rule: RuleDefinition) => {
    if (finished.has(rule.id)) return;
    await begin(rule);
    finished.add(rule.id);
    currentRule = undefined;
    await emit({ type: 'rule-end', outcome: outcomeOf(rule) });
  };

  const { families: planned, scenarios: scenariosToRun, foreignTwins } = plannedShare(selected, settings.runs, settings.shard);

  /** Where each rule's first failure among random cases was: a shrink starts there. */
  const shrinkFrom = new Map<RuleId, PlannedCase>();
  /** Under merge (or while unknown) every update of the pool depends on what the accounts hold: one lane for all. */
  let poolInTurn = false;
  const usesPool = (c: TestCase) => (usesFiatAccount(c.operation) && c.fiatAccountId === undefined) || (c.control !== undefined && usesFiatAccount(c.control.operation) && c.control.fiatAccountId === undefined);

  /**
   * Under replace each pool case gets its family's next account, from where the family starts in
   * the list of families: a case's account does not depend on which other families run (--shard).
   */
  const accountTurns = new Map<CaseFamily, number>();
  const nextAccountOf = (family: CaseFamily): string => {
    const turn = accountTurns.get(family) ?? Math.max(0, families.indexOf(family));
    accountTurns.set(family, turn + 1);
    return pool[turn % pool.length];
  };

  /** The cases of a source, stamped in plan order; under replace each pool case gets the next account of its family. */
  const stamped = (source: ItemSource<PlannedCase>): ItemSource<PlannedCase> => {
    return {
      async next() {
        const item = await source.next();
        if (!item) return undefined;
        const account = poolInTurn && usesPool(item.testCase) ? nextAccountOf(item.family) : undefined;
        const own = account && usesFiatAccount(item.testCase.operation) && item.testCase.fiatAccountId === undefined ? { ...item.testCase, fiatAccountId: account } : item.testCase;
        const testCase = refIds.stamp(own);
        if (item.fixed) fixedCases.add(testCase);
        return { ...item, testCase, ...(account ? { account } : {}) };
      },
    };
  };

  /** Sends the planned cases, `concurrency` at a time, and judges them in plan order. */
  const runPlan = (source: ItemSource<PlannedCase>) =>
    pipeline<PlannedCase, Exchange>(stamped(source), {
      window: settings.concurrency ?? 1,
      laneOf: (item) => {
        if (item.account) return `account ${item.account}`;
        if (usesPool(item.testCase)) return 'pool';
        // An update to an id of its own (unknown, malformed): fast-check repeats ids, one at a time too.
        return usesFiatAccount(item.testCase.operation) ? `account ${item.testCase.fiatAccountId}` : undefined;
      },
      start: async (item) => {
        checkGoOn();
        // Under merge the account is chosen now, from what the accounts hold after every earlier update.
        if (!item.account && usesPool(item.testCase)) {
          item.testCase = withAccount(item.testCase);
          if (item.fixed) fixedCases.add(item.testCase);
        }
        const exchange = await send(item.testCase);
        if (needsTwin(item.testCase, exchange)) twins.start(item.testCase, () => twinOf(item.testCase, item.account));
        return exchange;
      },
      judge: async (item, exchange) => {
        const rule = item.family.rule;
        if (selectedIds.has(rule)) await begin(getRule(rule));
        const path = item.family.arbitrary ? String(item.index) : undefined;
        const { failed } = await observe(exchange, { path, account: item.account });
        // A twin sent for a case that then judged nothing of its rule is still an exchange: judged in its turn.
        if (twins.startedBy(item.testCase)) await twinAccepted(item.testCase, item.account);
        if (item.fixed) return;
        for (const failedRule of failed) {
          if (!selectedIds.has(failedRule) || shrinkFrom.has(failedRule)) continue;
          // A rule with a family shrinks within it; a rule judged on every exchange, from any family.
          if (hasFamily(failedRule) ? failedRule === rule : judgedOnEveryExchange(getRule(failedRule))) shrinkFrom.set(failedRule, item);
        }
      },
      done: () => failFastRule !== undefined,
    });

  /**
   * Shrinks the failure of `focus` found by a random case: fast-check replays the case from its
   * path (not sent again: it failed) and tries smaller ones against the live target, within the
   * shrink budget. The smallest failing exchange goes in front of the rule's evidence.
   */
  const shrink = async (focus: RuleId, from: PlannedCase): Promise<void> => {
    const { family } = from;
    if (!family.arbitrary || !shrinkBudget.mayStart(focus)) return;
    const allowance = shrinkBudget.forFailure(focus);
    let replayed = false;
    let smallest: { problems: Problem[]; exchange: Exchange } | undefined;
    const predicate = async (raw: TestCase): Promise<boolean> => {
      checkGoOn();
      if (!replayed) return (replayed = true), false;
      // Past the budget a candidate is not sent: fast-check sees it pass and ends the shrink.
      if (!allowance.take()) return true;
      const { exchange, focusProblems } = await exercise(prepare(raw, false), focus);
      if (!focusProblems?.length) return true;
      smallest = { problems: focusProblems, exchange };
      return false;
    };
    const details = await fc.check(fc.asyncProperty(family.arbitrary, predicate), { ...propertyParameters(family, settings.seed, runsOf(family)), path: String(from.index) });
    // A target that died mid-shrink, or an interruption: fast-check reports the throw as a failure.
    if (details.errorInstance instanceof RunStop) throw details.errorInstance;
    if (smallest) keepFindings(focus, smallest.problems, smallest.exchange, details.counterexamplePath ?? undefined, true);
  };

  let stopped: Stop | undefined;
  try {
    // Learn each account's current metadata first: an empty update is valid (all fields optional).
    const missing: Exchange[] = [];
    const read = (c: TestCase): TestCase => {
      const prepared = prepare(c, true);
      if (settings.shard && settings.shard.index > 1) uncounted.add(prepared);
      return prepared;
    };
    for (const id of pool) {
      const { exchange } = await exercise(read({ operation: 'updateFiatAccount', mode: 'valid', label: 'empty update (reads the current state)', body: {}, fiatAccountId: id }));
      if (exchange.response?.status === 404) missing.push(exchange);
      // The configured credentials refused: every rule would fail or skip for the settings' sake.
      if (exchange.response?.status === 401 || exchange.response?.status === 403) {
        throw new AuthenticationError(`the target refused the credentials (HTTP ${exchange.response.status} to an empty update of ${id}): check --token or the client credentials`);
      }
    }
    // Every update to such an account would fail a rule for a mistake in the settings, not the target.
    if (missing.length) await explainMissingAccounts(missing, pool.length, transport);
    // Replace or merge (section 4.1 allows both)? Two one-pair updates of one account tell, before any
    // refusal has to be read: under merge a full account refuses fresh keys, and that is no fault.
    for (const [key, value] of [['k1', 'v1'], ['k2', 'v2']]) {
      await exercise(read({ operation: 'updateFiatAccount', mode: 'valid', label: `one metadata pair (replace or merge?)`, body: { metadata: { [key]: value } }, fiatAccountId: pool[0] }));
    }
    poolInTurn = metadata.semantics === 'replace';

    // The cases most likely to find a defect first: every family's fixed boundary cases, then the
    // scenarios, then the random cases, the families taken in turn.
    await runPlan(inTurn(planned.map((family) => fromArray(family.examples.map((testCase, index): PlannedCase => ({ family, index, fixed: true, testCase }))))));

    const scenarioContext: ScenarioContext = {
      // Scenarios choose their ref_ids: no fresh one is stamped over them.
      exercise: async (c) => {
        const prepared = withAccount(c);
        fixedCases.add(prepared);
        return (await exercise(prepared)).exchange;
      },
      sendTogether: async (cases) => {
        for (const c of cases) fixedCases.add(c);
        checkGoOn();
        const sent = await transport.sendTogether(cases);
        for (const exchange of sent) await observe(exchange);
        return sent;
      },
      freshRefId: () => refIds.next(),
      stamp: (c, refId) => refIds.stamp(c, refId),
      concurrentDuplicates: settings.concurrentDuplicates,
      fiatAccountIds: pool,
      created,
      pick: (items) => fc.sample(fc.constantFrom(...items), { seed: settings.seed, numRuns: 1 })[0],
    };
    for (const scenario of scenariosToRun) {
      const rule = getRule(scenario.rule);
      if (selectedIds.has(rule.id)) await begin(rule);
      const { outcomes, notJudged } = await scenario.run(scenarioContext);
      for (const outcome of outcomes) record(scenario.rule, outcome.problems, outcome.exchange);
      await announceFailing();
      const tally = tallies.get(scenario.rule);
      if (tally && notJudged) tally.scenarioNote = notJudged;
      if (selectedIds.has(rule.id) && !hasFamily(rule.id)) await finish(rule);
    }

    await runPlan(inTurn(planned.map((family) => casesOf(family, settings.seed, runsOf(family)))));
    checkGoOn();

    // Shrink what random cases found, documented rules first: the budget goes where it counts.
    const order = [...selected].sort((a, b) => Number(b.basis === 'documented') - Number(a.basis === 'documented'));
    for (const rule of order) {
      const from = shrinkFrom.get(rule.id);
      if (!from) continue;
      await begin(rule);
      await shrink(rule.id, from);
    }
    for (const rule of selected) await finish(rule);
  } catch (error) {
    if (!(error instanceof RunStop)) throw error;
    // Where it stopped is in `requests` and `rule`; the message says why.
    stopped = {
      kind: error.kind,
      message: error.message,
      ...(error.signal ? { signal: error.signal } : {}),
      requests: transport.requestCount,
      ...(error.kind === 'fail-fast' && failFastRule ? { rule: failFastRule } : currentRule ? { rule: currentRule.id } : {}),
    };
    stoppedEarly =
      error.kind === 'fail-fast'
        ? `--fail-fast ended the run at the first failure (${failFastRule}) before this rule was judged enough; run without it to judge every rule`
        : `the run stopped before this rule was judged enough (${error.message})`;
    if (currentRule) await finish(currentRule);
  }

  const result: RunResult = {
    outcomes: selected.map(outcomeOf),
    startedAt,
    durationMs: Date.now() - started,
    requests: transport.requestCount,
    undocumentedFields: undocumented.list(),
    transport: answers.get(),
    shrinking: shrinkBudget.summary(),
    ...(stopped ? { stopped } : {}),
  };
  await emit({ type: 'run-end', ...result });
  return result;
}

/** The random cases of a family as planned cases. */
function casesOf(family: CaseFamily, seed: number, runs: number): ItemSource<PlannedCase> {
  const stream = generatedCases(family, seed, runs);
  return {
    async next() {
      const next = await stream.next();
      return next && { family, index: next.index, fixed: false, testCase: next.testCase };
    },
  };
}

/**
 * Accounts that answered 404 to an empty update: unknown ids, or a base URL that leads nowhere.
 * A create with an empty body (invalid by the tax rule, so nothing is created) tells the two
 * apart: a route that exists answers it with something else than 404.
 */
async function explainMissingAccounts(missing: Exchange[], accounts: number, transport: Transport): Promise<never> {
  const urls = missing.map((e) => e.request.url);
  if (missing.length === accounts) {
    const probe = await transport.send({ operation: 'createIdentity', mode: 'invalid', violates: 'id.tax.absent-rejected', label: 'probe: does the create route exist?', body: {} });
    if (probe.response?.status === 404) throw new RouteNotFoundError([...urls, `${probe.request.method} ${probe.request.url}`]);
  }
  throw new UnknownAccountsError(
    missing.map((e) => e.testCase.fiatAccountId!),
    urls,
  );
}
