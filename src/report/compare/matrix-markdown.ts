/**
 * `conformance matrix --markdown`: the matrix as Markdown for a pull-request comment or a wiki:
 * a headline, the targets with their verdicts, the warnings, one table of rules by target (the
 * rows where the targets differ first, marked ≠; a cell is the status and the first failure in
 * the target's words) closed by a verdict row, the rules every target passed collapsed under it, then the open points where the observed contracts
 * differ and what a client of one target would break on another. Cells are escaped (a failure
 * message quotes what the target said).
 */
import type { RuleStatus } from '../model/model.ts';
import { escapeMarkdownCell } from '../files/escape.ts';
import { MATRIX_MESSAGE_WIDTH, NOT_RECORDED, type MatrixCell, type MatrixPoint, type MatrixRow, type MatrixTarget, type ReportMatrix } from './matrix.ts';

const ICON: Record<RuleStatus, string> = { passed: '✅', failed: '❌', error: '💥', inconclusive: '🟡', skipped: '⏭️' };

const cell = (c: MatrixCell): string =>
  `${ICON[c.status]} ${c.status}${c.status !== 'passed' && c.message ? `: ${escapeMarkdownCell(c.message, MATRIX_MESSAGE_WIDTH)}` : ''}`;

const header = (targets: readonly MatrixTarget[]): string => targets.map((t) => escapeMarkdownCell(t.name, 80)).join(' | ');

function targetRows(m: ReportMatrix): string[] {
  return [
    '| Target | Report | Seed | Verdict | Rules |',
    '|---|---|---|---|---|',
    ...m.targets.map(
      (t) =>
        `| ${escapeMarkdownCell(t.name, 120)}${t.name === t.baseUrl ? '' : ` (\`${escapeMarkdownCell(t.baseUrl, 120)}\`)`} | \`${escapeMarkdownCell(t.file, 120)}\` | ${t.seed} | **${t.verdict}**${t.reason ? ` (${escapeMarkdownCell(t.reason, 160)})` : ''} | ${t.counts.passed} passed, ${t.counts.failed} failed${t.counts.inconclusive ? `, ${t.counts.inconclusive} inconclusive` : ''} |`,
    ),
  ];
}

const ruleRow = (r: MatrixRow): string =>
  `| ${r.differs ? '≠ ' : ''}\`${escapeMarkdownCell(r.id)}\` | ${escapeMarkdownCell(r.section)} | ${r.cells.map(cell).join(' | ')} |`;

/** The rules that differ or did not pass somewhere and the verdict row; the rules every target passed collapsed under one line (GitHub renders `<details>`). */
function ruleRows(m: ReportMatrix): string[] {
  const head = [`| Rule | § | ${header(m.targets)} |`, `|---|---|${m.targets.map(() => '---|').join('')}`];
  const passedEverywhere = m.rows.filter((r) => r.cells.every((c) => c.status === 'passed'));
  const lines = [
    ...head,
    ...m.rows.filter((r) => !passedEverywhere.includes(r)).map(ruleRow),
    `| **Verdict** | | ${m.targets.map((t) => `**${t.verdict}**`).join(' | ')} |`,
  ];
  if (!passedEverywhere.length) return lines;
  const summary = `${passedEverywhere.length} ${passedEverywhere.length === 1 ? 'rule' : 'rules'} passed on every target`;
  return [...lines, '', '<details>', `<summary>${summary}</summary>`, '', ...head, ...passedEverywhere.map(ruleRow), '', '</details>'];
}

const pointRow = (p: MatrixPoint, m: ReportMatrix): string =>
  `| \`${escapeMarkdownCell(p.field, 120)}\` (${p.operation}), ${p.kind} | ${p.cells
    .map((c, i) =>
      c
        ? `${escapeMarkdownCell(c.summary, 120)}${c.firstRefusal ? ` (${escapeMarkdownCell(c.firstRefusal, 120)})` : ''}`
        : `_${m.targets[i].contractRecorded ? 'not tried' : NOT_RECORDED}_`,
    )
    .join(' | ')} |`;

function contractRows(m: ReportMatrix): string[] {
  if (!m.points.length) return ['No run tried an open point.', ''];
  const differing = m.points.filter((p) => p.differs);
  const lines = ['_Open points the document leaves to the target: a difference is information, not a failure._', ''];
  if (differing.length)
    lines.push(`| Open point | ${header(m.targets)} |`, `|---|${m.targets.map(() => '---|').join('')}`, ...differing.map((p) => pointRow(p, m)), '');
  const alike = m.points.length - differing.length;
  lines.push(
    `${differing.length ? '' : 'The targets differ on no open point. '}${alike} open ${alike === 1 ? 'point' : 'points'} alike on every target that tried ${alike === 1 ? 'it' : 'them'}.`,
    '',
  );
  return lines;
}

/** The Markdown text of a matrix. */
export function renderMatrixMarkdown(m: ReportMatrix): string {
  const failing = m.targets.filter((t) => t.verdict !== 'conformant').length;
  const headline = failing ? `❌ ${failing} of ${m.targets.length} targets not conformant` : `✅ all ${m.targets.length} targets conformant`;
  const differing = m.rows.filter((r) => r.differs).length;
  const lines = [`## Conformance matrix: ${headline}`, '', ...targetRows(m), ''];
  for (const warning of m.warnings) lines.push(`> ⚠️ ${escapeMarkdownCell(warning, 400)}`, '');
  lines.push('### Rules', '', `${differing} of ${m.rows.length} rules differ between the targets (≠, listed first).`, '', ...ruleRows(m), '');
  lines.push('### Observed contracts (open points)', '', ...contractRows(m));
  lines.push('### What a client written against one target would break on another', '');
  lines.push(...(m.breaks.length ? m.breaks.map((b) => `- ${escapeMarkdownCell(b.text, 400)}`) : ['Nothing: no target refused a value another accepted.']));
  return lines.join('\n') + '\n';
}
