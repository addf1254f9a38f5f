/**
 * `conformance replay <exchanges.har>`: sends a HAR's requests again, in order, and judges them
 * with the rules (src/run/har-replay.ts): against a fresh embedded server by default (its fault
 * and reading with --fault, --reading), or --base-url with credentials and --fiat-account-id for
 * the run's accounts (the URL and credentials only from the command line or environment; a
 * redacted HAR is refused there; the accounts are read first and put back, Ctrl-C too). Prints each rule's status, the rules a HAR cannot judge again, and, with the
 * report beside the HAR (or --report), where the statuses differ from it. Exit 0: every judged
 * rule passed (with a report: the statuses agree); 1: a rule failed (with a report: they differ).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { CliIO } from './io.ts';
import { EXIT, exitCodeOfSignal, UsageError } from '../core/errors.ts';
import { readInputFile } from '../core/json-file.ts';
import { checkUrl, resolveAuth, runConfig } from '../run/run-config.ts';
import { settingsOfFlagValues } from '../run/given-settings.ts';
import { parseReading } from '../server/reading.ts';
import { type HarEntrySource, replayDisagreements, replayHar, type HarReplay } from '../run/har-replay.ts';
import { HarReader } from '../report/files/har-reader.ts';
import { readReport } from '../report/model/read-report.ts';
import type { ConformanceReport } from '../report/model/model.ts';
import { isMarkedRedacted, manifestSaysRedacted } from '../report/files/bundle/redaction-mark.ts';
import { MANIFEST_FILE } from '../report/files/bundle/manifest.ts';
import { replayIdentityLines, restoreLines } from '../report/terminal/left-behind.ts';
import { checkCredentials, checkRedaction, embeddedServerOf, replayBaseUrl, replayTargetLine } from '../run/replay-target.ts';
import type { AuthConfig } from '../core/auth-config.ts';
import { namedAccounts } from '../run/replay-accounts.ts';

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

/**
 * A HAR file's entries, read as a stream each time the replay asks (report/files/har-reader.ts),
 * and, when it is redacted, how that is known (its own mark, or the manifest of its bundle beside
 * it); or a UsageError. The mark may follow the entries: a first read finds it.
 */
async function harOf(file: string): Promise<{ entries: HarEntrySource; redacted?: string }> {
  const reader = new HarReader(file);
  const log = await reader.readLog();
  const entries = () => reader.entries();
  if (isMarkedRedacted({ log })) return { entries, redacted: 'its log says so: a bundle made with --redact-personal' };
  const manifest = path.join(path.dirname(file), MANIFEST_FILE);
  if (existsSync(manifest) && manifestSaysRedacted(await readInputFile(manifest).catch(() => '')))
    return { entries, redacted: `${manifest} beside it says so: a bundle made with --redact-personal` };
  return { entries };
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
    ...leftOutLines(result.leftOut),
    ...result.rules.map(
      (r) =>
        `  ${r.id.padEnd(width)}  ${r.status.padEnd(6)}  ${r.cases} cases${r.problems[0] ? `  ${r.problems[0].message.split('\n')[0].slice(0, 120)}` : ''}`,
    ),
    result.notRejudged.length
      ? `not re-judged: ${result.notRejudged.map((r) => `${r.id} (${r.why})`).join(', ')}`
      : 'every rule judged in the HAR was judged again',
  ];
}

/** Entries shown by number for each reason they were left out. */
const ENTRIES_SHOWN = 5;

/** Each reason entries were left out, with how many and which (HAR entry numbers from 0). */
function leftOutLines(leftOut: HarReplay['leftOut']): string[] {
  const byWhy = new Map<string, number[]>();
  for (const { index, why } of leftOut) byWhy.set(why, [...(byWhy.get(why) ?? []), index]);
  return [...byWhy].map(([why, at]) => {
    const shown = at.slice(0, ENTRIES_SHOWN).map((i) => `#${i}`);
    return `  left out ${at.length}: ${why} (entries ${shown.join(', ')}${at.length > ENTRIES_SHOWN ? ', …' : ''})`;
  });
}

/** The replay's config: --base-url and its credentials from the command line or environment only, never from a file. */
function replayConfig(file: string, flags: HarReplayFlags, io: CliIO, redacted: string | undefined, report: ConformanceReport | undefined) {
  const settings = settingsOfFlagValues(flags, io.env);
  const { baseUrl, note } = replayBaseUrl(settings, report?.target);
  if (note) io.out(note);
  if (baseUrl !== undefined) checkUrl('--base-url', baseUrl);
  // The embedded server has credentials of its own: none is asked for, none read.
  const auth: AuthConfig = baseUrl !== undefined ? resolveAuth(settings) : { kind: 'none' };
  checkCredentials(baseUrl, auth);
  if (baseUrl !== undefined && (flags.fault || flags.reading?.length)) throw new UsageError('--fault and --reading apply to the embedded server only');
  checkRedaction(file, redacted, baseUrl);
  const config = {
    seed: 0,
    ...(baseUrl !== undefined ? { baseUrl, auth, fiatAccountIds: namedAccounts(flags['fiat-account-id'], io.env) } : embeddedServer(flags, report)),
  };
  return { config: runConfig({ reading: {}, ...config }), source: settings.get('base-url')?.name };
}

/**
 * The embedded server a HAR is replayed on: the --fault and --reading given, else the report's
 * own (the same server the run judged, when it was the embedded one).
 */
function embeddedServer(flags: HarReplayFlags, report: ConformanceReport | undefined) {
  if (flags.fault || flags.reading?.length) {
    const reading = parseReading(Object.fromEntries((flags.reading ?? []).map((pair) => pair.split('=') as [string, string])));
    return { reading, ...(flags.fault ? { fault: flags.fault } : {}) };
  }
  return report?.target.embedded ? embeddedServerOf(report.target.reading) : { reading: parseReading({}) };
}

/** Runs the replay of one HAR file and prints what it found; resolves to the exit code. */
export async function replayHarFile(file: string, flags: HarReplayFlags, io: CliIO): Promise<number> {
  const { entries, redacted } = await harOf(file);
  const report = await reportToCompare(file, flags);
  const { config, source } = replayConfig(file, flags, io, redacted, report);
  const interruption = io.interrupts?.((name) => io.err(`conformance replay: ${name}: stopping; the fiat accounts are put back (${name} again quits at once)`));
  let result: HarReplay;
  try {
    result = await replayHar(entries, config, {
      announce: (target) => io.out(replayTargetLine(target, report?.target, source)),
      ...(interruption ? { signal: interruption.signal } : {}),
    });
  } finally {
    interruption?.dispose();
  }
  for (const line of [...lines(result), ...replayIdentityLines(result.restore.identities), ...restoreLines(result.restore.summary)]) io.out(line);
  if (result.interrupted) {
    io.out(`interrupted: ${result.sent} requests sent before ${String(interruption?.signal.reason)}; the statuses above judge only those`);
    return exitCodeOfSignal(String(interruption?.signal.reason));
  }
  const failed = report ? printDifferences(report, result, io) : result.rules.some((r) => r.status === 'failed' || r.status === 'error');
  if (failed) return EXIT.nonConformant;
  return result.restore.leftChanged.length ? EXIT.leftChanged : EXIT.conformant;
}

/** Where the replay differs from the report, a line each and a closing line; true when it differs. */
function printDifferences(report: ConformanceReport, result: HarReplay, io: CliIO): boolean {
  const differences = replayDisagreements(report.rules, result);
  for (const line of differences) io.out(`  differs: ${line}`);
  io.out(differences.length ? `${differences.length} rule statuses differ from the report` : 'every rule re-judged has the status the report gives it');
  return differences.length > 0;
}
