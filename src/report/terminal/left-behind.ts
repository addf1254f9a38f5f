/**
 * What the run left on the target, for the console (docs/design.md section 2, "What a run leaves
 * behind"): the identities it created (the document cannot delete them) and what it could not put
 * back on the fiat accounts, field by field.
 */
import { oneLine } from '../../core/text.ts';
import type { ConformanceReport } from '../model/model.ts';
import { identitiesSentence, identityCounts } from '../model/identity-counts.ts';

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
  const restore = report.restore;
  if (!restore) return lines;
  lines.push(`restore: ${restore.note}`);
  const notes = restore.accounts.flatMap((a) =>
    a.reason ? [`${a.id}: ${a.reason}`] : a.notRestored.map((n) => `${a.id} ${n.field} not restored: ${n.reason}`),
  );
  lines.push(...notes.slice(0, FIELDS_SHOWN).map((n) => `  ${oneLine(n, LINE_WIDTH)}`));
  if (notes.length > FIELDS_SHOWN) lines.push(`  +${notes.length - FIELDS_SHOWN} more in conformance.json restore`);
  return lines;
}
