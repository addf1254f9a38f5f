/**
 * `conformance matrix` on the console: the targets under letters (A, B, C: names are often long
 * URLs), one line per rule not passed on every target with each target's status in its colour
 * (`≠` where they differ) and each failing target's first failure in its words under it, a count
 * of the rules every target passed; the verdicts;
 * the open points where the observed contracts differ; what a client of one target would break on
 * another; a closing line.
 */
import { oneLine } from '../../core/text.ts';
import { paintStatus, paintVerdict, type Palette } from '../terminal/colour.ts';
import { type MatrixPoint, type MatrixTarget, NOT_RECORDED, type ReportMatrix } from './matrix.ts';

/** Wide enough for `inconclusive`, the longest status. */
const STATUS_WIDTH = 12;
/** A failure line under a rule, in code points. */
const MESSAGE_WIDTH = 140;

/** The column letter of the i-th target: A, B, ... Z, then A2, B2 ... */
export const columnLetter = (i: number): string => `${String.fromCharCode(65 + (i % 26))}${i >= 26 ? Math.floor(i / 26) + 1 : ''}`;

const counts = (t: MatrixTarget): string =>
  `${t.counts.passed} passed, ${t.counts.failed} failed` +
  (t.counts.inconclusive ? `, ${t.counts.inconclusive} inconclusive` : '') +
  (t.counts.skipped ? `, ${t.counts.skipped} skipped` : '') +
  (t.counts.errors ? `, ${t.counts.errors} errors` : '');

function targetLines(m: ReportMatrix, paint: Palette): string[] {
  return m.targets.map((t, i) => {
    const reading = t.reading?.fault ? ` (fault ${t.reading.fault})` : t.reading?.server ? ` (${t.reading.server} server)` : '';
    const url = t.name === t.baseUrl ? '' : `  ${t.baseUrl}`;
    const reason = t.reason ? `  ${oneLine(t.reason, 100)}` : '';
    return `  ${columnLetter(i)}  ${t.name}${url}${reading}  seed ${t.seed}  ${paintVerdict(paint, t.verdict)}  ${counts(t)}${reason}`;
  });
}

function ruleLines(m: ReportMatrix, paint: Palette): string[] {
  const width = Math.max(4, ...m.rows.map((r) => r.id.length));
  const sectionWidth = Math.max(1, ...m.rows.map((r) => r.section.length)) + 1;
  const header = `  ${'rule'.padEnd(width)}  ${'§'.padEnd(sectionWidth)}  ${m.targets.map((_, i) => columnLetter(i).padEnd(STATUS_WIDTH)).join(' ')}`;
  const lines = ['rules by target (≠: the targets differ; those rules first)', paint.dim(header.trimEnd())];
  // The rules every target passed are counted, not listed: --json, --markdown and --html list them.
  const passedEverywhere = m.rows.filter((r) => r.cells.every((c) => c.status === 'passed'));
  for (const row of m.rows.filter((r) => !passedEverywhere.includes(r))) {
    const cells = row.cells.map((c) => paintStatus(paint, c.status, c.status.padEnd(STATUS_WIDTH))).join(' ');
    lines.push(`${row.differs ? paint.bold('≠') : ' '} ${row.id.padEnd(width)}  ${`§${row.section}`.padEnd(sectionWidth)}  ${cells}`.trimEnd());
    for (const [i, cell] of row.cells.entries()) {
      if (cell.status !== 'passed' && cell.message) lines.push(`      ${columnLetter(i)}: ${cell.message}`);
    }
  }
  if (passedEverywhere.length)
    lines.push(`  ${paint.dim(`+ ${passedEverywhere.length} ${passedEverywhere.length === 1 ? 'rule' : 'rules'} passed on every target`)}`);
  const verdicts = m.targets.map((t) => paintVerdict(paint, t.verdict, t.verdict.padEnd(STATUS_WIDTH))).join(' ');
  lines.push(`  ${'verdict'.padEnd(width)}  ${''.padEnd(sectionWidth)}  ${verdicts}`.trimEnd(), '');
  return lines;
}

function pointLines(point: MatrixPoint, m: ReportMatrix): string[] {
  return [
    `  ${point.operation} ${point.field}, ${point.kind}`,
    ...point.cells.map(
      (c, i) =>
        `      ${columnLetter(i)}: ${c ? oneLine(`${c.summary}${c.firstRefusal ? ` (${c.firstRefusal})` : ''}`, MESSAGE_WIDTH) : m.targets[i].contractRecorded ? `not tried by ${m.targets[i].name}` : NOT_RECORDED}`,
    ),
  ];
}

function contractLines(m: ReportMatrix): string[] {
  const differing = m.points.filter((p) => p.differs);
  if (!m.points.length) return ['observed contracts: no run tried an open point', ''];
  const alike = m.points.length - differing.length;
  const lines = [`observed contracts where the targets differ (open points: information, not failures; ${alike} more alike or tried by one target only)`];
  lines.push(...(differing.length ? differing.flatMap((p) => pointLines(p, m)) : ['  none']), '');
  lines.push('what a client written against one target would break on another');
  lines.push(...(m.breaks.length ? m.breaks.map((b) => `  - ${oneLine(b.text, 300)}`) : ['  nothing: no target refused a value another accepted']), '');
  return lines;
}

/** The console lines of a matrix. */
export function matrixConsoleLines(m: ReportMatrix, paint: Palette): string[] {
  const notConformant = m.targets.filter((t) => t.verdict !== 'conformant');
  const closing = notConformant.length
    ? `${m.targets.length} targets: ${notConformant.length} not conformant (${notConformant.map((t) => `${t.name}: ${t.verdict}`).join(', ')})`
    : `${m.targets.length} targets: all conformant`;
  return [`matrix of ${m.targets.length} reports`, ...targetLines(m, paint), '', ...ruleLines(m, paint), ...contractLines(m), closing];
}
