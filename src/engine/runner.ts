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
import type { Finding, RuleOutcome, RunEvent, RunListener } from './events.ts';
import type { Transport } from './transport/transport.ts';
import { AuthenticationError, UnknownAccountsError } from '../core/errors.ts';
import { notifyAll } from '../core/notify.ts';
import { judge } from '../rules/judge.ts';
import { MetadataState } from './metadata-state.ts';
import { RefIds } from './ref-ids.ts';
import { SCENARIOS, type ScenarioContext } from './scenarios.ts';
import { UndocumentedFields } from '../rules/undocumented-fields.ts';
import { registry } from '../schema/registry.ts';

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
}

/** Everything a run found: the payload of its run-end event. */
export type RunResult = Omit<Extract<RunEvent, { type: 'run-end' }>, 'type'>;

/** Evidence kept per rule: the first is the minimal one when a property shrank it. */
const MAX_FAILURES_PER_RULE = 5;
/** A safety net for shrinking against a slow target. */
const SHRINK_TIME_LIMIT_MS = 30_000;

type RuleRecord = Omit<RuleOutcome, 'rule'>;

export async function runConformance(transport: Transport, settings: RunSettings, listeners: RunListener[] = []): Promise<RunResult> {
  const started = Date.now();
  const startedAt = new Date(started).toISOString();
  const selected = RULES.filter((r) => !settings.ruleFilter?.length || settings.ruleFilter.some((p) => r.id.startsWith(p)));
  const selectedIds = new Set<string>(selected.map((r) => r.id));
  const records = new Map<RuleId, RuleRecord>(selected.map((r) => [r.id, { cases: 0, findings: [], crashed: false, coverage: { fixed: 0, random: 0, distinctInputs: 0, minimum: { fixed: 0, random: 0 } } }]));
  const exchanges: Exchange[] = [];
  const metadata = new MetadataState();
  const refIds = new RefIds(settings.seed);
  const undocumented = new UndocumentedFields(registry());
  const context: CheckContext = {
    fiatAccountIds: settings.fiatAccountIds,
    mergeMayExceedLimit: (e) => metadata.mergeMayExceedLimit(e),
  };
  const emit = (event: RunEvent) => notifyAll(listeners, event);
  let accountCursor = 0;

  /** Updates go to the accounts of the pool in turn, unless the case names its own id. */
  const withAccount = (c: TestCase): TestCase => {
    if (!usesFiatAccount(c.operation) || c.fiatAccountId !== undefined) return c;
    const inTurn = () => settings.fiatAccountIds[accountCursor++ % settings.fiatAccountIds.length];
    return { ...c, fiatAccountId: metadata.accountFor(c.body, settings.fiatAccountIds, inTurn) };
  };
  /** Fills in what the generators leave to the runner: the account id and a fresh ref_id. */
  const prepare = (c: TestCase): TestCase => refIds.stamp(withAccount(c));

  const record = (rule: RuleId, problems: Problem[], exchange: Exchange, path?: string, front = false) => {
    const entry = records.get(rule);
    if (!entry) return;
    entry.cases += 1;
    const found = problems.map((problem): Finding => ({ problem, exchange, ...(path ? { path } : {}) }));
    // The minimal counterexample goes in front, its problems in the order the checks gave them.
    if (front) entry.findings.unshift(...found);
    else entry.findings.push(...found);
    if (entry.findings.length > MAX_FAILURES_PER_RULE) entry.findings.length = MAX_FAILURES_PER_RULE;
  };

  /**
   * Sends one case, judges it for every rule, and says what it found for `focus`: null when the
   * exchange says nothing about that rule (it then does not count as one of the rule's cases).
   */
  const exercise = async (c: TestCase, focus?: RuleId) => observe(await transport.send(c, c.auth ? { auth: c.auth } : undefined), focus);

  /** Judges an exchange for every rule, and says what it found for `focus`. */
  const observe = async (exchange: Exchange, focus?: RuleId): Promise<{ exchange: Exchange; focusProblems: Problem[] | null }> => {
    exchanges.push(exchange);
    await emit({ type: 'exchange', exchange });
    let focusProblems: Problem[] | null = null;
    for (const j of judge(exchange, context)) {
      if (j.crashed) records.get(j.rule) && (records.get(j.rule)!.crashed = true);
      if (j.rule === focus) focusProblems = j.problems;
      else record(j.rule, j.problems, exchange);
    }
    metadata.observe(exchange);
    undocumented.observe(exchange);
    return { exchange, focusProblems };
  };

  /**
   * Runs a family as a fast-check property against the live target: examples first, then random
   * cases; the first failure is shrunk, and the smallest failing exchange becomes the evidence.
   */
  const runProperty = async (family: CaseFamily, focus: RuleId, runs: number): Promise<void> => {
    let lastFailure: { problems: Problem[]; exchange: Exchange } | undefined;
    const judged: { problems: Problem[]; exchange: Exchange }[] = [];
    const predicate = async (raw: TestCase): Promise<boolean> => {
      const { exchange, focusProblems } = await exercise(prepare(raw), focus);
      if (focusProblems === null) return true;
      const outcome = { problems: focusProblems, exchange };
      judged.push(outcome);
      if (focusProblems.length) lastFailure = outcome;
      return focusProblems.length === 0;
    };
    const examples = family.examples;
    if (!family.arbitrary || runs === 0) {
      for (const example of examples) await predicate(example);
    } else {
      const details = await fc.check(fc.asyncProperty(family.arbitrary, predicate), {
        seed: settings.seed,
        numRuns: examples.length + runs,
        examples: examples.map((e) => [e] as [TestCase]),
        interruptAfterTimeLimit: SHRINK_TIME_LIMIT_MS,
      });
      if (details.failed && lastFailure) {
        // The last failing run is fast-check's final, shrunk counterexample: it alone is the evidence.
        const minimal = lastFailure;
        for (const j of judged) if (j !== minimal) record(focus, [], j.exchange);
        record(focus, minimal.problems, minimal.exchange, details.counterexamplePath ?? undefined, true);
        return;
      }
    }
    for (const j of judged) record(focus, j.problems, j.exchange);
  };

  const families = caseFamilies();
  const familyRules = new Set<RuleId>(families.map((f) => f.rule));
  await emit({ type: 'run-start', rules: selected, fiatAccountIds: settings.fiatAccountIds });

  // Learn each account's current metadata first: an empty update is valid (all fields optional).
  const missing: string[] = [];
  for (const id of settings.fiatAccountIds) {
    const { exchange } = await exercise({ operation: 'updateFiatAccount', mode: 'valid', label: 'empty update (reads the current state)', body: {}, fiatAccountId: id });
    if (exchange.response?.status === 404) missing.push(id);
    // The configured credentials refused: every rule would fail or skip for the settings' sake.
    if (exchange.response?.status === 401 || exchange.response?.status === 403) {
      throw new AuthenticationError(`the target refused the credentials (HTTP ${exchange.response.status} to an empty update of ${id}): check --token or the client credentials`);
    }
  }
  // Every update to such an account would fail a rule for a mistake in the settings, not the target.
  if (missing.length) throw new UnknownAccountsError(missing);

  const outcomeOf = (rule: RuleDefinition): RuleOutcome => ({ rule, ...records.get(rule.id)! });
  const finished = new Set<RuleId>();
  const finish = async (rule: RuleDefinition) => {
    finished.add(rule.id);
    await emit({ type: 'rule-end', outcome: outcomeOf(rule) });
  };

  for (const family of families) {
    if (!selectedIds.has(family.rule)) continue;
    const rule = getRule(family.rule);
    await emit({ type: 'rule-start', rule });
    await runProperty(family, family.rule, settings.runs);
    await finish(rule);
  }

  const scenarioContext: ScenarioContext = {
    exercise: async (c) => (await exercise(withAccount(c))).exchange,
    sendTogether: async (cases) => {
      const sent = await transport.sendTogether(cases);
      for (const exchange of sent) await observe(exchange);
      return sent;
    },
    freshRefId: () => refIds.next(),
    stamp: (c, refId) => refIds.stamp(c, refId),
    concurrentDuplicates: settings.concurrentDuplicates,
    fiatAccountIds: settings.fiatAccountIds,
  };
  for (const scenario of SCENARIOS) {
    if (!selectedIds.has(scenario.rule) && !scenario.feeds.some((r) => selectedIds.has(r))) continue;
    const rule = getRule(scenario.rule);
    if (selectedIds.has(rule.id)) await emit({ type: 'rule-start', rule });
    for (const outcome of await scenario.run(scenarioContext)) record(scenario.rule, outcome.problems, outcome.exchange);
    if (selectedIds.has(rule.id) && !familyRules.has(rule.id)) await finish(rule);
  }

  // Rules judged on every exchange: when one failed, look for a minimal valid payload that shows it.
  const validFamily = (op: Operation) => families.find((f) => f.rule === OPERATIONS[op].validAcceptedRule);
  for (const rule of selected) {
    if (finished.has(rule.id)) continue;
    await emit({ type: 'rule-start', rule });
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

  const result: RunResult = {
    outcomes: selected.map(outcomeOf),
    exchanges,
    startedAt,
    durationMs: Date.now() - started,
    requests: transport.requestCount,
    undocumentedFields: undocumented.list(),
  };
  await emit({ type: 'run-end', ...result });
  return result;
}
