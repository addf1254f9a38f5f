/**
 * The runner: sends every family of cases through the transport, judges each exchange with all
 * checks, shrinks failures with fast-check against the live target, runs the stateful scenarios
 * and gathers an outcome per rule. It emits events; src/report folds them into the verdict and the reports.
 */
import fc from 'fast-check';
import { RULES, getRule, type Operation, type RuleDefinition, type RuleId } from '../core/catalogue.ts';
import type { CheckContext, Problem } from '../rules/check.ts';
import { caseFamilies, type CaseFamily } from './generators/families.ts';
import type { TestCase } from '../core/case.ts';
import { OPERATIONS, usesFiatAccount } from '../core/operations.ts';
import type { Exchange } from '../core/exchange.ts';
import type { Finding, RuleOutcome, RunEvent, RunListener, Stop } from './events.ts';
import type { Transport } from './transport/transport.ts';
import { AuthenticationError, RouteNotFoundError, UnknownAccountsError } from '../core/errors.ts';
import { notifyAll } from '../core/notify.ts';
import { judge } from '../rules/judge.ts';
import { MetadataState } from './metadata-state.ts';
import { RefIds } from './ref-ids.ts';
import { SCENARIOS, type ScenarioContext } from './scenarios.ts';
import { UndocumentedFields } from '../rules/undocumented-fields.ts';
import { registry } from '../schema/registry.ts';
import { CreatedIdentities } from '../rules/created-identities.ts';
import { fiatAccountChecks } from '../rules/checks/fiat-account-response.ts';
import { identityChecks } from '../rules/checks/identity-response.ts';
import { is2xx, successBody } from '../rules/checks/exchange-facts.ts';
import { coverageOf, emptyTally, minimumFor, minimumUnder, randomRuns, Refusals, type Tally } from './coverage.ts';
import { InputIds, InputVerdicts } from './input-ids.ts';
import { asEvidence, problemAsEvidence } from './evidence.ts';
import { TargetWatch } from './target-watch.ts';
import { AnswerTally } from './answer-tally.ts';
import { RunInterrupted, RunStop } from './run-stop.ts';

/** What the engine needs to know; how the run is reported is src/report's business. */
export interface RunSettings {
  /** The fiat account ids the target holds (the user's pool, or the embedded server's). */
  fiatAccountIds: string[];
  seed: number;
  /** Random cases per family, on top of the deterministic examples. */
  runs: number;
  /** How many identical creates the concurrent ref_id scenario sends at once. */
  concurrentDuplicates: number;
  /** Only rules whose id starts with one of these prefixes (all when empty). */
  ruleFilter?: string[];
  /**
   * Aborted when the user interrupts the run (its reason is the signal's name): no further case
   * is sent, and the run ends with what was judged until then (`stopped.kind: 'interrupted'`).
   */
  signal?: AbortSignal;
}

/** Everything a run found: the payload of its run-end event. */
export type RunResult = Omit<Extract<RunEvent, { type: 'run-end' }>, 'type'>;

/** Evidence kept per rule: the first is the minimal one when a property shrank it. */
const MAX_FAILURES_PER_RULE = 5;
/** A safety net for shrinking against a slow target. */
const SHRINK_TIME_LIMIT_MS = 30_000;
/**
 * Requests a property may spend shrinking its first failure: long free text shrinks a character
 * at a time, and a sandbox counts every request. Past it, the smallest failure so far is the evidence.
 */
const SHRINK_REQUEST_BUDGET = 100;

type RuleRecord = Pick<RuleOutcome, 'cases' | 'findings' | 'crashed' | 'firstFailureAtRequest'>;

/** Rules that compare an identity with the request that created it. */
const REFLECTS_REQUEST: ReadonlySet<RuleId> = new Set<RuleId>(['id.dob.midnight-utc', 'id.govt-id.mirrors-cip', 'id.person-details.returned', 'id.is-merchant.returned', 'id.type-person']);

/** The rules judged from the body of a success: a 2xx that holds none of their fields leaves them silent. */
const RESPONSE_RULES: ReadonlySet<RuleId> = new Set([...fiatAccountChecks, ...identityChecks].map((c) => c.rule));

export async function runConformance(transport: Transport, settings: RunSettings, listeners: RunListener[] = []): Promise<RunResult> {
  const started = Date.now();
  const startedAt = new Date(started).toISOString();
  const selected = RULES.filter((r) => !settings.ruleFilter?.length || settings.ruleFilter.some((p) => r.id.startsWith(p)));
  const selectedIds = new Set<string>(selected.map((r) => r.id));
  const records = new Map<RuleId, RuleRecord>(selected.map((r) => [r.id, { cases: 0, findings: [], crashed: false }]));
  const tallies = new Map<RuleId, Tally>(selected.map((r) => [r.id, emptyTally()]));
  const metadata = new MetadataState();
  const refIds = new RefIds(settings.seed);
  const undocumented = new UndocumentedFields(registry());
  const created = new CreatedIdentities();
  const refusals = new Refusals();
  const answers = new AnswerTally();
  /** Cases from examples and scenarios; the others are random. */
  const fixedCases = new WeakSet<TestCase>();
  /** Numbers for what cases sent: distinct inputs per rule, and twins already asked. */
  const inputIds = new InputIds();
  /** Whether a valid twin was accepted, by what it sent: twins of fixed examples repeat. */
  const twinVerdicts = new InputVerdicts();
  const context: CheckContext = {
    fiatAccountIds: settings.fiatAccountIds,
    mergeMayExceedLimit: (e) => metadata.mergeMayExceedLimit(e),
  };
  const emit = (event: RunEvent) => notifyAll(listeners, event);
  let accountCursor = 0;
  let currentRule: RuleDefinition | undefined;

  /** Updates go to the accounts of the pool in turn, unless the case names its own id. */
  const withAccount = (c: TestCase): TestCase => {
    if (!usesFiatAccount(c.operation) || c.fiatAccountId !== undefined) return c;
    const inTurn = () => settings.fiatAccountIds[accountCursor++ % settings.fiatAccountIds.length];
    return { ...c, fiatAccountId: metadata.accountFor(c.body, settings.fiatAccountIds, inTurn) };
  };
  /** Fills in what the generators leave to the runner (the account id, a fresh ref_id), and notes a fixed case. */
  const prepare = (c: TestCase, fixed: boolean): TestCase => {
    const prepared = refIds.stamp(withAccount(c));
    if (fixed) fixedCases.add(prepared);
    return prepared;
  };

  /** When a rule first saw a problem (a property's failure counts before its shrink is recorded). */
  const noteFailure = (rule: RuleId) => {
    const entry = records.get(rule);
    if (entry) entry.firstFailureAtRequest ??= transport.requestCount;
  };

  /** Counts a case that judged `rule`: nothing of its exchange is kept. */
  const count = (rule: RuleId, exchange: Exchange) => {
    const entry = records.get(rule);
    const tally = tallies.get(rule);
    if (!entry || !tally) return;
    entry.cases += 1;
    fixedCases.has(exchange.testCase) ? tally.fixed++ : tally.random++;
    tally.inputs.add(inputIds.of(exchange.testCase));
  };

  const record = (rule: RuleId, problems: Problem[], exchange: Exchange) => {
    count(rule, exchange);
    keepFindings(rule, problems, exchange);
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

  /** Throws RunInterrupted once the user asked the run to stop: no case is sent after that. */
  const checkInterrupted = () => {
    if (settings.signal?.aborted) throw new RunInterrupted(String(settings.signal.reason ?? 'a signal'));
  };

  /** Sends a case and judges it; what it found for `focus` is returned, not recorded. */
  const exercise = async (c: TestCase, focus?: RuleId) => {
    checkInterrupted();
    return observe(await transport.send(c, c.auth ? { auth: c.auth } : undefined), focus);
  };

  /**
   * A refused invalid or boundary case judges its rule only when its valid twin is accepted:
   * otherwise the target refuses something else (a name, every request), and the twin's own
   * refusal is the finding, under the rule of valid requests.
   */
  const twinAccepted = async (c: TestCase): Promise<boolean> => {
    const twin = c.control!;
    const key = inputIds.of(twin);
    let accepted = twinVerdicts.get(key);
    if (accepted === undefined) {
      const { exchange } = await exercise(prepare(twin, fixedCases.has(c)));
      // A target known to merge metadata may refuse the twin for the keys an account already
      // holds: the case keeps the benefit of that doubt. Any other refusal leaves it unjudged.
      accepted = is2xx(exchange) || (metadata.semantics === 'merge' && context.mergeMayExceedLimit(exchange));
      // A twin that got no answer says nothing about the target: the next case that needs it asks again.
      if (exchange.response) twinVerdicts.set(key, accepted);
    }
    return accepted;
  };

  /** Judges an exchange for every rule, and says what it found for `focus`. */
  const observe = async (exchange: Exchange, focus?: RuleId): Promise<{ exchange: Exchange; focusProblems: Problem[] | null }> => {
    // An answer cut short by the interruption says nothing about the target: not judged.
    checkInterrupted();
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
    if (ownAt >= 0 && c.control && exchange.response && !is2xx(exchange) && !(await twinAccepted(c))) {
      judgements.splice(ownAt, 1);
      const tally = tallies.get(own!);
      if (tally) tally.twinRefused += 1;
    }
    if (successBody(exchange)) {
      const judged = new Set(judgements.map((j) => j.rule));
      for (const rule of selected) if (rule.operation === c.operation && RESPONSE_RULES.has(rule.id) && !judged.has(rule.id)) tallies.get(rule.id)!.silentSuccesses++;
    }
    let focusProblems: Problem[] | null = null;
    for (const j of judgements) {
      if (j.crashed) records.get(j.rule) && (records.get(j.rule)!.crashed = true);
      if (j.rule === focus) focusProblems = j.problems;
      else record(j.rule, j.problems, exchange);
    }
    refusals.observe(exchange);
    metadata.observe(exchange);
    undocumented.observe(exchange);
    await watch.observe(exchange);
    return { exchange, focusProblems };
  };

  /** A request that worked at the start (an empty update): asked when answers stop coming. */
  const watch = new TargetWatch(() => transport.send({ operation: 'updateFiatAccount', mode: 'valid', label: 'probe: is the target still answering?', body: {}, fiatAccountId: settings.fiatAccountIds[0] }));

  /**
   * Runs a family as a fast-check property against the live target: examples first, then random
   * cases; the first failure is shrunk, and the smallest failing exchange becomes the evidence.
   */
  const runProperty = async (family: CaseFamily, focus: RuleId, runs: number): Promise<void> => {
    let lastFailure: { problems: Problem[]; exchange: Exchange } | undefined;
    // Cases are counted as they are judged; only the first failing ones are kept (the evidence
    // when the property does not shrink), never every exchange of a long property.
    const failures: { problems: Problem[]; exchange: Exchange }[] = [];
    const examples = new Set(family.examples);
    let shrinkRequests = 0;
    const predicate = async (raw: TestCase): Promise<boolean> => {
      checkInterrupted();
      // Past the budget a candidate is not sent: fast-check sees it pass and ends the shrink.
      if (lastFailure && ++shrinkRequests > SHRINK_REQUEST_BUDGET) return true;
      const { exchange, focusProblems } = await exercise(prepare(raw, examples.has(raw)), focus);
      if (focusProblems === null) return true;
      const outcome = { problems: focusProblems, exchange };
      count(focus, exchange);
      if (focusProblems.length) {
        lastFailure = outcome;
        if (failures.length < MAX_FAILURES_PER_RULE) failures.push(outcome);
        noteFailure(focus);
      }
      return focusProblems.length === 0;
    };
    if (!family.arbitrary || runs === 0) {
      for (const example of family.examples) await predicate(example);
    } else {
      const details = await fc.check(fc.asyncProperty(family.arbitrary, predicate), {
        seed: settings.seed,
        numRuns: family.examples.length + runs,
        examples: family.examples.map((e) => [e] as [TestCase]),
        interruptAfterTimeLimit: SHRINK_TIME_LIMIT_MS,
      });
      // A target that died mid-property, or an interruption: fast-check reports the throw as a
      // failure; pass it on, with the failures seen until then as evidence.
      if (details.errorInstance instanceof RunStop) {
        for (const f of failures) keepFindings(focus, f.problems, f.exchange);
        throw details.errorInstance;
      }
      if (details.failed && lastFailure) {
        // The last failing run is fast-check's final, shrunk counterexample: it alone is the evidence.
        keepFindings(focus, lastFailure.problems, lastFailure.exchange, details.counterexamplePath ?? undefined, true);
        return;
      }
    }
    for (const f of failures) keepFindings(focus, f.problems, f.exchange);
  };

  const families = caseFamilies();
  const merging = () => metadata.semantics === 'merge';
  const familyRules = new Set<RuleId>(families.map((f) => f.rule));
  const minimums = new Map(
    selected.map((rule) => [rule.id, minimumFor(rule, settings.runs, families.find((f) => f.rule === rule.id))]),
  );
  const outcomeOf = (rule: RuleDefinition): RuleOutcome => ({
    rule,
    ...records.get(rule.id)!,
    coverage: coverageOf(rule, tallies.get(rule.id)!, minimumUnder(rule, minimums.get(rule.id)!, merging()), refusals),
  });
  await emit({ type: 'run-start', rules: selected, fiatAccountIds: settings.fiatAccountIds });

  const finished = new Set<RuleId>();
  const begin = async (rule: RuleDefinition) => {
    currentRule = rule;
    await emit({ type: 'rule-start', rule });
  };
  const finish = async (rule: RuleDefinition) => {
    finished.add(rule.id);
    currentRule = undefined;
    await emit({ type: 'rule-end', outcome: outcomeOf(rule) });
  };

  let stopped: Stop | undefined;
  try {
    // Learn each account's current metadata first: an empty update is valid (all fields optional).
    const missing: Exchange[] = [];
    for (const id of settings.fiatAccountIds) {
      const { exchange } = await exercise(prepare({ operation: 'updateFiatAccount', mode: 'valid', label: 'empty update (reads the current state)', body: {}, fiatAccountId: id }, true));
      if (exchange.response?.status === 404) missing.push(exchange);
      // The configured credentials refused: every rule would fail or skip for the settings' sake.
      if (exchange.response?.status === 401 || exchange.response?.status === 403) {
        throw new AuthenticationError(`the target refused the credentials (HTTP ${exchange.response.status} to an empty update of ${id}): check --token or the client credentials`);
      }
    }
    // Every update to such an account would fail a rule for a mistake in the settings, not the target.
    if (missing.length) await explainMissingAccounts(missing, settings.fiatAccountIds.length, transport);
    // Replace or merge (section 4.1 allows both)? Two one-pair updates of one account tell, before any
    // refusal has to be read: under merge a full account refuses fresh keys, and that is no fault.
    for (const [key, value] of [['k1', 'v1'], ['k2', 'v2']]) {
      await exercise(prepare({ operation: 'updateFiatAccount', mode: 'valid', label: `one metadata pair (replace or merge?)`, body: { metadata: { [key]: value } }, fiatAccountId: settings.fiatAccountIds[0] }, true));
    }

    for (const family of families) {
      if (!selectedIds.has(family.rule)) continue;
      const rule = getRule(family.rule);
      await begin(rule);
      await runProperty(family, family.rule, randomRuns(family, settings.runs));
      await finish(rule);
    }

    const scenarioContext: ScenarioContext = {
      // Scenarios choose their ref_ids: no fresh one is stamped over them.
      exercise: async (c) => {
        const prepared = withAccount(c);
        fixedCases.add(prepared);
        return (await exercise(prepared)).exchange;
      },
      sendTogether: async (cases) => {
        for (const c of cases) fixedCases.add(c);
        checkInterrupted();
        const sent = await transport.sendTogether(cases);
        for (const exchange of sent) await observe(exchange);
        return sent;
      },
      freshRefId: () => refIds.next(),
      stamp: (c, refId) => refIds.stamp(c, refId),
      concurrentDuplicates: settings.concurrentDuplicates,
      fiatAccountIds: settings.fiatAccountIds,
      created,
      pick: (items) => fc.sample(fc.constantFrom(...items), { seed: settings.seed, numRuns: 1 })[0],
    };
    for (const scenario of SCENARIOS) {
      if (!selectedIds.has(scenario.rule) && !scenario.feeds.some((r) => selectedIds.has(r))) continue;
      const rule = getRule(scenario.rule);
      if (selectedIds.has(rule.id)) await begin(rule);
      const { outcomes, notJudged } = await scenario.run(scenarioContext);
      for (const outcome of outcomes) record(scenario.rule, outcome.problems, outcome.exchange);
      const tally = tallies.get(scenario.rule);
      if (tally && notJudged) tally.scenarioNote = notJudged;
      if (selectedIds.has(rule.id) && !familyRules.has(rule.id)) await finish(rule);
    }

    // Rules judged on every exchange: when one failed, look for a minimal valid payload that shows it.
    const validFamily = (op: Operation) => families.find((f) => f.rule === OPERATIONS[op].validAcceptedRule);
    for (const rule of selected) {
      if (finished.has(rule.id)) continue;
      await begin(rule);
      const entry = records.get(rule.id)!;
      const family = validFamily(rule.operation);
      // Under --rule no case of the operation may have been sent: send them all for this rule.
      const own = families.filter((f) => getRule(f.rule).operation === rule.operation);
      if (!own.some((f) => finished.has(f.rule))) {
        for (const f of own) await runProperty({ ...f, rule: rule.id }, rule.id, settings.runs);
      } else if (family && entry.findings.length && family.arbitrary && settings.runs > 0) {
        await runProperty({ ...family, rule: rule.id, examples: [] }, rule.id, settings.runs);
      }
      await finish(rule);
    }
  } catch (error) {
    if (!(error instanceof RunStop)) throw error;
    // Where it stopped is in `requests` and `rule`; the message says why.
    stopped = {
      kind: error.kind,
      message: error.message,
      ...(error.signal ? { signal: error.signal } : {}),
      requests: transport.requestCount,
      ...(currentRule ? { rule: currentRule.id } : {}),
    };
    if (currentRule) await finish(currentRule);
  }

  const result: RunResult = {
    outcomes: selected.map(outcomeOf),
    startedAt,
    durationMs: Date.now() - started,
    requests: transport.requestCount,
    undocumentedFields: undocumented.list(),
    transport: answers.get(),
    ...(stopped ? { stopped } : {}),
  };
  await emit({ type: 'run-end', ...result });
  return result;
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
