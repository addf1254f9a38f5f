/**
 * What the run left on the target, for the console (docs/design.md section 2, "What a run leaves
 * behind"): the identities it created (the document cannot delete them) and the restore's line.
 * What it could not put back on the fiat accounts, field by field, closes the console
 * (sandboxLines), so a CI log ends with it.
 */
import { oneLine } from '../../core/text.ts';
import type { ConformanceReport } from '../model/model.ts';
import { identitiesSentence, identityCounts } from '../model/identity-counts.ts';
import type { RestoredAccount, RestoreSummary } from '../../engine/restore/restore-summary.ts';
import type { LedgerEntry } from '../../engine/identity-ledger.ts';
import { leftChangedHeadline, NO_JOURNAL, outcomeWords, reasonGroups, restoreOffLine, type SandboxNotice } from '../model/left-changed.ts';
import type { Palette } from './colour.ts';

const LINE_WIDTH = 160;
/** Fields not restored a replay lists; the rest are counted. */
const FIELDS_SHOWN = 6;

/**
 * `created 37 identities, 2 more may exist (answer lost); list in reports/created-identities.json`,
 * then the restore. `ledgerFile`: where the list was written.
 */
export function leftBehindLines(report: ConformanceReport, ledgerFile?: string): string[] {
  const lines: string[] = [];
  // A report before 1.9.0 says nothing of it: no line, rather than a false "created 0".
  if (report.createdIdentities) {
    const counts = identityCounts(report.createdIdentities);
    const where = ledgerFile ? `list in ${ledgerFile}` : 'list in conformance.json createdIdentities';
    lines.push(`${identitiesSentence(counts)}${counts.created + counts.unknown ? `; ${where}` : ''}`);
  }
  // Restore off says so in the closing lines.
  if (report.restore?.enabled) lines.push(`restore: ${report.restore.note}`);
  return lines;
}

/** Identities a replay names (the rest counted): it writes no ledger file, so the console is where they are listed. */
const IDS_SHOWN = 6;

/** A replay's identities, which stay on the target (the document has no delete): `created 3 identities (no delete exists): id, id, id`. */
export function replayIdentityLines(entries: readonly LedgerEntry[]): string[] {
  if (!entries.length) return [];
  const ids = entries.flatMap((e) => (e.outcome === 'created' ? [e.id] : e.refId !== undefined ? [`ref_id ${e.refId}?`] : []));
  const more = ids.length > IDS_SHOWN ? `, +${ids.length - IDS_SHOWN} more` : '';
  return [
    oneLine(`${identitiesSentence(identityCounts(entries))} (they stay: the document has no delete): ${ids.slice(0, IDS_SHOWN).join(', ')}${more}`, LINE_WIDTH),
  ];
}

/** A replay's restore: its note, then what was not put back, field by field (the rest in `more`, when written somewhere). */
export function restoreLines(restore: RestoreSummary, more?: string): string[] {
  const notes = restore.accounts.flatMap((a) =>
    a.reason ? [`${a.id}: ${a.reason}`] : a.notRestored.map((n) => `${a.id} ${n.field} not restored: ${n.reason}`),
  );
  return [
    `restore: ${restore.note}`,
    ...notes.slice(0, FIELDS_SHOWN).map((n) => `  ${oneLine(n, LINE_WIDTH)}`),
    ...(notes.length > FIELDS_SHOWN ? [`  +${notes.length - FIELDS_SHOWN} more${more ? ` in ${more}` : ''}`] : []),
  ];
}

/**
 * The console's last lines when the run left a fiat account changed: a headline, one line per
 * account (every account named, however many fields: the first reason, then at most
 * FIELDS_NAMED fields), where the original values are, and the repair
 * command. Restore off: its one line.
 */
export function sandboxLines(notice: SandboxNotice, paint: Palette): string[] {
  if (notice.kind === 'restore-off') return [paint.yellow(oneLine(restoreOffLine(notice), LINE_WIDTH * 2))];
  return [
    paint.bold(paint.red(`⚠ ${leftChangedHeadline(notice)}`)),
    ...notice.accounts.map((a) => `  ${oneLine(accountLine(a), LINE_WIDTH)}`),
    `  ${notice.journal ? `original values: ${notice.journal}` : NO_JOURNAL}`,
    ...(notice.repair ? [`  repair: ${notice.repair}`] : []),
  ];
}

/** Fields named on an account's line; conformance.json `restore` names them all. */
const FIELDS_NAMED = 3;

/**
 * `<id> metadata.k1 not restored: <reason>`; with more fields, the reason before their names (a
 * long line loses the names first): `<id> 18 fields not restored: <reason> (first_name, … +15 more)`;
 * or `<id>: <why the account was not>`.
 */
function accountLine(a: RestoredAccount): string {
  if (a.reason || !a.notRestored.length) return `${a.id}: ${a.reason ?? outcomeWords(a)}`;
  if (a.notRestored.length === 1) return `${a.id} ${a.notRestored[0].field} not restored: ${a.notRestored[0].reason}`;
  const [first, ...others] = reasonGroups(a);
  const named = a.notRestored.slice(0, FIELDS_NAMED).map((n) => n.field);
  const more = a.notRestored.length > FIELDS_NAMED ? ` +${a.notRestored.length - FIELDS_NAMED} more` : '';
  return `${a.id} ${a.notRestored.length} fields not restored: ${first.reason}${others.length ? ' (and other reasons)' : ''} (${named.join(', ')}${more})`;
}
