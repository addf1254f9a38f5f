/**
 * `conformance run`: resolve the settings, start the embedded server when no target is given,
 * run the harness, print the per-rule table and write the reports. The report is written even
 * when the target cannot be reached or refuses the credentials (verdict "error", exit 3).
 */
import { randomInt } from 'node:crypto';
import { UsageError, type CliIO } from './io.ts';
import { resolveRunConfig, runHelp, type RunConfig } from '../config/run-config.ts';
import { startTarget, type Target } from '../harness/target.ts';
import { createTransport, AuthenticationError, UnreachableError } from '../harness/transport/transport.ts';
import { runConformance, abortedReport, UnknownAccountsError, type RunSettings } from '../harness/runner.ts';
import { createConsoleReporter } from '../report/console.ts';
import { reportDirProblem, writeReports } from '../report/write-reports.ts';
import type { RunListener } from '../harness/events.ts';
import { exitCodeOf, type ConformanceReport } from '../report/model.ts';
import type { Exchange } from '../harness/exchange.ts';

export const EXIT = { conformant: 0, nonConformant: 1, usage: 2, unreachable: 3 } as const;

export async function run(argv: string[], io: CliIO): Promise<number> {
  const config = resolveRunConfig(argv, io.env, () => randomInt(1, 2 ** 31 - 1));
  if (!config) {
    io.out(runHelp());
    return 0;
  }
  const unwritable = await reportDirProblem(config.reportDir);
  if (unwritable) throw new UsageError(`--report-dir ${config.reportDir} cannot be written (${unwritable}); choose another folder`);
  const target = await startTarget(config);
  try {
    return await runAgainst(target, config, io);
  } finally {
    await target.close();
  }
}

async function runAgainst(target: Target, config: RunConfig, io: CliIO): Promise<number> {
  const settings: RunSettings = {
    baseUrl: target.baseUrl,
    embedded: target.embedded,
    ...(target.reading ? { reading: target.reading } : {}),
    fiatAccountIds: target.fiatAccountIds,
    seed: config.seed,
    profile: config.profile,
    runs: config.runs,
    strict: config.strict,
    concurrentDuplicates: Math.max(10, Math.min(config.concurrency, 20)),
    ruleFilter: config.ruleFilter,
  };
  const transport = createTransport({
    baseUrl: target.baseUrl,
    auth: target.auth,
    timeoutMs: config.timeoutMs,
    rateLimitPerSecond: config.rateLimitPerSecond,
    concurrency: config.concurrency,
    maxRetries: config.maxRetries,
  });
  const secrets = () => [...target.secrets, ...transport.secrets()];
  const write = async (report: ConformanceReport, exchanges: Exchange[]) => {
    const { written, errors } = await writeReports(config.reportDir, report, exchanges, {
      secrets: secrets(),
      ...(io.env.GITHUB_STEP_SUMMARY ? { stepSummaryPath: io.env.GITHUB_STEP_SUMMARY } : {}),
    });
    for (const e of errors) io.err(`conformance run: the ${e.writer} report could not be written: ${e.message}`);
    if (written.length) io.out(`reports: ${written.join(', ')}`);
  };

  io.out(`target ${target.baseUrl}${target.embedded ? ' (embedded reference server)' : ''}`);
  io.out(`seed ${config.seed} (repeat this run with --seed ${config.seed}), profile ${config.profile}, ${config.runs} random cases per rule`);
  try {
    await transport.checkReachable();
    await transport.authenticate();
  } catch (error) {
    if (!(error instanceof UnreachableError || error instanceof AuthenticationError)) throw error;
    io.err(`conformance run: ${error.message}`);
    await write(abortedReport(settings, error.message), []);
    return EXIT.unreachable;
  }

  // Reports are written before the console's closing table, so `N passed, N failed` stays last.
  const listeners: RunListener[] = [
    async (event) => {
      if (event.type === 'run-end') await write(event.report, event.exchanges);
    },
    createConsoleReporter({ out: io.out, isTTY: io.isTTY, secrets }),
  ];
  try {
    const { report } = await runConformance(transport, settings, listeners);
    return exitCodeOf(report);
  } catch (error) {
    if (!(error instanceof UnknownAccountsError || error instanceof AuthenticationError)) throw error;
    io.err(`conformance run: ${error.message}`);
    await write(abortedReport(settings, error.message), []);
    return error instanceof AuthenticationError ? EXIT.unreachable : EXIT.usage;
  }
}
