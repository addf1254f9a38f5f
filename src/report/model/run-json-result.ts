/**
 * What `conformance run --json` prints on stdout: one JSON value a script can read without
 * parsing the human lines: the verdict and exit code, the counts of the summary, the rules that
 * fail (and those not judged enough), the fiat accounts left changed, where the reports went,
 * and how to re-run. Every figure is
 * taken from the report, as the console and the report files take theirs.
 */
import type { ConformanceReport, ReportRule, RuleStatus, Verdict } from './model.ts';
import { rerunCommand } from './rerun-command.ts';
import { accountsLeftChanged, type RestoredAccount } from '../../engine/restore/restore-summary.ts';

export interface RunJsonRule {
  id: string;
  section: string;
  basis: ReportRule['basis'];
  status: RuleStatus;
  /** Whether it keeps the run from being conformant. */
  blocking: boolean;
  cases: number;
  /** The first failure's message, or the reason it was not judged enough. */
  message?: string;
}

export interface RunJsonResult {
  verdict: Verdict;
  exitCode: number;
  seed: number;
  profile: string;
  target: string;
  summary: { rules: number; passed: number; failed: number; inconclusive: number; skipped: number; errors: number; requests: number };
  durationMs: number;
  /** Failed rules and crashed checks. */
  failingRules: RunJsonRule[];
  inconclusiveRules: RunJsonRule[];
  /** Why the verdict is not what the rules alone say (summary.reason), and where a run stopped. */
  reason?: string;
  stopped?: string;
  /**
   * The fiat accounts the run left changed, or may have (partly or not restored, or unknown), as
   * conformance.json's `restore.accounts` has them; empty when every account is as found, or
   * when restore was off (then `restore.enabled` is false).
   */
  leftChanged: RestoredAccount[];
  /** The restore's line, whether it was on, where the journal is and the repair command (absent from a report before 1.9.0). */
  restore?: { enabled: boolean; note: string; journal?: string; repair?: string };
  /** The files written (conformance.json, junit.xml, report.html, summary.md, exchanges.har, …). */
  reports: string[];
  rerun: string;
}

function resultRule(r: ReportRule): RunJsonRule {
  const message = r.failures[0]?.message ?? r.reason;
  return { id: r.id, section: r.section, basis: r.basis, status: r.status, blocking: r.blocking, cases: r.cases, ...(message ? { message } : {}) };
}

export function runJsonResult(report: ConformanceReport, exitCode: number, reports: readonly string[]): RunJsonResult {
  const s = report.summary;
  return {
    verdict: s.verdict,
    exitCode,
    seed: report.seed,
    profile: report.profile,
    target: report.target.baseUrl,
    summary: {
      rules: s.rules,
      passed: s.passed,
      failed: s.failed,
      inconclusive: s.inconclusive ?? 0,
      skipped: s.skipped,
      errors: s.errors ?? 0,
      requests: s.requests,
    },
    durationMs: report.durationMs,
    failingRules: report.rules.filter((r) => r.status === 'failed' || r.status === 'error').map(resultRule),
    inconclusiveRules: report.rules.filter((r) => r.status === 'inconclusive').map(resultRule),
    ...(s.reason ? { reason: s.reason } : {}),
    ...(report.stopped ? { stopped: report.stopped.message } : {}),
    leftChanged: accountsLeftChanged(report.restore),
    ...(report.restore ? { restore: restoreFacts(report.restore) } : {}),
    reports: [...reports],
    rerun: rerunCommand(report),
  };
}

function restoreFacts(r: NonNullable<ConformanceReport['restore']>): NonNullable<RunJsonResult['restore']> {
  return { enabled: r.enabled, note: r.note, ...(r.journal ? { journal: r.journal } : {}), ...(r.repair ? { repair: r.repair } : {}) };
}
