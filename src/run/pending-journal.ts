/**
 * Before a run writes its restore journal into the report folder: a journal left there by a run
 * that could not put its accounts back is the only record of what they held, so it is never
 * overwritten. The run refuses to start and says how to put those accounts back first.
 */
import { access } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../core/errors.ts';
import { JOURNAL_FILE, loadJournal, pending } from '../engine/restore/restore-journal.ts';

/** The journal's path for this run, once no earlier journal there still holds accounts left changed. */
export async function checkNoPendingJournal(reportDir: string): Promise<string> {
  const file = path.join(reportDir, JOURNAL_FILE);
  const exists = await access(file).then(
    () => true,
    () => false,
  );
  if (!exists) return file;
  const journal = await loadJournal(file).catch(() => undefined);
  // A file that is no journal of ours is no record of anything: the run's journal replaces it.
  const left = journal ? pending(journal) : [];
  if (!left.length) return file;
  throw new UsageError(
    `${file} holds ${left.length} fiat account${left.length === 1 ? '' : 's'} an earlier run left changed (${left.map((a) => a.id).join(', ')}): put ${left.length === 1 ? 'it' : 'them'} back first with \`conformance restore ${file}\` and the same target and credentials flags, or move the file away to keep it`,
  );
}
