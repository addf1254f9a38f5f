/**
 * A report folder forged as a tamperer would: one failing rule edited to passed, its failures
 * removed, the summary counts and verdict made consistent, every rendering written again from the
 * forged report, the recorded exchanges.har kept. It agrees with itself; only its evidence says otherwise.
 */
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ConformanceReport } from '../../src/report/model/model.ts';
import { countRules, runVerdict } from '../../src/report/model/report-builder.ts';
import { REPORT_FILES, writeReports } from '../../src/report/files/write-reports.ts';

/** `report` with `ruleId` passed (no failures, not blocking) and a summary and verdict that follow. */
export function forgedReport(report: ConformanceReport, ruleId: string): ConformanceReport {
  const rules = report.rules.map((r) => (r.id === ruleId ? { ...r, status: 'passed' as const, failures: [], blocking: false } : r));
  const verdict = runVerdict(rules, { ...(report.stopped ? { stopped: report.stopped } : {}), ...(report.transport ? { transport: report.transport } : {}) });
  return { ...report, rules, summary: { ...report.summary, ...countRules(rules), verdict } };
}

/** A new report folder: the forged report's files, and the HAR of `dir` as the run recorded it. */
export async function forgedReportFolder(dir: string, report: ConformanceReport, ruleId: string): Promise<string> {
  const forged = forgedReport(report, ruleId);
  const out = mkdtempSync(path.join(tmpdir(), 'forged-report-'));
  const written = await writeReports(out, forged, [], { secrets: [] });
  if (written.errors.length) throw new Error(JSON.stringify(written.errors));
  copyFileSync(path.join(dir, REPORT_FILES.har), path.join(out, REPORT_FILES.har));
  return out;
}
