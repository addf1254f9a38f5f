/**
 * The run itself, once `conformance run` has resolved its settings (src/cli/run.ts): prepare the
 * run (the embedded server when no target is given), run the harness, print the per-rule table
 * and write the reports. Apart from run.ts so that `conformance run --help` loads none of it.
 *
 * What goes where: the human lines on stdout (on stderr under --json, whose one JSON result is
 * then alone on stdout; only the verdict and reports lines under --quiet); errors on stderr;
 * progress on a status line of stderr when it is a terminal, else a plain line at most every
 * 30 s. Every line printed while the status line shows clears it first, so none is erased.
 */
import path from 'node:path';
import type { CliIO } from './io.ts';
import { EXIT, exitCodeOfError } from '../core/errors.ts';
import { TOOL_NAME, TOOL_VERSION } from '../core/version.ts';
import type { RunConfig } from '../run/run-config.ts';
import { prepareRun, type PreparedRun } from '../run/prepare-run.ts';
import { plannedRunLine } from '../run/planned-run.ts';
import { createConsoleReporter } from '../report/terminal/console.ts';
import { REPORT_DIR_FILES, REPORT_FILES, writeReports } from '../report/files/write-reports.ts';
import { githubAnnotations } from '../report/terminal/github-annotations.ts';
import { Redactor } from '../report/model/redact.ts';
import { prepareReportDir } from '../report/files/report-dir.ts';
import { exitCodeOf, type ConformanceReport } from '../report/model/model.ts';
import { HarFile, harListener } from '../report/files/har-file.ts';
import { RunInterrupted, untilInterrupted } from '../engine/run-stop.ts';
import { INTERRUPT_GRACE_MS } from '../engine/transport/interruptible.ts';
import { StatusLine, lineWriter } from '../report/terminal/status-line.ts';
import { createProgress } from '../report/terminal/progress.ts';
import { colourEnabled, palette } from '../report/terminal/colour.ts';
import { runJsonResult } from '../report/model/run-json-result.ts';
import { listRules } from './list-rules.ts';

/** The run's ways to speak: each line clears the status line first (lineWriter). */
interface RunOutput {
  /** A human line: stdout, or stderr under --json; nothing under --quiet unless `always`. */
  human(line: string, always?: boolean): void;
  /** An error or warning: stderr, always. */
  err(line: string): void;
  /** The status line of stderr, when it is a terminal and progress is wanted. */
  status?: StatusLine;
  /** Where the human lines go is a terminal. */
  humanTTY: boolean;
  /** The stream of the human lines, unconditionally (the console reporter decides what to print). */
  humanLine(line: string): void;
}

function runOutput(config: RunConfig, io: CliIO): RunOutput {
  const status = io.statusTerminal && !config.quiet ? new StatusLine(io.statusTerminal) : undefined;
  const out = lineWriter(status, io.out);
  const err = lineWriter(status, io.err);
  const humanLine = config.json ? err : out;
  return {
    human: (line, always = false) => {
      if (always || !config.quiet) humanLine(line);
    },
    err,
    ...(status ? { status } : {}),
    humanTTY: config.json ? io.statusTerminal !== undefined : io.isTTY,
    humanLine,
  };
}

export async function executeRun(config: RunConfig, io: CliIO): Promise<number> {
  // Sends nothing, starts nothing.
  if (config.listRules) return listRules(config, io);
  // Before any request: a folder that cannot take the reports is exit 2, and the previous run's
  // report files go, so no old verdict stays beside what this run writes (or fails to).
  await prepareReportDir(config.reportDir, REPORT_DIR_FILES);
  const output = runOutput(config, io);
  const interruption = io.interrupts?.((name) =>
    output.err(`conformance run: ${name}: stopping; requests in flight get ${INTERRUPT_GRACE_MS / 1000} s, then the reports are written (${name} again quits at once)`),
  );
  try {
    const prepared = await prepareRun(config, interruption ? { signal: interruption.signal } : {});
    try {
      const { exitCode, report, written } = await runPrepared(prepared, io, output, interruption?.signal);
      if (report && io.env.GITHUB_ACTIONS === 'true') annotate(report, config, io, new Redactor(prepared.secrets()), output);
      // The one JSON value on stdout, after everything else: a script reads it whole.
      if (config.json && report) io.out(JSON.stringify(runJsonResult(report, exitCode, written), null, 2));
      return exitCode;
    } finally {
      output.status?.end();
      await prepared.close();
    }
  } finally {
    interruption?.dispose();
  }
}

/**
 * Under GitHub Actions, the findings as workflow commands on stderr (GitHub reads both streams;
 * stdout may hold --json's one value), pointing at summary.md relative to the workspace.
 */
function annotate(report: ConformanceReport, config: RunConfig, io: CliIO, redactor: Redactor, output: RunOutput): void {
  const summary = path.join(config.reportDir, REPORT_FILES.markdown);
  const file = path.relative(io.env.GITHUB_WORKSPACE ?? process.cwd(), path.resolve(summary)) || summary;
  for (const line of githubAnnotations(report, file)) output.err(redactor.text(line));
}

interface RunEnd {
  exitCode: number;
  report?: ConformanceReport;
  written: string[];
}

async function runPrepared(prepared: PreparedRun, io: CliIO, output: RunOutput, signal: AbortSignal | undefined): Promise<RunEnd> {
  const { config, target } = prepared;
  // Colour where the human lines go, decided once from the environment the CLI was given.
  const paint = palette(colourEnabled(io.env, output.humanTTY));
  // exchanges.har is written as the run goes; whichever way the run ends, `write` finishes it.
  const har = new HarFile(config.reportDir, { name: TOOL_NAME, version: TOOL_VERSION }, prepared.secrets);
  let unwritten = false;
  let written: string[] = [];
  const write = async (report: ConformanceReport) => {
    const result = await writeReports(config.reportDir, report, har, {
      secrets: prepared.secrets(),
      ...(io.env.GITHUB_STEP_SUMMARY ? { stepSummaryPath: io.env.GITHUB_STEP_SUMMARY } : {}),
    });
    for (const e of result.errors) output.err(`conformance run: the ${e.writer} report could not be written: ${e.message}`);
    written = result.written;
    if (written.length) output.human(`reports: ${written.join(', ')}`, true);
    unwritten = result.errors.length > 0;
  };
  /** A run whose reports could not all be written (a full disk) is no green gate, whatever it found. */
  const unlessUnwritten = (exitCode: number): number => {
    if (!unwritten || exitCode !== EXIT.conformant) return exitCode;
    output.err(`conformance run: exit ${EXIT.usage}: the run was conformant, but its reports are incomplete`);
    return EXIT.usage;
  };
  /** A run that could not judge the target still leaves a report saying why. */
  const abort = async (error: unknown): Promise<RunEnd> => {
    const exitCode = exitCodeOfError(error);
    if (exitCode === undefined) throw error;
    const message = (error as Error).message;
    output.err(`conformance run: ${message}`);
    const report = prepared.aborted(message);
    await write(report);
    return { exitCode, report, written };
  };

  output.human(`target ${target.baseUrl}${target.embedded ? ' (embedded reference server)' : ''}`);
  // Short enough for 80 columns; the closing lines give the whole re-run command.
  output.human(`seed ${config.seed} (--seed to repeat), profile ${config.profile}, ${config.runs} random cases per rule`);
  try {
    const { roundTripMs } = await untilInterrupted(prepared.connect(), signal);
    // A remote target counts requests and time: say what the run will cost before it starts.
    if (!target.embedded) output.human(plannedRunLine(config, await prepared.plan.requests(), target.fiatAccountIds, roundTripMs));
  } catch (error) {
    if (!(error instanceof RunInterrupted)) return abort(error);
    // Interrupted before the first case: a report that says so, every rule skipped.
    const stopped = { kind: 'interrupted' as const, message: `${error.message} before the run started`, signal: error.signal, requests: prepared.transport.requestCount };
    const report = prepared.aborted(stopped.message, stopped);
    await write(report);
    return { exitCode: exitCodeOf(report), report, written };
  }
  // What the run plans, for the progress: generated beside the run, shown once known.
  let planned: number | undefined;
  if (!config.quiet) {
    void prepared.plan
      .requests()
      .then((plan) => (planned = plan.total))
      .catch(() => undefined);
  }
  const progress = createProgress({
    ...(output.status ? { status: output.status } : config.quiet ? {} : { line: (text: string) => output.human(text) }),
    requestsSent: () => prepared.transport.requestCount,
    planned: () => planned,
  });
  try {
    // Progress first: its line is cleared before anything else prints at the end. Reports are
    // written before the console's closing table, so `N passed, N failed` stays last.
    const { report } = await prepared.execute([
      progress.listener,
      harListener(har),
      async (event) => {
        if (event.type === 'run-end') await write(event.report);
      },
      createConsoleReporter({ out: output.humanLine, isTTY: output.status !== undefined, secrets: prepared.secrets, palette: paint, ...(config.quiet ? { quiet: true } : {}) }),
    ]);
    return { exitCode: unlessUnwritten(exitCodeOf(report)), report, written };
  } catch (error) {
    return abort(error);
  } finally {
    progress.stop();
  }
}
