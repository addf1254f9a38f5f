/**
 * `conformance restore <restore-journal.json>`: puts the fiat accounts of a journal back as the
 * journal holds them, the way a run's own restore does (read, write back what differs, read again
 * and compare field by field), and records the outcome in the journal. Idempotent: an account
 * already as journaled is read and left alone, so running it twice is safe.
 *
 * Credentials go only to a base URL given on the command line or in the environment, and only
 * when it is the journal's own target: a journal names the sandbox its values came from.
 */
import type { CliIO } from './io.ts';
import { parseCommandArgs } from '../run/command-args.ts';
import { EXIT, UsageError, exitCodeOfError } from '../core/errors.ts';
import { checkUrl, resolveAuth } from '../run/run-config.ts';
import { settingsOfFlagValues, textOf, wholeNumberOf } from '../run/given-settings.ts';
import { MAX_TIMER_MS } from '../run/whole-number-flag.ts';
import { loadJournal } from '../engine/restore/restore-journal.ts';
import { accountsLeftChanged } from '../engine/restore/restore-summary.ts';
import { AccountRestore, RESTORE_PATIENCE_MS } from '../engine/restore/account-restore.ts';
import { createTransport } from '../engine/transport/transport.ts';
import { Redactor } from '../report/model/redact.ts';
import { oneLine } from '../core/text.ts';
import { processInterrupts } from './interrupts.ts';

const HELP = `usage: conformance restore <restore-journal.json> --base-url URL [--token T | --auth-url URL --client-id ID --client-secret S [--scope S]]
                           [--timeout MS] [--restore-patience SECONDS]

Puts the fiat accounts of a run's journal (reports/restore-journal.json) back as they were before
that run: each account is read, what differs is written back, and a read afterwards is compared
with the journal field by field. Safe to run twice. --base-url must be the journal's target
(credentials are never sent to an address read from a file); credentials come from the flags or
.env, as for \`conformance run\`. Exit 0 when every account is as journaled, 5 when one is still
changed (each field named with why), 2 for a usage error, 3 when the target cannot be reached.`;

const OPTIONS = {
  'base-url': { type: 'string' },
  token: { type: 'string' },
  'auth-url': { type: 'string' },
  'client-id': { type: 'string' },
  'client-secret': { type: 'string' },
  scope: { type: 'string' },
  timeout: { type: 'string' },
  'restore-patience': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function restore(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('restore', argv, OPTIONS, true);
  if (values.help) {
    io.out(HELP);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError('give one journal: conformance restore reports/restore-journal.json --base-url URL');
  const file = positionals[0];
  const journal = await loadJournal(file);
  const settings = settingsOfFlagValues(values, io.env);
  const given = textOf(settings, 'base-url');
  if (!given) throw new UsageError(`give the journal's target: --base-url ${journal.target} (credentials are never sent to an address read from a file)`);
  const baseUrl = given.replace(/\/+$/, '');
  checkUrl('--base-url', baseUrl);
  if (baseUrl !== journal.target.replace(/\/+$/, ''))
    throw new UsageError(`${file} holds accounts of ${journal.target}, not of ${baseUrl}: restore them on the target they came from`);
  const timeoutMs = wholeNumberOf(settings, 'timeout', { min: 1, max: MAX_TIMER_MS }) ?? 10_000;
  const patienceS = wholeNumberOf(settings, 'restore-patience', { min: 0, max: MAX_TIMER_MS / 1000 });
  const auth = resolveAuth(settings);
  const transport = createTransport({ baseUrl, auth, timeoutMs, rateLimitPerSecond: null, concurrency: 1, maxRetries: 3 });
  const redact = (line: string) => new Redactor(transport.secrets()).text(line);
  // The user asked for the accounts back: a first Ctrl-C is noted, a second quits (the journal stays on disk).
  const interrupts = processInterrupts((name) => io.err(`conformance restore: ${name}: finishing the account in hand; ${name} again quits at once`));
  try {
    await transport.authenticate();
    io.err(`restoring ${journal.accounts.length} fiat account(s) of ${file} on ${baseUrl}`);
    const accountRestore = new AccountRestore({
      ids: journal.accounts.map((a) => a.id),
      target: journal.target,
      journalFile: file,
      send: (c) => transport.sendCleanup(c),
      record: async () => {},
      semantics: () => 'unknown',
      interrupted: () => false,
      patienceMs: patienceS === undefined ? RESTORE_PATIENCE_MS : patienceS * 1000,
    });
    const summary = await accountRestore.restoreJournal(journal);
    for (const account of summary.accounts) {
      io.out(redact(`${account.id}: ${account.outcome}${account.reason ? ` (${account.reason})` : ''}`));
      for (const note of account.notRestored) io.out(redact(`  ${oneLine(`${note.field}: ${note.reason}`, 200)}`));
    }
    io.out(`${summary.note} (${summary.requests} requests); journal updated: ${file}`);
    return accountsLeftChanged(summary).length ? EXIT.leftChanged : EXIT.conformant;
  } catch (error) {
    const code = exitCodeOfError(error);
    if (code === undefined) throw error;
    io.err(redact(`conformance restore: ${(error as Error).message}`));
    return code;
  } finally {
    interrupts.dispose();
  }
}
