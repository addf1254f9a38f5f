/**
 * The restore journal (docs/design.md, "A guest in a shared sandbox"): before the run's first
 * write to a fiat account, what the account held, as the target answered it, is on disk. No
 * journal entry, no write to that account. After the restore each entry says what became of the
 * account; `conformance restore <journal>` puts back what is still not as journaled.
 *
 * Written whole each time (a temporary file, fsync, rename over the old one, fsync of the folder):
 * a crash or a second Ctrl-C mid-write leaves the previous journal, never half a file.
 */
import { mkdtemp, open, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { UsageError } from '../../core/errors.ts';
import { writeJsonAtomically } from '../../core/atomic-write.ts';
import { isObject } from '../../rules/checks/exchange-facts.ts';
import type { FieldNote } from './restore-plan.ts';
import type { RestoreOutcome } from './restore-summary.ts';

export const JOURNAL_FILE = 'restore-journal.json';
export const JOURNAL_KIND = 'conformance-restore-journal';

/** How the accounts were read: a GET of the account, or an empty update the user allowed (--read-with-empty-update). */
export type ReadMethod = 'get' | 'empty-update';

export interface JournalAccount {
  id: string;
  /** When it was read. */
  journaledAt: string;
  /** The FiatAccount as the target answered the read, whole: every placement, every JSON type. */
  account: Record<string, unknown>;
  /** Set by the restore: what became of the account. */
  outcome?: RestoreOutcome;
  /** Set by the restore: the fields still not as journaled, each with why. */
  left?: FieldNote[];
}

export interface RestoreJournal {
  kind: typeof JOURNAL_KIND;
  version: 1;
  /** The base URL the accounts belong to: `conformance restore` refuses another one. */
  target: string;
  read: ReadMethod;
  createdAt: string;
  accounts: JournalAccount[];
}

export function newJournal(target: string, read: ReadMethod): RestoreJournal {
  return { kind: JOURNAL_KIND, version: 1, target, read, createdAt: new Date().toISOString(), accounts: [] };
}

/** A journal's path in a fresh folder of the system's temporary one: for a run with no report folder of its own (a replay, the library). */
export async function journalInFreshFolder(prefix: string): Promise<string> {
  return path.join(await mkdtemp(path.join(tmpdir(), prefix)), JOURNAL_FILE);
}

/**
 * Writes the journal durably (mode 0600: it holds the accounts' owner names and bank details), a
 * credential a target echoed into an account replaced as in every report (no real account holds
 * the run's own token).
 */
export async function saveJournal(file: string, journal: RestoreJournal, secrets: readonly string[] = []): Promise<void> {
  await writeJsonAtomically(file, journal, secrets);
  const folder = await open(path.dirname(file), 'r').catch(() => undefined);
  await folder?.sync().catch(() => undefined);
  await folder?.close();
}

/** Reads a journal, or a UsageError naming what is wrong with the file. */
export async function loadJournal(file: string): Promise<RestoreJournal> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read the journal ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UsageError(`${file} is no JSON: not a restore journal`);
  }
  if (!isObject(value) || value.kind !== JOURNAL_KIND || value.version !== 1 || !Array.isArray(value.accounts) || typeof value.target !== 'string')
    throw new UsageError(`${file} is not a restore journal (kind ${JOURNAL_KIND}, version 1)`);
  for (const a of value.accounts)
    if (!isObject(a) || typeof a.id !== 'string' || !isObject(a.account)) throw new UsageError(`${file}: an account entry has no id or no account`);
  return value as unknown as RestoreJournal;
}

/**
 * Entries not proven restored that trying again could help: never restored (the run was killed),
 * unknown (not readable after the run), or a field the API can set back. What the API cannot
 * undo (a moved status, a masked value, a key a merging target keeps) does not hold a later run back.
 */
export const pending = (journal: RestoreJournal): JournalAccount[] =>
  journal.accounts.filter((a) => a.outcome === undefined || a.outcome === 'unknown' || (a.left ?? []).some((n) => !n.final));
