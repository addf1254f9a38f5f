/**
 * `conformance run`: resolve the settings, prepare the run (the embedded server when no target is
 * given), run the harness, print the per-rule table and write the reports. The report is written
 * even when the target cannot be reached or refuses the credentials (verdict "error", exit 3).
 */
import { randomInt } from 'node:crypto';
import type { CliIO } from './io.ts';
import { UsageError, exitCodeOfError } from '../core/errors.ts';
import type { Exchange } from '../core/exchange.ts';
import { resolveRunConfig, runHelp } from '../run/run-config.ts';
import { prepareRun, type PreparedRun } from '../run/prepare-run.ts';
import { createConsoleReporter } from '../report/console.ts';
import { reportDirProblem, writeReports } from '../report/write-reports.ts';
import { exitCodeOf, type ConformanceReport } from '../report/model.ts';

export async function run(argv: string[], io: CliIO): Promise<number> {
  const config = resolveRunConfig(argv, io.env, () => randomInt(1, 2 ** 31 - 1));
  if (!config) {
    io.out(runHelp());
    return 0;
  }
  const unwritable = await reportDirProblem(config.reportDir);
  if (unwritable) throw new UsageError(`--report-dir ${config.reportDir} cannot be written (${unwritable}); choose another folder`);
  const prepared = await prepareRun(config);
  try {
    return await runPrepared(prepared, io);
  } finally {
    await prepared.close();
  }
}

async function runPrepared(prepared: PreparedRun, io: CliIO): Promise<number> {
  const { config, target } = prepared;
  const write = async (report: ConformanceReport, exchanges: Exchange[]) => {
    const { written, errors } = await writeReports(config.reportDir, report, exchanges, {
      secrets: prepared.secrets(),
      ...(io.env.GITHUB_STEP_SUMMARY ? { stepSummaryPath: io.env.GITHUB_STEP_SUMMARY } : {}),
    });
    for (const e of errors) io.err(`conformance run: the ${e.writer} report could not be written: ${e.message}`);
    if (written.length) io.out(`reports: ${written.join(', ')}`);
  };
  /** A run that could not judge the target still leaves a report saying why. */
  const abort = async (error: unknown): Promise<number> => {
    const exitCode = exitCodeOfError(error);
    if (exitCode === undefined) throw error;
    const message = (error as Error).message;
    io.err(`conformance run: ${message}`);
    await write(prepared.aborted(message), []);
    return exitCode;
  };

  io.out(`target ${target.baseUrl}${target.embedded ? ' (embedded reference server)' : ''}`);
  io.out(`seed ${config.seed} (repeat this run with --seed ${config.seed}), profile ${config.profile}, ${config.runs} random cases per rule`);
  try {
    await prepared.connect();
  } catch (error) {
    return abort(error);
  }
  try {
    // Reports are written before the console's closing table, so `N passed, N failed` stays last.
    const { report } = await prepared.execute([
      async (event) => {
        if (event.type === 'run-end') await write(event.report, event.exchanges);
      },
      createConsoleReporter({ out: io.out, isTTY: io.isTTY, secrets: prepared.secrets }),
    ]);
    return exitCodeOf(report);
  } catch (error) {
    return abort(error);
  }
}
