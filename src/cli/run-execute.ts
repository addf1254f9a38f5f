/**
 * The run itself, once `conformance run` has resolved its settings (src/cli/run.ts): prepare the
 * run (the embedded server when no target is given), run the harness, print the per-rule table
 * and write the reports. Apart from run.ts so that `conformance run --help` loads none of it.
 */
import type { CliIO } from './io.ts';
import { EXIT, exitCodeOfError } from '../core/errors.ts';
import { TOOL_NAME, TOOL_VERSION } from '../core/version.ts';
import type { RunConfig } from '../run/run-config.ts';
import { prepareRun, type PreparedRun } from '../run/prepare-run.ts';
import { plannedRunLine } from '../run/planned-run.ts';
import { createConsoleReporter } from '../report/console.ts';
import { REPORT_DIR_FILES, writeReports } from '../report/write-reports.ts';
import { prepareReportDir } from '../report/report-dir.ts';
import { exitCodeOf, type ConformanceReport } from '../report/model.ts';
import { HarFile, harListener } from '../report/har-file.ts';
import { RunInterrupted, untilInterrupted } from '../engine/run-stop.ts';
import { INTERRUPT_GRACE_MS } from '../engine/transport/interruptible.ts';

export async function executeRun(config: RunConfig, io: CliIO): Promise<number> {
  // Before any request: a folder that cannot take the reports is exit 2, and the previous run's
  // report files go, so no old verdict stays beside what this run writes (or fails to).
  await prepareReportDir(config.reportDir, REPORT_DIR_FILES);
  const interruption = io.interrupts?.((name) =>
    io.err(`conformance run: ${name}: stopping; requests in flight get ${INTERRUPT_GRACE_MS / 1000} s, then the reports are written (${name} again quits at once)`),
  );
  try {
    const prepared = await prepareRun(config, interruption ? { signal: interruption.signal } : {});
    try {
      return await runPrepared(prepared, io, interruption?.signal);
    } finally {
      await prepared.close();
    }
  } finally {
    interruption?.dispose();
  }
}

async function runPrepared(prepared: PreparedRun, io: CliIO, signal: AbortSignal | undefined): Promise<number> {
  const { config, target } = prepared;
  // exchanges.har is written as the run goes; whichever way the run ends, `write` finishes it.
  const har = new HarFile(config.reportDir, { name: TOOL_NAME, version: TOOL_VERSION }, prepared.secrets);
  let unwritten = false;
  const write = async (report: ConformanceReport) => {
    const { written, errors } = await writeReports(config.reportDir, report, har, {
      secrets: prepared.secrets(),
      ...(io.env.GITHUB_STEP_SUMMARY ? { stepSummaryPath: io.env.GITHUB_STEP_SUMMARY } : {}),
    });
    for (const e of errors) io.err(`conformance run: the ${e.writer} report could not be written: ${e.message}`);
    if (written.length) io.out(`reports: ${written.join(', ')}`);
    unwritten = errors.length > 0;
  };
  /** A run whose reports could not all be written (a full disk) is no green gate, whatever it found. */
  const unlessUnwritten = (exitCode: number): number => {
    if (!unwritten || exitCode !== EXIT.conformant) return exitCode;
    io.err(`conformance run: exit ${EXIT.usage}: the run was conformant, but its reports are incomplete`);
    return EXIT.usage;
  };
  /** A run that could not judge the target still leaves a report saying why. */
  const abort = async (error: unknown): Promise<number> => {
    const exitCode = exitCodeOfError(error);
    if (exitCode === undefined) throw error;
    const message = (error as Error).message;
    io.err(`conformance run: ${message}`);
    await write(prepared.aborted(message));
    return exitCode;
  };

  io.out(`target ${target.baseUrl}${target.embedded ? ' (embedded reference server)' : ''}`);
  io.out(`seed ${config.seed} (repeat this run with --seed ${config.seed}), profile ${config.profile}, ${config.runs} random cases per rule`);
  try {
    const { roundTripMs } = await untilInterrupted(prepared.connect(), signal);
    // A remote target counts requests and time: say what the run will cost before it starts.
    if (!target.embedded) io.out(await plannedRunLine(config, target.fiatAccountIds, roundTripMs));
  } catch (error) {
    if (!(error instanceof RunInterrupted)) return abort(error);
    // Interrupted before the first case: a report that says so, every rule skipped.
    const stopped = { kind: 'interrupted' as const, message: `${error.message} before the run started`, signal: error.signal, requests: prepared.transport.requestCount };
    const report = prepared.aborted(stopped.message, stopped);
    await write(report);
    return exitCodeOf(report);
  }
  try {
    // Reports are written before the console's closing table, so `N passed, N failed` stays last.
    const { report } = await prepared.execute([
      harListener(har),
      async (event) => {
        if (event.type === 'run-end') await write(event.report);
      },
      createConsoleReporter({ out: io.out, isTTY: io.isTTY, secrets: prepared.secrets }),
    ]);
    return unlessUnwritten(exitCodeOf(report));
  } catch (error) {
    return abort(error);
  }
}
