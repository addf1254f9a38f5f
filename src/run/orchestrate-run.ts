/**
 * A whole run, composed once for every caller: `conformance run` (src/cli/run-execute.ts), the
 * library's runConformance (and through it the vitest helpers), and the in-process runs (runOnce:
 * self-test, fault matrix, benchmark). In order: the report folder is checked and cleared, the
 * target started (prepareRun), the target connected, the engine run with the caller's listeners,
 * exchanges.har written as the run goes and every report at its end. A run that could not judge
 * the target (unreachable, credentials refused, unknown accounts) still leaves its reports, every
 * rule skipped; an aborted `signal` (the CLI's SIGINT, a library caller's AbortController) stops
 * the run, whose reports say it was interrupted.
 *
 * Reports that could not be written: the outcome lists the writers that failed (`unwritten`), and
 * a conformant run whose reports are incomplete gets EXIT.usage (2) instead of 0: a gate needs its
 * evidence. The CLI prints a line per failed writer and exits with that code; the library throws.
 *
 * What is about a terminal (lines, progress, colour, annotations) stays with the caller, as hooks
 * and report listeners.
 */
import { setMaxListeners } from 'node:events';
import { TOOL_NAME, TOOL_VERSION } from '../core/version.ts';
import { ConformanceError, EXIT, UsageError } from '../core/errors.ts';
import { RunInterrupted, untilInterrupted } from '../engine/run-stop.ts';
import { exitCodeOf, type ConformanceReport } from '../report/model/model.ts';
import type { ReportListener } from '../report/model/report-events.ts';
import { abortReason } from '../report/model/abort-reason.ts';
import { Redactor } from '../report/model/redact.ts';
import { HarFile } from '../report/files/har-file.ts';
import { prepareReportDir } from '../report/files/report-dir.ts';
import { REPORT_DIR_FILES, writeReports, type WriteReportsResult } from '../report/files/write-reports.ts';
import { prepareRun, type PreparedRun } from './prepare-run.ts';
import type { RunConfig } from './run-config.ts';
import { prepareRunBundle, type RunBundle } from './run-bundle.ts';
import { checkNoPendingJournal } from './pending-journal.ts';
import { journalInFreshFolder } from '../engine/restore/restore-journal.ts';

/** The caller's report listeners, either side of the report files written at the run's end. */
export interface RunListeners {
  /** Told of each event before the reports are written (a progress line, cleared before anything prints). */
  before?: ReportListener[];
  /** Told once they are (the console: its closing `N passed, N failed` stays last). */
  after?: ReportListener[];
}

/** What a caller hears of the run as it goes; every hook is optional. */
export interface RunHooks {
  /** The target is up (the embedded server started); nothing sent yet. */
  started?(run: PreparedRun): void;
  /** The target answered and took the credentials; `roundTripMs` of its first answer. Awaited. */
  connected?(run: PreparedRun, roundTripMs: number): void | Promise<void>;
  /** The listeners of the run's report events, asked for once connected. */
  listeners?(run: PreparedRun): RunListeners;
  /** The engine stopped, however it stopped. */
  finished?(): void;
  /**
   * The run could not judge the target: heard before its report is written. `reason` is the
   * error's message with the target's words when it answered, secrets redacted (summary.reason).
   */
  aborted?(error: ConformanceError, reason: string): void;
  /** The reports were written, or some could not be (`errors`). */
  written?(result: WriteReportsResult): void;
  /** The run was conformant but its reports are incomplete: it ends with EXIT.usage. */
  incomplete?(): void;
  /** A line about the API user's memory (--state): what was kept, or that the target forgot an earlier run. */
  noted?(line: string): void;
}

export interface OrchestrateOptions {
  /** Write every report into `config.reportDir`; the folder is checked and cleared first (a UsageError before any request). */
  reports: boolean;
  /** `$GITHUB_STEP_SUMMARY`: summary.md is appended there too. */
  stepSummaryPath?: string;
  /** Aborted (its reason names why, e.g. SIGINT) to interrupt the run: sending stops, the reports say so. */
  signal?: AbortSignal;
  hooks?: RunHooks;
}

export interface RunOutcome {
  /** The run's report; every rule skipped when it could not judge the target. */
  report: ConformanceReport;
  /** What `conformance run` exits with: the report's, the error's, or EXIT.usage for a conformant run with reports missing. */
  exitCode: number;
  /** The report files written (the step summary too). */
  written: string[];
  /** The writers that failed, each with why. */
  unwritten: WriteReportsResult['errors'];
  /** What kept the run from judging the target. */
  error?: ConformanceError;
  /** Every credential of the run (configured, and the tokens issued), for redacting what the caller prints. */
  secrets(): string[];
}

/** Runs `config` from the report folder to the last report; the target is closed before it returns. */
export async function orchestrateRun(config: RunConfig, options: OrchestrateOptions): Promise<RunOutcome> {
  // Before any request: a folder that cannot take the reports is exit 2, and the previous run's
  // report files go, so no old verdict stays beside what this run writes (or fails to).
  if (options.reports) await prepareReportDir(config.reportDir, REPORT_DIR_FILES);
  // A journal a previous run could not put back is the only record of those accounts: never overwritten.
  const journalFile = config.noRestore ? undefined : await journalFileOf(config, options.reports);
  // A bad --sign-key is a usage error before any request; a bundle needs the report files.
  if (config.bundle && !options.reports) throw new UsageError('a bundle holds the report files: give a report folder (reportDir) with the bundle');
  const bundle = options.reports ? await prepareRunBundle(config) : undefined;
  const interruption = followed(options.signal);
  try {
    const run = await prepareRun(config, {
      ...(interruption ? { signal: interruption.signal } : {}),
      ...(journalFile ? { journalFile } : {}),
      note: (line) => options.hooks?.noted?.(line),
    });
    try {
      return await conduct(run, { ...options, ...(interruption ? { signal: interruption.signal } : {}) }, bundle);
    } finally {
      await run.close();
    }
  } finally {
    interruption?.dispose();
  }
}

/**
 * Where the run journals its accounts: the report folder; without one (the library), a fresh
 * temporary folder when the target is remote, so a run that dies still leaves what the accounts
 * held on disk. The embedded server is thrown away with the run: nothing to keep.
 */
async function journalFileOf(config: RunConfig, reports: boolean | undefined): Promise<string | undefined> {
  if (reports) return checkNoPendingJournal(config.reportDir);
  return config.baseUrl ? journalInFreshFolder('conformance-run-') : undefined;
}

/**
 * The run's own signal, aborted with the caller's reason when the caller's signal aborts: every
 * request in flight, or waiting for its slot, listens to it (more than the default 10 listeners,
 * and no leak), and the caller's signal gets one listener only.
 */
function followed(signal: AbortSignal | undefined): { signal: AbortSignal; dispose(): void } | undefined {
  if (!signal) return undefined;
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  const forward = () => controller.abort(signal.reason);
  if (signal.aborted) forward();
  else signal.addEventListener('abort', forward, { once: true });
  return { signal: controller.signal, dispose: () => signal.removeEventListener('abort', forward) };
}

/** Prepares, connects, runs and closes, with no report files: a run in one call for in-process callers. Throws what kept it from judging. */
export async function runOnce(config: RunConfig, listeners: ReportListener[] = []): Promise<{ report: ConformanceReport }> {
  const outcome = await orchestrateRun(config, { reports: false, hooks: { listeners: () => ({ before: listeners }) } });
  if (outcome.error) throw outcome.error;
  return { report: outcome.report };
}

async function conduct(run: PreparedRun, options: OrchestrateOptions, bundle?: RunBundle): Promise<RunOutcome> {
  const hooks = options.hooks ?? {};
  const files = reportFiles(run, options, bundle);
  /** The one policy for reports that could not be written: a conformant run is no green gate without them. */
  const end = (report: ConformanceReport, error?: ConformanceError): RunOutcome => {
    let exitCode = error?.exitCode ?? exitCodeOf(report);
    // 2 outranks 5 (docs/design.md 5.3): a conformant run that left an account changed also needs its evidence.
    if (files.unwritten.length && (exitCode === EXIT.conformant || exitCode === EXIT.leftChanged)) {
      hooks.incomplete?.();
      exitCode = EXIT.usage;
    }
    return { report, exitCode, written: files.written, unwritten: files.unwritten, ...(error ? { error } : {}), secrets: run.secrets };
  };
  /** A run that could not judge the target still leaves a report saying why. */
  const abort = async (error: unknown): Promise<RunOutcome> => {
    if (!(error instanceof ConformanceError)) throw error;
    const reason = new Redactor(run.secrets()).text(abortReason(error));
    hooks.aborted?.(error, reason);
    const report = run.aborted(reason);
    await files.write(report);
    return end(report, error);
  };

  hooks.started?.(run);
  try {
    const connecting = run.connect();
    // Interrupted while connecting: the connection attempt ends later, unheard.
    connecting.catch(() => undefined);
    const { roundTripMs } = await untilInterrupted(connecting, options.signal);
    await hooks.connected?.(run, roundTripMs);
  } catch (error) {
    if (!(error instanceof RunInterrupted)) return abort(error);
    // Interrupted before the first case: a report that says so, every rule skipped.
    const stopped = {
      kind: 'interrupted' as const,
      message: `${error.message} before the run started`,
      signal: error.signal,
      requests: run.transport.requestCount,
    };
    const report = run.aborted(stopped.message, stopped);
    await files.write(report);
    return end(report);
  }
  const { before = [], after = [] } = hooks.listeners?.(run) ?? {};
  try {
    const { report } = await run.execute([...before, ...files.listeners, ...after]);
    return end(report);
  } catch (error) {
    return abort(error);
  } finally {
    hooks.finished?.();
  }
}

/** The run's report files: exchanges.har as the run goes, every report at its end (or at its abort). */
function reportFiles(run: PreparedRun, options: OrchestrateOptions, bundle: RunBundle | undefined) {
  const { reportDir } = run.config;
  const har = options.reports ? new HarFile(reportDir, { name: TOOL_NAME, version: TOOL_VERSION }, run.secrets) : undefined;
  const files = {
    written: [] as string[],
    unwritten: [] as WriteReportsResult['errors'],
    async write(report: ConformanceReport): Promise<void> {
      if (!har) return;
      const result = await writeReports(reportDir, report, har, {
        secrets: run.secrets(),
        ...(options.stepSummaryPath ? { stepSummaryPath: options.stepSummaryPath } : {}),
      });
      files.written = result.written;
      files.unwritten = result.errors;
      // The bundle holds what was written: after the reports, whatever the verdict.
      if (bundle) {
        try {
          files.written.push(await bundle.write());
        } catch (error) {
          files.unwritten.push({ writer: 'bundle', message: new Redactor(run.secrets()).text((error as Error).message) });
        }
      }
      options.hooks?.written?.({ written: files.written, errors: files.unwritten });
    },
    listeners: [] as ReportListener[],
  };
  if (har) {
    // Every request the target received, judged or not (sent ahead of a run that stopped, the
    // reachability check, an attempt sent again): as many entries as the report counts.
    run.transport.recordSent((sent) => har.add(sent));
    files.listeners.push(async (event) => {
      if (event.type === 'run-end') await files.write(event.report);
    });
  }
  return files;
}
