/** The summary counts of a report's rules. */
export function countRules(rules: readonly ReportRule[]): Omit<ConformanceReport['summary'], 'verdict' | 'requests'> {
  const count = (s: RuleStatus) => rules.filter((r) => r.status === s).length;
  return {
    rules: rules.length,
    passed: count('passed'),
    failed: count('failed'),
    skipped: count('skipped'),
    inconclusive: count('inconclusive'),
    errors: count('error'),
  };
}

/**
 * Folds the engine's events into conformance.json (docs/design.md section 4.5): each rule's status, and once per
 * rule whether it blocks the verdict. Every reporter (JUnit, Markdown, HTML, console), the vitest
 * suites and the fault matrix read `blocking` instead of deciding again.
 */
import { createOperationAnswers } from './operation-answers.ts';
import { simplestFirst } from './simplest-first.ts';
import { RULES, type RuleDefinition } from '../../core/catalogue.ts';
import { caseIntent } from '../../core/case.ts';
import { notifyAll } from '../../core/notify.ts';
import type { Finding, RuleOutcome, RunEvent, RunListener, Stop } from '../../engine/events.ts';
import { CreateLog, reproduction } from './reproduction.ts';
import { registry } from '../../schema/registry.ts';
import { TOOL_NAME, TOOL_VERSION } from '../../core/version.ts';
import { recordedContract } from './report-contract.ts';
import type { OpenSpaceCoverage } from '../../rules/open-points/combinations-judged.ts';
import { REPORT_VERSION, type ConformanceReport, type ReportCredentials, type ReportFailure, type ReportRule, type RuleStatus, type Verdict } from './model.ts';
import type { ReportEvent, ReportListener } from './report-events.ts';
import type { AnswerCounts } from '../../engine/answer-tally.ts';
import type { ShrinkSummary } from '../../engine/shrink-budget.ts';
import type { BudgetSummary } from '../../engine/request-budget.ts';
import { UNANSWERED_LIMIT, unansweredReason } from './unanswered.ts';
import { shardReason, shardRule } from './shard-rules.ts';
import type { ObservedContract } from '../../core/open-point.ts';
import { createOpenCaseTally, type OpenCaseCounts } from './open-cases.ts';
import { RESTORE_OFF, type RestoreSummary } from '../../engine/restore/restore-summary.ts';
import type { LedgerEntry } from '../../engine/identity-ledger.ts';
import type { EngineOptions } from '../../engine/run-settings.ts';
import type { ProblemData } from '../../rules/problem-kinds.ts';

/**
 * What the report says about the run beyond what the engine found: the run's options as resolved
 * (under their one set of names, engine/run-settings.ts) and what the target is.
 */
export interface RunFacts extends Pick<EngineOptions, 'seed' | 'runs' | 'ruleFilter' | 'shard' | 'noRestore'> {
  baseUrl: string;
  embedded: boolean;
  /** The embedded server's reading and fault. */
  reading?: Record<string, string>;
  /** How the run authenticated (no secret): what a failure's curl line needs first. */
  credentials?: ReportCredentials;
  fiatAccountIds: readonly string[];
  profile: string;
  strict: boolean;
}

function toFailure(finding: Finding, seed: number, creates: CreateLog): ReportFailure {
  const { problem, exchange, path } = finding;
  const c = exchange.testCase;
  return {
    message: problem.message,
    ...(problem.instancePath !== undefined ? { instancePath: problem.instancePath } : {}),
    // One kind and its params: TypeScript cannot see that the two fields come from one union member.
    ...({ kind: problem.kind, params: problem.params } as ProblemData),
    case: { ...caseIntent(c), ...(c.auth ? { auth: c.auth } : {}) },
    request: exchange.request,
    ...(exchange.response ? { response: exchange.response } : {}),
    ...(exchange.error ? { error: exchange.error } : {}),
    curl: reproduction(exchange, problem, creates),
    seed,
    ...(path ? { path } : {}),
  };
}

/** What decides a rule's status: a crashed check, a failure, or fewer cases than its minimum (the line that says why). */
export interface RuleStatusInput {
  crashed: boolean;
  failed: boolean;
  shortfall?: string;
  /** The shortfall is the configuration's (one account, a budget): the rule was not run, and blocks only under --strict. */
  ruledOut?: boolean;
}

/**
 * A rule's status, and whether it blocks a conformant verdict. Blocking: a crashed check; a
 * documented rule (any rule under --strict) that failed, or that was judged by fewer cases than
 * its minimum ("conformant" is earned, docs/design.md section 5.2), unless the configuration ruled
 * it out (one fiat account, a budget: `ruledOutBy`), which blocks only under --strict. The report of a run and the merge of
 * shard reports (merge-reports.ts) both decide here.
 */
export function ruleStatus(
  rule: Pick<RuleDefinition, 'basis'>,
  judgement: RuleStatusInput,
  strict: boolean,
): { status: RuleStatus; blocking: boolean; reason?: string } {
  let status: RuleStatus;
  let reason: string | undefined;
  if (judgement.crashed) {
    status = 'error';
    reason = 'a check crashed; see the failures';
  } else if (judgement.failed) status = 'failed';
  else if (judgement.shortfall !== undefined) {
    status = 'inconclusive';
    reason = judgement.shortfall;
  } else status = 'passed';
  const counts = rule.basis === 'documented' || strict;
  // A rule the configuration ruled out says nothing of the target: only --strict asks for every rule.
  const notRun = status === 'inconclusive' && judgement.ruledOut === true;
  const blocking = status === 'error' || ((status === 'failed' || status === 'inconclusive') && counts && (!notRun || strict));
  return { status, blocking, ...(reason ? { reason } : {}) };
}

/** `creates`: the run's creates by ref_id, which a repeat's reproduction sends first (none: each failure's request alone). */
export function toReportRule(outcome: RuleOutcome, facts: Pick<RunFacts, 'seed' | 'strict'>, creates = new CreateLog()): ReportRule {
  const { rule, coverage } = outcome;
  const { status, blocking, reason } = ruleStatus(
    rule,
    { crashed: outcome.crashed, failed: outcome.findings.length > 0, shortfall: coverage.shortfall, ruledOut: coverage.ruledOutBy !== undefined },
    facts.strict,
  );
  const { shortfall: _said, ruledOutBy, ...measured } = coverage;
  return {
    id: rule.id,
    operation: rule.operation,
    section: rule.section,
    basis: rule.basis,
    title: rule.title,
    status,
    blocking,
    cases: outcome.cases,
    coverage: measured,
    ...(reason ? { reason } : {}),
    ...(status === 'inconclusive' && ruledOutBy ? { ruledOutBy } : {}),
    failures: simplestFirst(outcome.findings.map((f) => toFailure(f, facts.seed, creates))),
    ...(outcome.failedCases ? { failedCases: outcome.failedCases } : {}),
  };
}

/** Failed beats error beats inconclusive: the verdict names the worst thing that blocks. */
function verdictOf(rules: ReportRule[]): Verdict {
  // Every rule ruled out by the configuration: nothing was judged, and that is no pass.
  if (rules.length && rules.every((r) => r.status === 'inconclusive' && r.ruledOutBy)) return 'inconclusive';
  const blocking = rules.filter((r) => r.blocking);
  if (blocking.some((r) => r.status === 'failed')) return 'non-conformant';
  if (blocking.some((r) => r.status === 'error')) return 'error';
  if (blocking.some((r) => r.status === 'inconclusive')) return 'inconclusive';
  return 'conformant';
}

/**
 * The verdict of a run from its rules, how it stopped and its unanswered requests: what buildReport
 * writes, and what `conformance verify` recomputes from a report's rules.
 */
export function runVerdict(rules: ReportRule[], run: { stopped?: Pick<Stop, 'kind'>; transport?: AnswerCounts }): Verdict {
  const unanswered = run.transport && !run.stopped ? unansweredReason(run.transport) : undefined;
  const judged = verdictOf(rules);
  // A run that stopped early judged only part of the document: it is never conformant. --fail-fast
  // stops at a failure: the rules' verdict (non-conformant) stands; so does the request budget's
  // (a rule it left short is inconclusive).
  const stop = run.stopped?.kind === 'fail-fast' || run.stopped?.kind === 'budget' ? undefined : run.stopped;
  return stop ? (stop.kind === 'interrupted' ? 'interrupted' : 'error') : judged === 'conformant' && unanswered ? 'inconclusive' : judged;
}

export function buildReport(
  facts: RunFacts,
  rules: ReportRule[],
  run: {
    startedAt: string;
    durationMs: number;
    requests: number;
    undocumentedFields: ConformanceReport['undocumentedFields'];
    stopped?: Stop;
    transport?: AnswerCounts;
    shrinking?: ShrinkSummary;
    budget?: BudgetSummary;
    observedContract?: ObservedContract;
    openSpace?: OpenSpaceCoverage;
    openCases?: OpenCaseCounts;
    restore?: RestoreSummary;
    createdIdentities?: LedgerEntry[];
  },
): ConformanceReport {
  // Too many requests without an answer: what was judged is no proof (unanswered.ts). A stop says more.
  const unanswered = run.transport && !run.stopped ? unansweredReason(run.transport) : undefined;
  // One shard judged a share of the cases: every renderer says its verdict is not the API's.
  const reason = [facts.shard ? shardReason(facts.shard) : undefined, unanswered].filter((r) => r !== undefined).join('; ') || undefined;
  const verdict = runVerdict(rules, run);
  return {
    reportVersion: REPORT_VERSION,
    tool: { name: TOOL_NAME, version: TOOL_VERSION },
    target: {
      baseUrl: facts.baseUrl,
      embedded: facts.embedded,
      ...(facts.reading ? { reading: facts.reading } : {}),
      ...(facts.embedded ? {} : { fiatAccountIds: [...facts.fiatAccountIds] }),
      ...(facts.credentials ? { credentials: facts.credentials } : {}),
    },
    schemasHash: registry().hash,
    seed: facts.seed,
    profile: facts.profile,
    runs: facts.runs,
    ...(facts.ruleFilter?.length ? { ruleFilter: [...facts.ruleFilter] } : {}),
    ...(facts.shard ? { shard: { index: facts.shard.index, count: facts.shard.count } } : {}),
    strict: facts.strict,
    startedAt: run.startedAt,
    durationMs: run.durationMs,
    summary: {
      verdict,
      ...countRules(rules),
      requests: run.requests,
      ...(run.transport ? { unanswered: run.transport.unanswered } : {}),
      ...(reason ? { reason } : {}),
      openCases: run.openCases ?? { accepted: 0, refused: 0 },
    },
    ...(run.stopped ? { stopped: run.stopped } : {}),
    ...(run.transport ? { transport: { ...run.transport, limit: UNANSWERED_LIMIT } } : {}),
    ...(run.shrinking ? { shrinking: run.shrinking } : {}),
    ...(run.budget ? { budget: run.budget } : {}),
    rules,
    observedContract: recordedContract(run.observedContract),
    ...(run.openSpace ? { openSpace: run.openSpace } : {}),
    undocumentedFields: run.undocumentedFields,
    restore: run.restore ?? notStarted(facts),
    createdIdentities: run.createdIdentities ?? [],
  };
}

/** The restore of a run that never reached its cases: nothing was changed, so nothing was put back. */
function notStarted(facts: Pick<RunFacts, 'noRestore'>): RestoreSummary {
  return facts.noRestore ? RESTORE_OFF : { enabled: true, note: 'the run ended before its cases: no fiat account was changed', requests: 0, accounts: [] };
}

/**
 * The report of a run that could not start (target unreachable, credentials refused, interrupted
 * while connecting): every rule skipped; verdict error, or interrupted with `stopped`. `reason`
 * (what kept the run from judging, with the target's words) is also `summary.reason`, which every
 * renderer puts first; `requests`: what the target received before the run gave up (exchanges.har
 * holds as many).
 */
export function abortedReport(facts: RunFacts, reason: string, stopped?: Stop, requests = 0, startedAt = Date.now()): ConformanceReport {
  const notJudged = { fixed: 0, random: 0, distinctInputs: 0, minimum: { fixed: 0, random: 0 } };
  const rules = RULES.map((rule: RuleDefinition): ReportRule => {
    const { coverage: _none, ...reported } = toReportRule({ rule, cases: 0, findings: [], crashed: false, coverage: notJudged }, facts);
    return { ...reported, status: 'skipped', blocking: false, reason };
  });
  const report = buildReport(facts, rules, {
    startedAt: new Date(startedAt).toISOString(),
    // From the run's start to its abort: the reachability check and the reads took time too.
    durationMs: Date.now() - startedAt,
    requests,
    undocumentedFields: [],
    ...(stopped ? { stopped } : {}),
  });
  return stopped ? report : { ...report, summary: { ...report.summary, verdict: 'error', reason } };
}

/**
 * Folds the engine's events into report events for `listeners` (console, report files), and
 * keeps the finished report. A failing listener does not take the others down (docs/design.md section 4.5).
 * `ruleShards`: for a sharded run, the shard that sends each rule's own cases (the run's plan,
 * engine/plan.ts planRun), which a sharded run must give.
 */
export function createReportBuilder(
  facts: RunFacts,
  listeners: ReportListener[] = [],
  plan: { ruleShards?: ReadonlyMap<string, number> } = {},
): { listener: RunListener; report(): ConformanceReport } {
  let finished: ConformanceReport | undefined;
  const emit = (event: ReportEvent) => notifyAll(listeners, event);
  // In a shard, a rule whose own cases another shard sends is not passed here (shard-rules.ts).
  const owners = plan.ruleShards;
  if (facts.shard && !owners) throw new Error('a sharded run needs the shards of its rules (its plan) to build its report');
  const openCases = createOpenCaseTally();
  const creates = new CreateLog();
  const answers = createOperationAnswers();
  const reportRule = (outcome: RuleOutcome): ReportRule => {
    const rule = toReportRule(outcome, facts, creates);
    return facts.shard && owners ? shardRule(rule, facts.shard, owners.get(rule.id)) : rule;
  };
  const listener = async (event: RunEvent): Promise<void> => {
    switch (event.type) {
      case 'run-start':
        return emit({
          type: 'run-start',
          baseUrl: facts.baseUrl,
          seed: facts.seed,
          profile: facts.profile,
          rules: event.rules.length,
          fiatAccountIds: event.fiatAccountIds,
        });
      case 'exchange':
        openCases.count(event.exchange);
        creates.observe(event.exchange);
        answers.count(event.exchange);
        return emit(event);
      case 'rule-start':
      case 'rule-failing':
        return emit(event);
      case 'rule-end':
        return emit({
          type: 'rule-end',
          rule: reportRule(event.outcome),
          ...(event.outcome.firstFailureAtRequest !== undefined ? { firstFailureAtRequest: event.outcome.firstFailureAtRequest } : {}),
        });
      case 'run-end':
        finished = buildReport(facts, event.outcomes.map(reportRule), { ...event, openCases: openCases.counts() });
        if (answers.summary().length) finished = { ...finished, operations: answers.summary() };
        return emit({ type: 'run-end', report: finished });
    }
  };
  return {
    listener,
    report() {
      if (!finished) throw new Error('the run has not ended: no report yet');
      return finished;
    },
  };
}
