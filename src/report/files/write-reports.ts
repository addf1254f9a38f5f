/**
 * Writes every report format of a run into one folder. Each writer runs on its own: one that
 * throws is recorded and the others still write (docs/design.md section 4.5). Every writer's data and final
 * text go through the Redactor, so no credential reaches a file.
 */
import { appendFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ConformanceReport } from '../model/model.ts';
import type { Exchange } from '../../core/exchange.ts';
import { Redactor } from '../model/redact.ts';
import { renderJunit } from './junit.ts';
import { renderHtmlReport } from './html-report.ts';
import { renderMarkdownSummary } from './markdown-summary.ts';
import { HAR_FILE, HAR_PARTIAL_FILE, HarFile } from './har-file.ts';
import { ensureFolder } from './report-dir.ts';
import { CREATED_IDENTITIES_FILE, renderCreatedIdentities } from './created-identities.ts';

/**
 * Every report format: its file in the report folder and how it renders the (already redacted)
 * report and exchanges. Adding a format is adding one entry here.
 */
const REPORT_FORMATS = [
  { name: 'json', file: 'conformance.json', render: (report: ConformanceReport) => renderJsonReport(report) },
  { name: 'junit', file: 'junit.xml', render: (report: ConformanceReport) => renderJunit(report) },
  { name: 'html', file: 'report.html', render: (report: ConformanceReport) => renderHtmlReport(report) },
  { name: 'markdown', file: 'summary.md', render: (report: ConformanceReport) => renderMarkdownSummary(report) },
  { name: 'identities', file: CREATED_IDENTITIES_FILE, render: (report: ConformanceReport) => renderCreatedIdentities(report) },
] as const;

type FormatName = (typeof REPORT_FORMATS)[number]['name'] | 'har';

/** The files written into the report folder, by format name; exchanges.har is written as the run goes (har-file.ts). */
export const REPORT_FILES = { ...Object.fromEntries(REPORT_FORMATS.map((f) => [f.name, f.file])), har: HAR_FILE } as Record<FormatName, string>;

export interface WriteReportsOptions {
  /** The configured token, client secret and every access token issued during the run. */
  secrets: string[];
  /** `$GITHUB_STEP_SUMMARY`, passed in by the caller: the markdown summary is appended there too. */
  stepSummaryPath?: string;
}

export interface WriteReportsResult {
  /** Paths of the files written (the step summary included, when given). */
  written: string[];
  errors: { writer: string; message: string }[];
}

/**
 * Every name a run writes into the report folder, temporary files included: prepareReportDir
 * (report-dir.ts) refuses a folder where one is not a regular file and removes the previous run's.
 */
export const REPORT_DIR_FILES: readonly string[] = [...Object.values(REPORT_FILES), HAR_PARTIAL_FILE];

/** Renders the JSON text of a report (the conformance.json contract). */
export function renderJsonReport(report: ConformanceReport): string {
  return JSON.stringify(report, null, 2) + '\n';
}

/**
 * Writes conformance.json, junit.xml, report.html, summary.md, created-identities.json and exchanges.har into `dir`
 * (created when missing). `exchanges`: the HAR the run wrote as it went, finished here; or, for
 * in-process callers, the exchanges themselves.
 */
export async function writeReports(
  dir: string,
  report: ConformanceReport,
  exchanges: HarFile | readonly Exchange[],
  options: WriteReportsOptions,
): Promise<WriteReportsResult> {
  const redactor = new Redactor(options.secrets);
  const written: string[] = [];
  const errors: WriteReportsResult['errors'] = [];
  const folderProblem = await ensureFolder(dir);
  if (folderProblem) return { written, errors: [{ writer: 'report folder', message: redactor.text(folderProblem) }] };
  // Redact the data first (so escaping cannot hide a secret from the text pass), then the text.
  let safeReport: ConformanceReport | undefined;
  const report_ = () => (safeReport ??= redactor.value(report));

  for (const writer of REPORT_FORMATS) {
    const target = path.join(dir, writer.file);
    try {
      const text = redactor.text(writer.render(report_()));
      await writeFile(target, text, 'utf8');
      written.push(target);
      if (writer.name === 'markdown' && options.stepSummaryPath) {
        try {
          await appendFile(options.stepSummaryPath, text, 'utf8');
          written.push(options.stepSummaryPath);
        } catch (error) {
          errors.push({ writer: 'step summary', message: redactor.text((error as Error).message) });
        }
      }
    } catch (error) {
      errors.push({ writer: writer.name, message: redactor.text((error as Error).message) });
    }
  }
  try {
    written.push(harOf(dir, report, exchanges, options.secrets).finish());
  } catch (error) {
    errors.push({ writer: 'har', message: redactor.text((error as Error).message) });
  }
  return { written, errors };
}

/** The run's HAR, or one written now from exchanges in memory (in the order they started). */
function harOf(dir: string, report: ConformanceReport, exchanges: HarFile | readonly Exchange[], secrets: readonly string[]): HarFile {
  if (exchanges instanceof HarFile) return exchanges;
  const har = new HarFile(dir, report.tool, () => secrets);
  for (const exchange of [...exchanges].sort((a, b) => a.startedAt.localeCompare(b.startedAt))) har.add(exchange);
  return har;
}
