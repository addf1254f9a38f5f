/**
 * `conformance replay <conformance.json>`: re-sends the failing cases of a report, against a
 * target given on the command line (or a fresh embedded server), and says for each whether it
 * still fails; a guest on that target, as run is (see HELP). For checking a fix
 * without a full run. Exit 1 when any still fails; 4 (inconclusive) when none fails but an
 * answer judged nothing (a pass it is not); 0 when all pass now. Reads any 1.x report: the
 * inconclusive rules of a 1.3.0 report have no failing case to re-send (a full run judges them),
 * and a report whose run stopped early is replayed for the failures it recorded.
 */
import type { CliIO } from './io.ts';
import { parseCommandArgs } from '../run/command-args.ts';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { EXIT, UsageError, exitCodeOfError, exitCodeOfSignal } from '../core/errors.ts';
import { readInputFile } from '../core/json-file.ts';
import { checkUrl, resolveAuth, runConfig } from '../run/run-config.ts';
import { settingsOfFlagValues, wholeNumberOf } from '../run/given-settings.ts';
import { type PreparedRun, prepareRun } from '../run/prepare-run.ts';
import { checkCredentials, checkRedaction, checkReportTarget, embeddedServerOf, replayBaseUrl, replayTargetLine } from '../run/replay-target.ts';
import type { AuthConfig } from '../core/auth-config.ts';
import { MANIFEST_FILE } from '../report/files/bundle/manifest.ts';
import { manifestSaysRedacted } from '../report/files/bundle/redaction-mark.ts';
import { replayIdentityLines, restoreLines } from '../report/terminal/left-behind.ts';
import { namedAccounts } from '../run/replay-accounts.ts';
import { MAX_TIMER_MS } from '../run/whole-number-flag.ts';
import type { ConformanceReport, ReportRule } from '../report/model/model.ts';
import { readReport } from '../report/model/read-report.ts';
import { isRuleId } from '../core/catalogue.ts';
import { reportReplayer } from '../run/report-replay.ts';
import type { ReplayRestoreResult } from '../run/replay-restore.ts';
import type { Problem } from '../rules/check.ts';
import { Redactor } from '../report/model/redact.ts';

const FLAGS = ['base-url', 'token', 'auth-url', 'client-id', 'client-secret', 'scope', 'timeout'] as const;

const HELP = `usage: conformance replay <conformance.json> [--base-url URL [--token T | --auth-url URL --client-id ID --client-secret S [--scope S]]
                          --fiat-account-id UUID...] [--timeout MS]
       conformance replay <exchanges.har> [--fault NAME] [--reading key=value]... [--report conformance.json]
                          [--base-url URL [auth flags] --fiat-account-id UUID...]

Re-sends the failing cases of a report and says for each whether it still fails.
Exit 1 when any case still fails; 4 when none fails but an answer judged nothing (e.g. no fiat
account named: no pass); 0 when all pass now. A report with no failing rule exits 0, or 4 when it
has blocking inconclusive rules (those need a full \`conformance run\`; replay has no failing case
of theirs to send).

Given exchanges.har (a run's, or one from an evidence bundle), every request is sent again in
order and judged by the rules as the run judged it. It prints each rule's status and the rules a
HAR cannot judge again; with the conformance.json beside the HAR (or --report), where the statuses
differ. Exit 0 when they agree (without a report: nothing failed), 1 when not.

Replay is a guest on the target, as run is:
- it prints the target before sending anything. Without --base-url (or CONFORMANCE_BASE_URL) it
  sends to a fresh embedded server (the report's reading and fault); credentials go only to a base
  URL given here or in the environment, never to one read from the file: a report of another
  target asks for --base-url. A report of the embedded server takes only --base-url (a
  CONFORMANCE_BASE_URL of the environment or .env is not used, and no credential is asked for).
- each create goes out with a fresh ref_id (a HAR's repeats repeat the same fresh one): the
  target may still hold the identities of the recorded run.
- it writes only the fiat accounts you name (--fiat-account-id or CONFORMANCE_FIAT_ACCOUNT_IDS),
  or the embedded server's: a recorded account stands for a named one, or is skipped; an
  unknown-id probe goes to a fresh random id. It reads them first and puts them back at the end,
  also after an error or Ctrl-C (SIGINT: it stops sending, restores, prints what it has, exit 130);
  exit 5 when an account it wrote is left changed.
- to a live target it sends only the documented operations (PUT of a fiat account, POST of an
  identity), not the recorded run's restore; the rest is skipped and listed.
- a redacted HAR or report (a bundle made with --redact-personal) is refused against a live target
  (exit 2): its stand-ins would be written into real accounts.`;

export async function replay(argv: string[], io: CliIO): Promise<number> {
  const parsed = parseCommandArgs(
    'replay',
    argv,
    {
      ...(Object.fromEntries(FLAGS.map((f) => [f, { type: 'string' }])) as Record<(typeof FLAGS)[number], { type: 'string' }>),
      'fiat-account-id': { type: 'string', multiple: true },
      fault: { type: 'string' },
      reading: { type: 'string', multiple: true },
      report: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    true,
  );
  if (parsed.values.help) {
    io.out(HELP);
    return 0;
  }
  if (parsed.positionals.length !== 1) throw new UsageError('give one report file: conformance replay reports/conformance.json (or reports/exchanges.har)');
  // A HAR is replayed whole, entry by entry (replay-har.ts); a report, for its failures.
  if (parsed.positionals[0].endsWith('.har')) return (await import('./replay-har.ts')).replayHarFile(parsed.positionals[0], parsed.values, io);
  if (parsed.values.fault || parsed.values.reading || parsed.values.report)
    throw new UsageError('--fault, --reading and --report apply to replaying a HAR file (exchanges.har)');
  return replayReport(parsed.positionals[0], parsed.values, io);
}

/** The flags of a report replay. */
type ReportReplayFlags = Partial<Record<(typeof FLAGS)[number], string>> & { 'fiat-account-id'?: string[] };

/**
 * The replay of a report's failures. The target is a base URL of the command line or environment,
 * or a fresh embedded server for a report of the embedded server (its reading and fault); never
 * the report's own URL (replay-target.ts). The target's accounts are read first and put back at
 * the end, after an error or Ctrl-C too.
 */
async function replayReport(file: string, values: ReportReplayFlags, io: CliIO): Promise<number> {
  const settings = settingsOfFlagValues(values, io.env);
  const timeout = wholeNumberOf(settings, 'timeout', { min: 1, max: MAX_TIMER_MS }) ?? 10_000;
  const report = await readReport(file);
  const { baseUrl, note } = replayBaseUrl(settings, report.target);
  if (note) io.out(note);
  checkReportTarget(report.target, baseUrl);
  if (baseUrl !== undefined) checkUrl('--base-url', baseUrl);
  // The embedded server has credentials of its own: none is asked for, none read.
  const auth: AuthConfig = baseUrl !== undefined ? resolveAuth(settings) : { kind: 'none' };
  checkCredentials(baseUrl, auth);
  checkRedaction(file, await redactedBeside(file), baseUrl);
  const target =
    baseUrl !== undefined ? { baseUrl, auth, fiatAccountIds: namedAccounts(values['fiat-account-id'], io.env) } : embeddedServerOf(report.target.reading);
  // Nothing to send: no server started, no request (not even the reachability check).
  if (!failingRules(report).length) {
    for (const line of reportNotes(report)) io.out(line);
    return nothingToReplay(report, io);
  }
  const interruption = io.interrupts?.((name) => io.err(`conformance replay: ${name}: stopping; the fiat accounts are put back (${name} again quits at once)`));
  try {
    const signal = interruption?.signal;
    const prepared = await prepareRun(runConfig({ seed: report.seed, timeoutMs: timeout, ...target }), signal ? { signal } : {});
    try {
      return await replayOnTarget(report, prepared, io, signal, settings.get('base-url')?.name);
    } finally {
      await prepared.close();
    }
  } finally {
    interruption?.dispose();
  }
}

/** How a report beside its bundle's manifest is known to be redacted, if it is. */
async function redactedBeside(file: string): Promise<string | undefined> {
  const manifest = path.join(path.dirname(file), MANIFEST_FILE);
  if (!existsSync(manifest)) return undefined;
  const text = await readInputFile(manifest).catch(() => '');
  return manifestSaysRedacted(text) ? `${manifest} beside it says so: a bundle made with --redact-personal` : undefined;
}

/** Connects, reads the accounts, sends the failures again, puts the accounts back; prints as it goes. */
async function replayOnTarget(
  report: ConformanceReport,
  prepared: PreparedRun,
  io: CliIO,
  signal: AbortSignal | undefined,
  source: string | undefined,
): Promise<number> {
  const { target } = prepared;
  // A target may echo a credential in a body that a message quotes: scrub every line.
  const out = (line: string) => io.out(new Redactor(prepared.secrets()).text(line));
  out(replayTargetLine(target, report.target, source));
  try {
    await prepared.connect();
  } catch (error) {
    const exitCode = exitCodeOfError(error);
    if (exitCode === undefined) throw error;
    io.err(`conformance replay: ${(error as Error).message}`);
    return exitCode;
  }
  const failing = failingRules(report);
  for (const line of reportNotes(report)) out(line);
  const { replayer, restore } = await reportReplayer(report, prepared, signal);
  const tally = { stillFailing: 0, notJudged: 0 };
  out(`replaying ${failing.length} failing rule(s) against ${target.baseUrl}`);
  let restored: ReplayRestoreResult;
  try {
    await restore.readStart();
    for (const rule of failing) {
      if (signal?.aborted) break;
      printOutcome(rule, await replayer.replayRule(rule), out, tally, target.fiatAccountIds.length > 0);
    }
  } finally {
    restored = await restore.finish();
  }
  for (const line of [...replayIdentityLines(restored.identities), ...restoreLines(restored.summary)]) out(line);
  if (signal?.aborted) {
    io.out(`interrupted by ${String(signal.reason)}: the rules not printed above were not replayed`);
    return exitCodeOfSignal(String(signal.reason));
  }
  io.out(replayClosingLine(failing.length - tally.stillFailing - tally.notJudged, tally.stillFailing, tally.notJudged));
  const code = replayExitCode(tally.stillFailing, tally.notJudged);
  return code !== EXIT.nonConformant && restored.leftChanged.length ? EXIT.leftChanged : code;
}

/** The rules the report failed, each with a recorded case or a scenario to send again. */
const failingRules = (report: ConformanceReport): ReportRule[] => report.rules.filter((r) => r.status === 'failed' && isRuleId(r.id));

/** A report with no failing rule: nothing is sent. */
function nothingToReplay(report: ConformanceReport, io: CliIO): number {
  const unsure = report.rules.filter((r) => r.status === 'inconclusive' && r.blocking);
  if (unsure.length) {
    io.out(`the report has no failing rule: nothing to replay; ${unsure.length} inconclusive rule(s) need a full \`conformance run\``);
    return EXIT.inconclusive;
  }
  io.out('the report has no failing rule: nothing to replay');
  return EXIT.conformant;
}

/** One rule's line: still fails, not judged (and why), or passes now. */
function printOutcome(
  rule: ReportRule,
  outcome: { problems: Problem[]; judged: boolean; why?: string },
  out: (line: string) => void,
  tally: { stillFailing: number; notJudged: number },
  accountsNamed: boolean,
): void {
  if (outcome.problems.length) {
    tally.stillFailing++;
    out(`  ✗ ${rule.id}  still fails: ${outcome.problems[0].message}`);
  } else if (!outcome.judged) {
    // An answer that says nothing about the rule (a 404 for an account of another target) is no
    // fix, and no failure either: inconclusive.
    tally.notJudged++;
    out(`  ? ${rule.id}  not judged: ${outcome.why}${accountsNamed ? '' : '; against another target give its --fiat-account-id'}`);
  } else out(`  ✓ ${rule.id}  passes now`);
}

/** `N passed, N failed`, then `, N inconclusive` when an answer judged nothing: the run's own closing line. */
export function replayClosingLine(passed: number, failed: number, inconclusive: number): string {
  return `${passed} passed, ${failed} failed${inconclusive ? `, ${inconclusive} inconclusive` : ''}`;
}

/** 1 when a case still fails; 4 when none does but an answer judged nothing (no pass); 0 otherwise. */
export function replayExitCode(stillFailing: number, notJudged: number): number {
  if (stillFailing) return EXIT.nonConformant;
  return notJudged ? EXIT.inconclusive : EXIT.conformant;
}

/** What the report itself says that limits a replay: a run that stopped early, rules left inconclusive. */
function reportNotes(report: ConformanceReport): string[] {
  const notes: string[] = [];
  if (report.stopped) {
    notes.push(
      `note: the report's run stopped after ${report.stopped.requests} requests (${report.stopped.message.split('\n')[0]}); only the failures it recorded are replayed`,
    );
  }
  const inconclusive = report.rules.filter((r) => r.status === 'inconclusive').length;
  if (inconclusive) notes.push(`note: ${inconclusive} rule(s) of the report were inconclusive; replay cannot judge them (no failing case recorded)`);
  return notes;
}
