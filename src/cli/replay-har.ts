/**
 * `conformance replay <exchanges.har>`: sends a HAR's requests again, in order, and judges them
 * with the rules (src/run/har-replay.ts): against a fresh embedded server by default (its fault
 * and reading with --fault, --reading), or --base-url with credentials and --fiat-account-id for
 * the run's accounts. Prints each rule's status, the rules a HAR cannot judge again, and, with the
 * report beside the HAR (or --report), where the statuses differ from it. Exit 0: every judged
 * rule passed (with a report: the statuses agree); 1: a rule failed (with a report: they differ).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { CliIO } from './io.ts';
import { EXIT, UsageError } from '../core/errors.ts';
import { parseJsonText, readInputFile } from '../core/json-file.ts';
import { checkUrl, optionPicker, resolveAuth, runConfig } from '../run/run-config.ts';
import { parseReading } from '../server/reading.ts';
import { replayDisagreements, replayHar, type HarReplay } from '../run/har-replay.ts';
import type { HarEntry } from '../report/files/har.ts';
import { readReport } from '../report/model/read-report.ts';
import type { ConformanceReport } from '../report/model/model.ts';

/** The flags of a HAR replay, as `conformance replay` parses them. */
export interface HarReplayFlags {
  'base-url'?: string;
  token?: string;
  'auth-url'?: string;
  'client-id'?: string;
  'client-secret'?: string;
  scope?: string;
  'fiat-account-id'?: string[];
  fault?: string;
  reading?: string[];
  report?: string;
}

/** The entries of a HAR file, or a UsageError. */
async function harEntriesOf(file: string): Promise<HarEntry[]> {
  const data = parseJsonText(await readInputFile(file), file) as { log?: { entries?: unknown } } | null;
  if (!Array.isArray(data?.log?.entries)) throw new UsageError(`${file} is not a HAR file (no log.entries)`);
  return data.log.entries as HarEntry[];
}

/** The report to compare with: --report, or the conformance.json beside the HAR. */
async function reportToCompare(file: string, flags: HarReplayFlags): Promise<ConformanceReport | undefined> {
  const beside = path.join(path.dirname(file), 'conformance.json');
  const chosen = flags.report ?? (existsSync(beside) ? beside : undefined);
  return chosen ? readReport(chosen) : undefined;
}

function lines(result: HarReplay): string[] {
  const width = Math.max(...result.rules.map((r) => r.id.length), 4);
  return [
    `sent ${result.sent} requests again${result.leftOut.length ? `, left out ${result.leftOut.length} (${[...new Set(result.leftOut.map((l) => l.why.split(':')[0]))].join('; ')})` : ''}`,
    ...result.rules.map(
      (r) =>
        `  ${r.id.padEnd(width)}  ${r.status.padEnd(6)}  ${r.cases} cases${r.problems[0] ? `  ${r.problems[0].message.split('\n')[0].slice(0, 120)}` : ''}`,
    ),
    result.notRejudged.length
      ? `not re-judged: ${result.notRejudged.map((r) => `${r.id} (${r.why})`).join(', ')}`
      : 'every rule judged in the HAR was judged again',
  ];
}

/** Runs the replay of one HAR file and prints what it found; resolves to the exit code. */
export async function replayHarFile(file: string, flags: HarReplayFlags, io: CliIO): Promise<number> {
  const entries = await harEntriesOf(file);
  const report = await reportToCompare(file, flags);
  const pick = optionPicker({
    baseUrl: flags['base-url'],
    token: flags.token,
    clientCredentials: { tokenUrl: flags['auth-url'], clientId: flags['client-id'], clientSecret: flags['client-secret'], scope: flags.scope },
    env: io.env,
  });
  const baseUrl = pick('base-url')?.replace(/\/+$/, '');
  if (baseUrl !== undefined) checkUrl('--base-url', baseUrl);
  const auth = resolveAuth(pick);
  if (baseUrl !== undefined && auth.kind === 'none')
    throw new UsageError('a remote target needs credentials: --token T, or --auth-url URL --client-id ID --client-secret S');
  if (baseUrl !== undefined && (flags.fault || flags.reading?.length)) throw new UsageError('--fault and --reading apply to the embedded server only');
  const reading = parseReading(Object.fromEntries((flags.reading ?? []).map((pair) => pair.split('=') as [string, string])));
  const config = runConfig({
    seed: 0,
    ...(baseUrl !== undefined ? { baseUrl, auth, fiatAccountIds: flags['fiat-account-id'] ?? [] } : {}),
    // The report's own fault by default: the same server the run judged.
    ...(baseUrl === undefined && (flags.fault ?? report?.target.reading?.fault) ? { fault: flags.fault ?? report?.target.reading?.fault } : {}),
    reading,
  });
  const result = await replayHar(entries, config);
  for (const line of lines(result)) io.out(line);
  if (!report) return result.rules.some((r) => r.status === 'failed' || r.status === 'error') ? EXIT.nonConformant : EXIT.conformant;
  const differences = replayDisagreements(report.rules, result);
  for (const line of differences) io.out(`  differs: ${line}`);
  io.out(differences.length ? `${differences.length} rule statuses differ from the report` : 'every rule re-judged has the status the report gives it');
  return differences.length ? EXIT.nonConformant : EXIT.conformant;
}
