/**
 * Phrases every renderer (console, summary.md, junit.xml, report.html) shares, so they say the
 * same thing the same way: how well a rule was judged, where a run stopped, and why a verdict is
 * not what the rules alone say.
 */
import { oneLine } from '../../core/text.ts';
import { exitCodeOf, type ConformanceReport, type RuleCoverage } from './model.ts';

/** `3 fixed + 0 random cases, minimum 2 + 25`: how well a rule was judged against what it needed. */
export function coverageFigures(coverage: RuleCoverage): string {
  return `${coverage.fixed} fixed + ${coverage.random} random cases, minimum ${coverage.minimum.fixed} + ${coverage.minimum.random}`;
}

/**
 * `stopped after 212 requests while judging id.dob.midnight-utc: the target stopped answering:
 * connection: connect ECONNREFUSED …; partial report, exit 3`, or undefined for a run that did not stop.
 */
/** summary.reason in one line (too many requests without an answer), or undefined. */
export function reasonText(report: ConformanceReport, width = 300): string | undefined {
  return report.summary.reason ? oneLine(report.summary.reason, width) : undefined;
}

/** Inconclusive for lost answers alone: no rule is short of cases, so the usual title would mislead. */
export const inconclusiveForAnswers = (report: ConformanceReport): boolean =>
  report.summary.verdict === 'inconclusive' && report.summary.reason !== undefined && !report.rules.some((r) => r.status === 'inconclusive' && r.blocking);

export function stoppedText(report: ConformanceReport, messageWidth = 120): string | undefined {
  const stop = report.stopped;
  if (!stop) return undefined;
  const where = stop.rule ? ` while judging ${stop.rule}` : '';
  return `stopped after ${stop.requests} requests${where}: ${oneLine(stop.message, messageWidth)}; partial report, exit ${exitCodeOf(report)}`;
}
