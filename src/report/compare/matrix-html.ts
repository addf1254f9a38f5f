/**
 * `conformance matrix --html`: the matrix as one self-contained page (the stylesheet of
 * report.html inline, no script, nothing fetched: a Content-Security-Policy of `default-src
 * 'none'` backs that up). A banner with the headline, the targets, the warnings, the rules by
 * target (the rows where the targets differ first and marked; a cell is the status badge and the
 * first failure in the target's words), a verdict row, the open points side by side (the differing
 * ones first and marked) and what a client of one target would break on another. Every piece of
 * data is escaped: failure messages and refusals quote the targets.
 */
import type { RuleStatus } from '../model/model.ts';
import { escapeHtml as e } from '../files/escape.ts';
import { HTML_STYLE } from '../files/html-assets.ts';
import { htmlHead } from '../files/html-page.ts';
import { type MatrixCell, type MatrixPoint, type MatrixRow, type MatrixTarget, NOT_RECORDED, type ReportMatrix } from './matrix.ts';

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

const MATRIX_STYLE = `
table.matrix { table-layout: auto; }
table.matrix td.cell { min-width: 140px; }
table.matrix td .msg { display: block; margin-top: 4px; font-size: 12px; color: var(--muted); overflow-wrap: anywhere; }
tr.differs > td:first-child { border-left: 4px solid var(--warn); }
tr.differs .mark { color: var(--warn); font-weight: 700; }
tr.verdict td { font-weight: 600; background: var(--panel); }
.warning { margin: 10px 0; padding: 8px 12px; border-radius: 6px; border: 1px solid var(--warn); background: var(--warn-bg); color: #633c01; overflow-wrap: anywhere; }
ul.breaks li { margin: 4px 0; overflow-wrap: anywhere; }
details.passed-everywhere { margin: 12px 0; }
details.passed-everywhere > summary { color: var(--muted); font-weight: 600; }
`;

const badge = (status: RuleStatus): string => `<span class="badge s-${status}">${e(status)}</span>`;

/** A verdict in the colour of the rule status it resembles. */
const verdictBadge = (verdict: MatrixTarget['verdict']): string => {
  const status: RuleStatus =
    verdict === 'conformant' ? 'passed' : verdict === 'non-conformant' ? 'failed' : verdict === 'inconclusive' ? 'inconclusive' : 'error';
  return `<span class="badge s-${status}">${e(verdict)}</span>`;
};

function targetsTable(m: ReportMatrix): string {
  const rows = m.targets
    .map(
      (t) =>
        `<tr data-target="${e(t.name)}"><td class="bidi">${e(t.name)}${t.name === t.baseUrl ? '' : `<div class="muted mono">${e(t.baseUrl)}</div>`}</td><td class="mono bidi">${e(t.file)}</td><td class="num">${t.seed}</td><td>${verdictBadge(t.verdict)}${t.reason ? `<div class="muted bidi">${e(t.reason)}</div>` : ''}</td><td>${t.counts.passed} passed, ${t.counts.failed} failed${t.counts.inconclusive ? `, ${t.counts.inconclusive} inconclusive` : ''}</td></tr>`,
    )
    .join('');
  return `<table class="targets"><thead><tr><th>Target</th><th>Report</th><th class="num">Seed</th><th>Verdict</th><th>Rules</th></tr></thead><tbody>${rows}</tbody></table>`;
}

const matrixCell = (c: MatrixCell, target: MatrixTarget): string =>
  `<td class="cell" data-target="${e(target.name)}" data-status="${c.status}">${badge(c.status)}${c.status !== 'passed' && c.message ? `<span class="msg bidi">${e(c.message)}</span>` : ''}</td>`;

const ruleRow = (r: MatrixRow, m: ReportMatrix): string =>
  `<tr data-rule="${e(r.id)}"${r.differs ? ' class="differs" data-differs="true"' : ''}><td class="mono">${r.differs ? '<span class="mark" title="the targets differ">≠</span> ' : ''}${e(r.id)}<div class="muted">${e(r.title)}</div></td><td>§${e(r.section)}<div class="basis">${e(r.basis)}</div></td>${r.cells.map((c, i) => matrixCell(c, m.targets[i])).join('')}</tr>`;

/**
 * The rules that differ or did not pass somewhere, then the verdict row; the rules every target
 * passed are one collapsed table under them, so the page stays short however many rules pass.
 */
function rulesTable(m: ReportMatrix): string {
  const heads = `<thead><tr><th>Rule</th><th>§</th>${m.targets.map((t) => `<th class="bidi">${e(t.name)}</th>`).join('')}</tr></thead>`;
  const verdicts = m.targets.map((t) => `<td data-target="${e(t.name)}">${verdictBadge(t.verdict)}</td>`).join('');
  const passedEverywhere = m.rows.filter((r) => r.cells.every((c) => c.status === 'passed'));
  const shown = m.rows.filter((r) => !passedEverywhere.includes(r));
  const main = `<table class="matrix">${heads}<tbody>${shown.map((r) => ruleRow(r, m)).join('')}<tr class="verdict"><td>Verdict</td><td></td>${verdicts}</tr></tbody></table>`;
  if (!passedEverywhere.length) return main;
  const rest = `<table class="matrix passed-everywhere">${heads}<tbody>${passedEverywhere.map((r) => ruleRow(r, m)).join('')}</tbody></table>`;
  return `${main}<details class="passed-everywhere"><summary>${passedEverywhere.length} ${passedEverywhere.length === 1 ? 'rule' : 'rules'} passed on every target</summary>${rest}</details>`;
}

const pointRow = (p: MatrixPoint, m: ReportMatrix): string =>
  `<tr data-point="${e(`${p.operation} ${p.field} ${p.kind}`)}"${p.differs ? ' class="differs" data-differs="true"' : ''}><td class="mono bidi">${p.differs ? '<span class="mark" title="the targets differ">≠</span> ' : ''}${e(p.field)}<div class="muted">${e(p.operation)}, ${e(p.kind)}</div></td>${p.cells
    .map(
      (c, i) =>
        `<td data-target="${e(m.targets[i].name)}" class="bidi">${c ? `${e(c.summary)}${c.firstRefusal ? `<div class="said muted">${e(c.firstRefusal)}</div>` : ''}` : `<span class="empty">${m.targets[i].contractRecorded ? 'not tried' : NOT_RECORDED}</span>`}</td>`,
    )
    .join('')}</tr>`;

function contractsTable(m: ReportMatrix): string {
  if (!m.points.length) return '<p class="empty">No run tried an open point.</p>';
  const heads = m.targets.map((t) => `<th class="bidi">${e(t.name)}</th>`).join('');
  const points = [...m.points.filter((p) => p.differs), ...m.points.filter((p) => !p.differs)];
  return `<p class="muted">Where the document leaves the choice to the target: a difference here is information, not a failure. ${m.points.filter((p) => p.differs).length} of ${m.points.length} open points differ (≠, listed first).</p><table class="contract-matrix"><thead><tr><th>Open point</th>${heads}</tr></thead><tbody>${points.map((p) => pointRow(p, m)).join('')}</tbody></table>`;
}

function breaksList(m: ReportMatrix): string {
  if (!m.breaks.length) return '<p class="empty">Nothing: no target refused a value another accepted.</p>';
  return `<ul class="breaks">${m.breaks.map((b) => `<li class="bidi" data-refused-by="${e(b.target)}">${e(b.text)}</li>`).join('')}</ul>`;
}

/** The HTML page of a matrix. */
export function renderMatrixHtml(m: ReportMatrix): string {
  const failing = m.targets.filter((t) => t.verdict !== 'conformant').length;
  const title = failing ? `${failing} of ${m.targets.length} targets not conformant` : `All ${m.targets.length} targets conformant`;
  const differing = m.rows.filter((r) => r.differs).length;
  return `${htmlHead(`Conformance matrix: ${title}`, CSP, HTML_STYLE + MATRIX_STYLE)}
<body>
<header class="banner verdict-${failing ? 'non-conformant' : 'conformant'}" id="verdict" data-conformant="${failing ? 'false' : 'true'}">
<div class="inner"><div class="kicker">Conformance matrix · Fiat Account Update and Identity Creation API</div>
<h1>${e(title)}</h1>
<div class="lead">${m.targets.length} targets · ${m.rows.length} rules, ${differing} differing · ${m.breaks.length} values one target accepted and another refused</div></div>
</header>
<main>
<h2 id="targets">Targets</h2>
${targetsTable(m)}
${m.warnings.map((w) => `<p class="warning bidi" role="note">${e(w)}</p>`).join('\n')}
<h2 id="rules">Rules by target</h2>
${rulesTable(m)}
<h2 id="contracts">Observed contracts (open points)</h2>
${contractsTable(m)}
<h2 id="breaks">What a client written against one target would break on another</h2>
${breaksList(m)}
</main>
</body>
</html>
`;
}
