/**
 * Folds the engine's events into conformance.json (DESIGN 4.5): each rule's status, and once per
 * rule whether it blocks the verdict. Every reporter (JUnit, Markdown, HTML, console), the vitest
 * suites and the fault matrix read `blocking` instead of deciding again.
 */
import { RULES, type RuleDefinition } from '../core/catalogue.ts';
import { caseIntent } from '../core/case.ts';
import { notifyAll } from '../core/notify.ts';
import type { Finding, RuleOutcome, RunEvent, RunListener } from '../engine/events.ts';
import { toCurl } from '../engine/transport/curl.ts';
import { registry } from '../schema/registry.ts';
import { TOOL_NAME, TOOL_VERSION } from '../core/version.ts';
import { REPORT_VERSION, type ConformanceReport, type ReportFailure, type ReportRule, type RuleStatus } from './model.ts';
import type { ReportEvent, ReportListener } from './report-events.ts';

/** What the report says about the run beyond what the engine found. */
export interface RunFacts {
  baseUrl: string;
  embedded: boolean;
  /** The embedded server's reading and fault. */
  reading?: Record<string, string>;
  fiatAccountIds: readonly string[];
  seed: number;
  profile: string;
  runs: number;
  strict: boolean;
  ruleFilter?: string[];
}

function toFailure(finding: Finding, seed: number): ReportFailure {
  const { problem, exchange, path } = finding;
  const c = exchange.testCase;
  return {
    message: problem.message,
    ...(problem.instancePath !== undefined ? { instancePath: problem.instancePath } : {}),
    case: { ...caseIntent(c), ...(c.auth ? { auth: c.auth } : {}) },
    request: exchange.request,
    ...(exchange.response ? { response: exchange.response } : {}),
    ...(exchange.error ? { error: exchange.error } : {}),
    curl: toCurl(exchange.request),
    seed,
    ...(path ? { path } : {}),
  };
}

/** A rule's status, and whether it blocks a conformant verdict: a failed documented rule, a failed convention rule under --strict, a crashed check. */
export function toReportRule(outcome: RuleOutcome, facts: Pick<RunFacts, 'seed' | 'strict'>): ReportRule {
  const { rule } = outcome;
  let status: RuleStatus;
  let reason: string | undefined;
  if (outcome.crashed) {
    status = 'error';
    reason = 'a check crashed; see the failures';
  } else if (outcome.findings.length) status = 'failed';
  else if (outcome.cases > 0) status = 'passed';
  else {
    status = 'skipped';
    reason = 'no exchange of this run could judge the rule (see the closing notes of the report)';
  }
  const blocking = status === 'error' || (status === 'failed' && (rule.basis === 'documented' || facts.strict));
  return {
    id: rule.id,
    operation: rule.operation,
    section: rule.section,
    basis: rule.basis,
    title: rule.title,
    status,
    blocking,
    cases: outcome.cases,
    ...(reason ? { reason } : {}),
    failures: outcome.findings.map((f) => toFailure(f, facts.seed)),
  };
}

export function buildReport(
  facts: RunFacts,
  rules: ReportRule[],
  run: { startedAt: string; durationMs: number; requests: number; undocumentedFields: ConformanceReport['undocumentedFields'] },
): ConformanceReport {
  const count = (s: RuleStatus) => rules.filter((r) => r.status === s).length;
  const verdict = rules.some((r) => r.blocking && r.status === 'failed') ? 'non-conformant' : rules.some((r) => r.blocking) ? 'error' : 'conformant';
  return {
    reportVersion: REPORT_VERSION,
    tool: { name: TOOL_NAME, version: TOOL_VERSION },
    target: {
      baseUrl: facts.baseUrl,
      embedded: facts.embedded,
      ...(facts.reading ? { reading: facts.reading } : {}),
      ...(facts.embedded ? {} : { fiatAccountIds: [...facts.fiatAccountIds] }),
    },
    schemasHash: registry().hash,
    seed: facts.seed,
    profile: facts.profile,
    runs: facts.runs,
    ...(facts.ruleFilter?.length ? { ruleFilter: facts.ruleFilter } : {}),
    strict: facts.strict,
    startedAt: run.startedAt,
    durationMs: run.durationMs,
    summary: {
      verdict,
      rules: rules.length,
      passed: count('passed'),
      failed: count('failed'),
      skipped: count('skipped'),
      errors: count('error'),
      requests: run.requests,
    },
    rules,
    undocumentedFields: run.undocumentedFields,
  };
}

/** The report of a run that could not start (target unreachable, credentials refused): every rule skipped. */
export function abortedReport(facts: RunFacts, reason: string): ConformanceReport {
  const rules = RULES.map((rule: RuleDefinition) => ({ ...toReportRule({ rule, cases: 0, findings: [], crashed: false }, facts), reason }));
  const report = buildReport(facts, rules, { startedAt: new Date().toISOString(), durationMs: 0, requests: 0, undocumentedFields: [] });
  return { ...report, summary: { ...report.summary, verdict: 'error' } };
}

/**
 * Folds the engine's events into report events for `listeners` (console, report files), and
 * keeps the finished report. A failing listener does not take the others down (DESIGN 4.5).
 */
export function createReportBuilder(facts: RunFacts, listeners: ReportListener[] = []): { listener: RunListener; report(): ConformanceReport } {
  let finished: ConformanceReport | undefined;
  const emit = (event: ReportEvent) => notifyAll(listeners, event);
  const listener = async (event: RunEvent): Promise<void> => {
    switch (event.type) {
      case 'run-start':
        return emit({ type: 'run-start', baseUrl: facts.baseUrl, seed: facts.seed, profile: facts.profile, rules: event.rules.length, fiatAccountIds: event.fiatAccountIds });
      case 'rule-start':
      case 'exchange':
        return emit(event);
      case 'rule-end':
        return emit({ type: 'rule-end', rule: toReportRule(event.outcome, facts) });
      case 'run-end':
        finished = buildReport(facts, event.outcomes.map((o) => toReportRule(o, facts)), event);
        return emit({ type: 'run-end', report: finished, exchanges: event.exchanges });
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
