/**
 * What the run left on the target, for the console (docs/design.md section 2, "What a run leaves
 * behind"): the identities it created (the document cannot delete them) and the restore's line.
 * What it could not put back on the fiat accounts, field by field, closes the console
 * (sandboxLines), so a CI log ends with it.
 */
import { oneLine } from '../../core/text.ts';
import type { ConformanceReport } from '../model/model.ts';
import { leftChangedHeadline, leftChangedNotes, NO_JOURNAL, restoreOffLine, type SandboxNotice } from '../model/left-changed.ts';
import type { Palette } from './colour.ts';

/** Fields not restored listed on the console; conformance.json `restore` lists them all. */
const FIELDS_SHOWN = 6;
const LINE_WIDTH = 160;

/** `created 37 identities; list in reports/created-identities.json`, then the restore's line. `ledgerFile`: where the list was written. */
export function leftBehindLines(report: ConformanceReport, ledgerFile?: string): string[] {
  const lines: string[] = [];
  // A report before 1.9.0 says nothing of it: no line, rather than a false "created 0".
  if (report.createdIdentities) {
    const created = report.createdIdentities.length;
    const where = ledgerFile ? `list in ${ledgerFile}` : 'list in conformance.json createdIdentities';
    lines.push(`created ${created} ${created === 1 ? 'identity' : 'identities'}${created ? `; ${where}` : ''}`);
  }
  // Restore off says so in the closing lines.
  if (report.restore?.enabled) lines.push(`restore: ${report.restore.note}`);
  return lines;
}

/**
 * The console's last lines when the run left a fiat account changed: a headline naming the
 * accounts, at most FIELDS_SHOWN notes (a field not restored with why, or why an account was
 * not), where the original values are, and the repair command. Restore off: its one line.
 */
export function sandboxLines(notice: SandboxNotice, paint: Palette): string[] {
  if (notice.kind === 'restore-off') return [paint.yellow(oneLine(restoreOffLine(notice), LINE_WIDTH * 2))];
  const notes = leftChangedNotes(notice.accounts).map((n) => `${n.account}${n.field ? ` ${n.field} not restored` : ''}: ${n.reason}`);
  return [
    paint.bold(paint.red(`⚠ ${leftChangedHeadline(notice)}`)),
    ...notes.slice(0, FIELDS_SHOWN).map((n) => `  ${oneLine(n, LINE_WIDTH)}`),
    ...(notes.length > FIELDS_SHOWN ? [`  +${notes.length - FIELDS_SHOWN} more in conformance.json restore`] : []),
    `  ${notice.journal ? `original values: ${notice.journal}` : NO_JOURNAL}`,
    ...(notice.repair ? [`  repair: ${notice.repair}`] : []),
  ];
}
