/**
 * Writes every report format of a run into one folder. Each writer runs on its own: one that
 * throws is recorded and the others still write (DESIGN.md 4.5). Every writer's data and final
 * text go through the Redactor, so no credential reaches a file.
 */
import { appendFile, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ConformanceReport } from './model.ts';
import type { Exchange } from '../core/exchange.ts';
import { Redactor } from './redact.ts';
import { renderJunit } from './junit.ts';
import { renderHtmlReport } from './html-report.ts';
import { renderMarkdownSummary } from './markdown-summary.ts';
import { buildHar } from './har.ts';

/**
 * Every report format: its file in the report folder and how it renders the (already redacted)
 * report and exchanges. Adding a format is adding one entry here.
 */
const REPORT_FORMATS = [
  { name: 'json', file: 'conformance.json', render: (report: ConformanceReport) => renderJsonReport(report) },
  { name: 'junit', file: 'junit.xml', render: (report: ConformanceReport) => renderJunit(report) },
  { name: 'html', file: 'report.html', render: (report: ConformanceReport) => renderHtmlReport(report) },
  { name: 'markdown', file: 'summary.md', render: (report: ConformanceReport) => renderMarkdownSummary(report) },
  {
    name: 'har',
    file: 'exchanges.har',
    render: (report: ConformanceReport, exchanges: () => Exchange[]) => JSON.stringify(buildHar(exchanges(), report.tool), null, 2) + '\n',
  },
] as const;

type FormatName = (typeof REPORT_FORMATS)[number]['name'];

/** The files written into the report folder, by format name. */
export const REPORT_FILES = Object.fromEntries(REPORT_FORMATS.map((f) => [f.name, f.file])) as Record<FormatName, string>;

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
 * Creates the report folder and proves it can be written, before a run that would otherwise end
 * green with no report. Resolves to the reason when it cannot.
 */
export async function reportDirProblem(dir: string): Promise<string | undefined> {
  const probe = path.join(dir, `.write-test-${process.pid}`);
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(probe, '');
    await rm(probe, { force: true });
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  }
}

/** Renders the JSON text of a report (the conformance.json contract). */
export function renderJsonReport(report: ConformanceReport): string {
  return JSON.stringify(report, null, 2) + '\n';
}

/**
 * Writes conformance.json, junit.xml, report.html, summary.md and exchanges.har into `dir`
 * (created when missing).
 */
export async function writeReports(
  dir: string,
  report: ConformanceReport,
  exchanges: Exchange[],
  options: WriteReportsOptions,
): Promise<WriteReportsResult> {
  const redactor = new Redactor(options.secrets);
  const written: string[] = [];
  const errors: WriteReportsResult['errors'] = [];
  try {
    await mkdir(dir, { recursive: true });
  } catch (error) {
    return { written, errors: [{ writer: 'report folder', message: redactor.text((error as Error).message) }] };
  }
  // Redact the data first (so escaping cannot hide a secret from the text pass), then the text.
  let safeReport: ConformanceReport | undefined;
  let safeExchanges: Exchange[] | undefined;
  const report_ = () => (safeReport ??= redactor.value(report));
  const exchanges_ = () => (safeExchanges ??= redactor.value(exchanges));

  for (const writer of REPORT_FORMATS) {
    const target = path.join(dir, writer.file);
    try {
      const text = redactor.text(writer.render(report_(), exchanges_));
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
  return { written, errors };
}
