/** What restoring the pool accounts did, as the report records it (conformance.json `restore`, docs/design.md section 5.5). */
import type { FieldNote } from './restore-plan.ts';

/**
 * `unchanged`: the end read showed what the journal holds. `restored`: every field that differed
 * was written back and a read afterwards shows it as journaled. `partly-restored`: some were, some
 * not. `not-restored`: none could be. `unknown`: the account could not be read after the run (it
 * may be changed; the journal has what it held). `left-alone`: never journaled, so the run sent it
 * nothing.
 */
export type RestoreOutcome = 'unchanged' | 'restored' | 'partly-restored' | 'not-restored' | 'unknown' | 'left-alone';

/** The outcomes of an account the run may have left other than it found it (docs/design.md 5.3: exit 5). */
const LEFT_CHANGED: ReadonlySet<RestoreOutcome> = new Set(['partly-restored', 'not-restored', 'unknown']);

export interface RestoredAccount {
  id: string;
  outcome: RestoreOutcome;
  /** Fields written back that read as before (`fiat_account_owner.person_details.first_name`, `metadata.k1`, `fiat_network_instructions.wire.account_number`). */
  restored: string[];
  /** Fields that still differ from the start, each with why. */
  notRestored: FieldNote[];
  /** Why the account as a whole was not restored (its start read or end read failed). */
  reason?: string;
  /** Fields that changed after the run's last accepted update (someone else, or a target that did not keep it). */
  interference?: FieldNote[];
}

export interface RestoreSummary {
  /** False under --no-restore: the run left the accounts as its last update did. */
  enabled: boolean;
  /** One line for people: what was restored, or why nothing was. */
  note: string;
  /** Requests the restore sent (they are in summary.requests and exchanges.har too). */
  requests: number;
  accounts: RestoredAccount[];
  /** Where the accounts' original state was journaled (restore-journal.json in the report folder), when it was. */
  journal?: string;
  /** The command that puts the journal back (`conformance restore <journal> --base-url …`), when one can. */
  repair?: string;
}

/**
 * The accounts the run left changed, or may have: partly or not restored, or unknown (the end
 * read failed). What makes a run exit 5 and what every report warns of first.
 */
export function accountsLeftChanged(summary: RestoreSummary | undefined): RestoredAccount[] {
  return (summary?.accounts ?? []).filter((a) => LEFT_CHANGED.has(a.outcome));
}

/** The one line a summary of restored accounts says. */
export function restoreNote(accounts: readonly RestoredAccount[]): string {
  const count = (o: RestoreOutcome) => accounts.filter((a) => a.outcome === o).length;
  const parts = [
    `${count('unchanged')} unchanged`,
    `${count('restored')} restored`,
    `${count('partly-restored')} partly restored`,
    `${count('not-restored')} not restored`,
    `${count('unknown')} unknown (not readable after the run)`,
    `${count('left-alone')} left alone (not journaled)`,
  ].filter((p) => !p.startsWith('0 '));
  return `fiat accounts: ${parts.join(', ') || 'none'}`;
}

export const RESTORE_OFF: RestoreSummary = {
  enabled: false,
  note: 'restore was off (--no-restore): the fiat accounts keep what the run last wrote',
  requests: 0,
  accounts: [],
};
