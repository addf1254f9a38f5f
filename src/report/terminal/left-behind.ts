/**
 * What the run left on the target, for the console (docs/design.md section 2, "What a run leaves
 * behind"): the identities it created (the document cannot delete them) and what it could not put
 * back on the fiat accounts, field by field.
 */
import { oneLine } from '../../core/text.ts';
import type { ConformanceReport } from '../model/model.ts';
import { identitiesSentence, identityCounts } from '../model/identity-counts.ts';
import type { RestoreSummary } from '../../engine/restore/restore-summary.ts';

/** Fields not restored listed on the console; conformance.json `restore` lists them all. */
const FIELDS_SHOWN = 6;
const LINE_WIDTH = 160;

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
  return report.restore ? [...lines, ...restoreLines(report.restore, 'conformance.json restore')] : lines;
}

/** `restore: fiat accounts: 2 restored`, then what was not put back, field by field (the rest in `more`, when written somewhere). */
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
