/**
 * `conformance merge <shard reports…> [--report-dir DIR]`: joins the conformance.json of every
 * shard of one run (`conformance run --shard i/n`) into the report of the whole run, in every
 * format, with the exchanges.har files found beside the inputs joined too. Exit code: the merged
 * report's, as `conformance run` gives it (0 conformant, 1 non-conformant, 4 inconclusive ...);
 * 2 when an input cannot be read or the inputs are not the shards of one run.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { CliIO } from './io.ts';
import { parseCommandArgs } from '../run/command-args.ts';
import { EXIT, UsageError } from '../core/errors.ts';
import { parseJsonText, readInputFile } from '../core/json-file.ts';
import { oneLine } from '../core/text.ts';
import { readReport } from '../report/model/read-report.ts';
import { mergeShardReports, type ShardInput } from '../report/compare/merge-reports.ts';
import { HAR_FILE, HarFile } from '../report/files/har-file.ts';
import { REPORT_DIR_FILES, writeReports } from '../report/files/write-reports.ts';
import { prepareReportDir } from '../report/files/report-dir.ts';
import { sandboxNotice } from '../report/model/left-changed.ts';
import { sandboxLines } from '../report/terminal/left-behind.ts';
import { palette } from '../report/terminal/colour.ts';
import { exitCodeOf, type ConformanceReport } from '../report/model/model.ts';
import { contractOf, refusedLimits } from '../report/model/report-contract.ts';

const HELP = `usage: conformance merge <shard conformance.json>... [--report-dir DIR]

Joins the reports of the shards of one run (conformance run --seed S --shard i/n, i = 1..n) into
the report of the whole run: conformance.json, junit.xml, report.html, summary.md and, from the
exchanges.har beside each input, exchanges.har, written into --report-dir (default: reports).
The shards must share seed, profile, rules, target, tool version and --strict, and all n must be
there, each once. The shards' observed contracts (what the target refused on open points) are
joined per open point. Exit code as for conformance run: 0 conformant, 1 non-conformant, 4
inconclusive ...; 2 when an input cannot be read or the inputs are not the shards of one run.`;

const OPTIONS = {
  'report-dir': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** A HAR's entries, in order: [] for a file that is not a HAR log. */
function harEntries(data: unknown): unknown[] {
  const entries = (data as { log?: { entries?: unknown } } | null)?.log?.entries;
  return Array.isArray(entries) ? entries : [];
}

const startedAt = (entry: unknown): string => String((entry as { startedDateTime?: unknown } | null)?.startedDateTime ?? '');

/** The entries of the exchanges.har beside each input, when there is one; a broken one is said and left out. */
async function shardExchanges(files: readonly string[], io: CliIO): Promise<unknown[]> {
  const entries: unknown[] = [];
  for (const file of files) {
    const har = path.join(path.dirname(file), HAR_FILE);
    if (!existsSync(har)) continue;
    try {
      entries.push(...harEntries(parseJsonText(await readInputFile(har), har)));
    } catch (error) {
      io.err(`conformance merge: ${oneLine((error as Error).message, 300)}; the merged ${HAR_FILE} leaves it out`);
    }
  }
  // One log in the order the requests started, as a run writes it.
  return entries
    .map((entry, i) => ({ entry, i }))
    .sort((a, b) => startedAt(a.entry).localeCompare(startedAt(b.entry)) || a.i - b.i)
    .map((e) => e.entry);
}

/** `observed contract: 4 of 6 open points refused something (summary.md lists them)`; nothing when none did. */
function observedLine(report: ConformanceReport): string[] {
  const { contract } = contractOf(report);
  const refused = refusedLimits(contract).length;
  return refused ? [`observed contract: ${refused} of ${contract.limits.length} open points refused something (summary.md lists them)`] : [];
}

/** `verdict: non-conformant (3 shards, 38 rules: 35 passed, 1 failed, ...; 830 requests)` and the rules that block it. */
function summaryLines(report: ConformanceReport, shards: number): string[] {
  const s = report.summary;
  const counts = [`${s.passed} passed`, `${s.failed} failed`, `${s.inconclusive ?? 0} inconclusive`, `${s.skipped} skipped`, `${s.errors} errors`].join(', ');
  const blocking = report.rules
    .filter((r) => r.blocking)
    .map((r) => `  ✗ ${r.id}  ${r.status}: ${oneLine(r.failures[0]?.message ?? r.reason ?? r.status, 120)}`);
  return [
    `merged ${shards} shards of seed ${report.seed}, profile ${report.profile}`,
    ...blocking,
    `verdict: ${s.verdict} (${s.rules} rules: ${counts}; ${s.requests} requests)`,
    ...(report.summary.reason ? [`reason: ${oneLine(report.summary.reason, 300)}`] : []),
    ...observedLine(report),
  ];
}

/** The `merge` subcommand. */
export async function merge(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('merge', argv, OPTIONS, true);
  if (values.help) {
    io.out(HELP);
    return 0;
  }
  if (!positionals.length)
    throw new UsageError('give the conformance.json of every shard: conformance merge shard-1/conformance.json shard-2/conformance.json ...');
  const reportDir = values['report-dir'] ?? 'reports';
  if (!reportDir.trim()) throw new UsageError('--report-dir is empty: give a folder, or leave the flag out for reports/');

  // Everything is read before the report folder is cleared: it may hold one of the inputs.
  const inputs: ShardInput[] = [];
  for (const file of positionals) inputs.push({ name: file, report: await readReport(file) });
  const merged = mergeShardReports(inputs);
  const exchanges = await shardExchanges(positionals, io);

  await prepareReportDir(reportDir, REPORT_DIR_FILES);
  const har = new HarFile(reportDir, merged.tool, () => []);
  for (const entry of exchanges) har.addEntry(entry);
  const { written, errors } = await writeReports(reportDir, merged, har, {
    secrets: [],
    ...(io.env.GITHUB_STEP_SUMMARY ? { stepSummaryPath: io.env.GITHUB_STEP_SUMMARY } : {}),
  });
  for (const line of summaryLines(merged, inputs.length)) io.out(line);
  for (const e of errors) io.err(`conformance merge: the ${e.writer} report could not be written: ${e.message}`);
  if (written.length) io.out(`reports: ${written.join(', ')}`);
  // Last, as a run's console ends: the fiat accounts a shard left changed (or that restore was off).
  const notice = sandboxNotice(merged);
  if (notice) for (const line of sandboxLines(notice, palette(false))) io.out(line);
  const exitCode = exitCodeOf(merged);
  // A merge whose reports could not all be written is no green gate (2 outranks 5, docs/design.md 5.3).
  return errors.length && (exitCode === EXIT.conformant || exitCode === EXIT.leftChanged) ? EXIT.usage : exitCode;
}
