/**
 * What every report says first when the run left a fiat account changed (docs/design.md section
 * 5.3, exit 5): the accounts partly or not restored, or whose end read failed, each field with
 * why, where the original values are and the command that puts them back. The console's last
 * lines, the top of summary.md and report.html, junit.xml's sandbox suite, the --json result and
 * --quiet all render this one notice, so they agree.
 *
 * A run with restore off (--no-restore) gets a notice too, at the same places: the accounts keep
 * what the run last wrote. It is not exit 5: the user asked for it.
 */
import { accountsLeftChanged, type RestoredAccount } from '../../engine/restore/restore-summary.ts';
import { EXIT } from '../../core/errors.ts';
import { exitCodeOf, type ConformanceReport } from './model.ts';

export type SandboxNotice =
  | {
      kind: 'left-changed';
      /** The accounts left changed, or that may be (outcome unknown). */
      accounts: RestoredAccount[];
      /** How many accounts the restore looked after. */
      of: number;
      /** Whether this is what the run exits with (5): a failure or a stop takes precedence. */
      exit5: boolean;
      journal?: string;
      repair?: string;
    }
  | {
      kind: 'restore-off';
      /** The report's restore note: restore was off, the accounts keep what the run last wrote. */
      note: string;
      /** The accounts the run was given (remote targets only; the embedded server seeds its own). */
      accountIds: string[];
    };

/** The notice of `report`, or undefined when the run left every account as it found it (or predates 1.9.0). */
export function sandboxNotice(report: ConformanceReport): SandboxNotice | undefined {
  const restore = report.restore;
  if (!restore) return undefined;
  if (!restore.enabled) return { kind: 'restore-off', note: restore.note, accountIds: report.target.fiatAccountIds ?? [] };
  const accounts = accountsLeftChanged(restore);
  if (!accounts.length) return undefined;
  return {
    kind: 'left-changed',
    accounts,
    of: restore.accounts.length,
    exit5: exitCodeOf(report) === EXIT.leftChanged,
    ...(restore.journal ? { journal: restore.journal } : {}),
    ...(restore.repair ? { repair: restore.repair } : {}),
  };
}

const OUTCOME_WORDS: Record<string, string> = {
  'partly-restored': 'partly restored',
  'not-restored': 'not restored',
  unknown: 'unknown, may be changed',
};

/** `partly restored`, `not restored`, `unknown, may be changed`. */
export const outcomeWords = (account: RestoredAccount): string => OUTCOME_WORDS[account.outcome] ?? account.outcome;

/** `2 of 3 fiat accounts left changed by the run`, with ` (exit 5)` when that is the run's code. */
export function leftChangedHeadline(notice: Extract<SandboxNotice, { kind: 'left-changed' }>): string {
  const n = notice.accounts.length;
  const of = notice.of > n ? `${n} of ${notice.of}` : `${n}`;
  return `${of} fiat ${notice.of === 1 ? 'account' : 'accounts'} left changed by the run${notice.exit5 ? ' (exit 5)' : ''}`;
}

/** Fields not restored for one reason: a write-back that failed names every field of the account once. */
export interface ReasonGroup {
  reason: string;
  fields: string[];
}

/** An account's fields not restored, by reason, in the order the reasons first appear. */
export function reasonGroups(account: RestoredAccount): ReasonGroup[] {
  const groups = new Map<string, string[]>();
  for (const n of account.notRestored) groups.set(n.reason, [...(groups.get(n.reason) ?? []), n.field]);
  return [...groups].map(([reason, fields]) => ({ reason, fields }));
}

/** Where the original values are, for a run without a journal: the start reads recorded in exchanges.har. */
export const NO_JOURNAL = 'the original values are in the start reads of exchanges.har (no journal was written)';
/** The same as a sentence of its own (summary.md, report.html). */
export const NO_JOURNAL_SENTENCE = `${NO_JOURNAL[0].toUpperCase()}${NO_JOURNAL.slice(1)}.`;

/** One line for --quiet: the accounts with their outcomes, then the repair command (or where the original values are). */
export function sandboxQuietLine(notice: SandboxNotice): string {
  if (notice.kind === 'restore-off') return restoreOffLine(notice);
  const accounts = notice.accounts.map((a) => `${a.id} (${outcomeWords(a)})`).join(', ');
  const then = notice.repair ? `repair: ${notice.repair}` : notice.journal ? `original values in ${notice.journal}` : NO_JOURNAL;
  return `fiat accounts left changed${notice.exit5 ? ' (exit 5)' : ''}: ${accounts}; ${then}`;
}

/** `restore was off (--no-restore): …: <ids>`. */
export function restoreOffLine(notice: Extract<SandboxNotice, { kind: 'restore-off' }>): string {
  return `${notice.note}${notice.accountIds.length ? `: ${notice.accountIds.join(', ')}` : ''}`;
}
