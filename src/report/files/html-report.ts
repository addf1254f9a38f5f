/**
 * report.html: one self-contained page (inline CSS and script, no external asset) that opens
 * offline. Verdict banner (with where the run stopped, when the target stopped answering),
 * coverage of the document per section, every failure with its request, response and what the
 * target said, the inconclusive rules with their reason and case figures, the observed contract
 * (what the target refused on open points, a compact table), the undocumented fields and the
 * facts of the run. Every piece of data is escaped; a Content-Security-Policy
 * pinned to the script's hash backs that up.
 */
import { createHash } from 'node:crypto';
import type { ConformanceReport, ReportFailure, ReportRule, RuleStatus } from '../model/model.ts';
import type { RecordedRequest, RecordedResponse } from '../../core/exchange.ts';
import { escapeHtml as e } from './escape.ts';
import { HTML_SCRIPT, HTML_STYLE } from './html-assets.ts';
import { compareSections } from '../model/sections.ts';
import { rerunCommand } from '../model/rerun-command.ts';
import { failureWords } from '../model/target-words.ts';
import { coverageFigures, inconclusiveForAnswers, reasonText, stoppedText } from '../model/rule-text.ts';
import { caseModeText } from '../model/case-text.ts';
import { contractOf, refusedLimits } from '../model/report-contract.ts';
import { firstRefusalText, openCasesText } from '../model/contract-text.ts';

/** Failures spelled out per rule; the rest are counted (conformance.json has them all). */
const FAILURES_SHOWN = 10;
/** Bodies longer than this are cut in the page. */
const BODY_LIMIT = 20_000;

const VERDICT_TITLE: Record<ConformanceReport['summary']['verdict'], string> = {
  conformant: 'Conformant',
  'non-conformant': 'Non-conformant',
  inconclusive: 'Inconclusive: a rule was not judged by enough cases',
  interrupted: 'Interrupted: the run was stopped before its end',
  error: 'Error: the target could not be judged',
};

const STATUS_ORDER: RuleStatus[] = ['passed', 'failed', 'error', 'inconclusive', 'skipped'];

const badge = (status: RuleStatus) => `<span class="badge s-${status}">${status}</span>`;

function duration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const s = ms / 1000;
  return s < 120 ? `${s.toFixed(1)} s` : `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
}

function cut(text: string): string {
  return text.length > BODY_LIMIT ? `${text.slice(0, BODY_LIMIT)}\n… (${text.length - BODY_LIMIT} more characters in exchanges.har)` : text;
}

function prettyBody(body: unknown, raw: string | undefined): string {
  if (body !== undefined) return JSON.stringify(body, null, 2) ?? String(body);
  return raw ?? '';
}

const headerLines = (headers: Record<string, string>) =>
  Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');

function requestText(r: RecordedRequest): string {
  const body = prettyBody(r.body, r.rawBody);
  return [`${r.method} ${r.url}`, headerLines(r.headers), body ? `\n${cut(body)}` : ''].filter(Boolean).join('\n');
}

function responseText(r: RecordedResponse): string {
  const body = prettyBody(r.json ? r.body : undefined, r.rawBody);
  return [`HTTP ${r.status}`, headerLines(r.headers), body ? `\n${cut(body)}` : ''].filter(Boolean).join('\n');
}

function facts(report: ConformanceReport): string {
  const s = report.summary;
  const rows: [string, string][] = [
    ['Target', `${report.target.baseUrl}${report.target.embedded ? ' (embedded reference server)' : ''}`],
    ['Seed', String(report.seed)],
    ['Profile', `${report.profile}${report.strict ? ', strict' : ''}`],
    ['Tool', `${report.tool.name} ${report.tool.version}`],
    ['Started', report.startedAt],
    ['Duration', duration(report.durationMs)],
    ['Requests', `${s.requests}${s.unanswered ? ` (${s.unanswered} without a usable answer)` : ''}`],
    ['Schemas', report.schemasHash.slice(0, 16)],
    ['Report version', report.reportVersion],
  ];
  for (const [k, v] of Object.entries(report.target.reading ?? {})) rows.push([`Reading: ${k}`, v]);
  return `<dl class="facts">${rows.map(([k, v]) => `<div><dt>${e(k)}</dt><dd class="bidi">${e(v)}</dd></div>`).join('')}</dl>`;
}

function coverage(report: ConformanceReport): string {
  const sections = [...new Set(report.rules.map((r) => r.section))].sort(compareSections);
  const rows = sections.map((section) => {
    const rules = report.rules.filter((r) => r.section === section);
    const n = (status: RuleStatus) => rules.filter((r) => r.status === status).length;
    let x = 0;
    const rects = STATUS_ORDER.map((status) => {
      const width = (n(status) / rules.length) * 100;
      const rect =
        width > 0
          ? `<rect class="bar-${status}" x="${x.toFixed(3)}" y="0" width="${width.toFixed(3)}" height="10"><title>${n(status)} ${status}</title></rect>`
          : '';
      x += width;
      return rect;
    }).join('');
    const nums = STATUS_ORDER.filter((st) => n(st) > 0 || (st !== 'error' && st !== 'inconclusive'))
      .map((st) => `${n(st)} ${st}`)
      .join(' · ');
    return `<div class="row" data-section="${e(section)}"><span class="label">§${e(section)}</span><svg viewBox="0 0 100 10" preserveAspectRatio="none" role="img" aria-label="${e(`section ${section}: ${nums}`)}">${rects}</svg><span class="nums">${e(nums)}</span></div>`;
  });
  const legend = STATUS_ORDER.map((st) => `<span><i class="bar-${st}"></i>${st}</span>`).join('');
  return `<div class="coverage"><div class="legend">${legend}</div>${rows.join('')}</div>`;
}

function rulesTable(report: ConformanceReport): string {
  const rules = [...report.rules].sort((a, b) => compareSections(a.section, b.section) || a.id.localeCompare(b.id));
  const body = rules
    .map(
      (r) =>
        `<tr data-rule="${e(r.id)}" data-status="${r.status}"><td class="mono">${e(r.id)}</td><td>${e(r.title)}${r.reason && r.status !== 'failed' ? `<div class="muted reason">${e(r.reason)}</div>` : ''}</td><td>§${e(r.section)}</td><td class="basis">${e(r.basis)}</td><td>${badge(r.status)}</td><td class="num">${r.cases}${r.coverage ? `<div class="muted figures">${e(coverageFigures(r.coverage))}</div>` : ''}</td></tr>`,
    )
    .join('');
  return `<table><thead><tr><th>Rule</th><th>Title</th><th>Section</th><th>Basis</th><th>Status</th><th class="num">Cases</th></tr></thead><tbody>${body}</tbody></table>`;
}

function failureBlock(f: ReportFailure, id: string, ruleId: string): string {
  const caseBits = [`${f.case.label}`, `mode ${caseModeText(f.case)}`];
  if (f.case.violates) caseBits.push(`violates ${f.case.violates}`);
  if (f.case.exercises) caseBits.push(`exercises ${f.case.exercises}`);
  if (f.case.auth) caseBits.push(`credentials ${f.case.auth}`);
  if (f.instancePath) caseBits.push(`at ${f.instancePath}`);
  if (f.path) caseBits.push(`replay path ${f.path}`);
  const response = f.response
    ? `<pre>${e(responseText(f.response))}</pre>`
    : `<pre>${e(f.error ? `no response: ${f.error.kind}\n${f.error.message}` : 'no response recorded')}</pre>`;
  const words = failureWords(f, ruleId);
  const said = words ? `<p class="said bidi">Target said: <q>${e(words)}</q></p>` : '';
  return `<div class="failure" data-failure>
<p class="message bidi">${e(f.message)}</p>${said}
<div class="case bidi">${e(caseBits.join(' · '))}</div>
<div class="exchange"><div class="pane"><h4>Request</h4><pre>${e(requestText(f.request))}</pre></div><div class="pane"><h4>Response</h4>${response}</div></div>
<div class="curl"><pre id="${id}" class="mono">${e(f.curl)}</pre><button type="button" class="copy" data-copy="${id}" aria-label="Copy the curl command">Copy</button></div>
</div>`;
}

function failures(report: ConformanceReport): string {
  const failing = report.rules.filter((r) => r.status === 'failed' || r.status === 'error');
  if (!failing.length) return '<p class="empty">No rule failed.</p>';
  let n = 0;
  return failing
    .map((r: ReportRule) => {
      const shown = r.failures.slice(0, FAILURES_SHOWN).map((f) => failureBlock(f, `curl-${++n}`, r.id));
      if (r.failures.length > FAILURES_SHOWN)
        shown.push(`<div class="failure muted">… and ${r.failures.length - FAILURES_SHOWN} more failures in conformance.json</div>`);
      if (!r.failures.length) shown.push(`<div class="failure muted">${e(r.reason ?? 'no failure recorded')}</div>`);
      return `<article class="failure-rule" data-rule="${e(r.id)}"><header>${badge(r.status)}<h3 class="mono">${e(r.id)}</h3><span>${e(r.title)}</span><span class="basis">§${e(r.section)} · ${e(r.basis)}</span></header>${shown.join('')}</article>`;
    })
    .join('');
}

function inconclusive(report: ConformanceReport): string {
  const rules = report.rules.filter((r) => r.status === 'inconclusive');
  if (!rules.length) return '';
  const items = rules
    .map(
      (r) =>
        `<article class="failure-rule" data-inconclusive="${e(r.id)}"><header>${badge(r.status)}<h3 class="mono">${e(r.id)}</h3><span>${e(r.title)}</span><span class="basis">§${e(r.section)} · ${e(r.basis)}${r.blocking ? ' · blocks the verdict' : ' · does not block the verdict'}</span></header>` +
        `<div class="failure"><p class="reason bidi">${e(r.reason ?? 'judged by fewer cases than the profile asks')}</p>` +
        `${r.coverage ? `<p class="figures muted">${e(coverageFigures(r.coverage))} · ${r.coverage.distinctInputs} distinct inputs</p>` : `<p class="figures muted">${r.cases} cases</p>`}</div></article>`,
    )
    .join('');
  return `<h2 id="inconclusive">Inconclusive</h2>
<p class="muted">Judged by fewer cases than the profile asks: neither passed nor failed. The reason says what would fix it.</p>
${items}`;
}

/** The open points the target refused, one row each, and a line for the rest; short on purpose. */
function observedContract(report: ConformanceReport): string {
  const { contract, recorded } = contractOf(report);
  if (!recorded) return `<p class="empty">Not recorded: report version ${e(report.reportVersion)} predates it.</p>`;
  const counts = openCasesText(report);
  if (!contract.limits.length && !report.summary.openCases?.accepted && !report.summary.openCases?.refused) {
    return '<p class="empty">No open case was tried.</p>';
  }
  const refused = refusedLimits(contract);
  const others = contract.limits.length - refused.length;
  const tally = [counts, others ? `${others} open ${others === 1 ? 'point' : 'points'} accepted everything tried` : undefined].filter(Boolean).join(' · ');
  const note = `<p class="muted" id="open-cases">Where the document leaves the choice to the target: a refusal here is conformant, not a failure.${tally ? ` ${e(tally)}.` : ''}</p>`;
  if (!refused.length) return `${note}<p class="empty">No open point was refused.</p>`;
  const rows = refused
    .map(
      (l) =>
        `<tr data-limit="${e(`${l.operation} ${l.field} ${l.kind}`)}"><td class="mono bidi">${e(l.field)}<div class="muted">${e(l.operation)}</div></td><td>${e(l.kind)}</td><td class="bidi">${e(l.summary)}</td><td class="said bidi">${e(firstRefusalText(l) ?? '')}</td></tr>`,
    )
    .join('');
  return `${note}<table class="contract"><thead><tr><th>Field</th><th>Kind</th><th>Observed</th><th>First refusal</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function undocumented(report: ConformanceReport): string {
  if (!report.undocumentedFields.length) return '<p class="empty">None seen.</p>';
  const rows = report.undocumentedFields
    .map((u) => `<tr><td class="mono bidi">${e(u.path)}</td><td>${e(u.operation)}</td><td class="num">${u.count}</td></tr>`)
    .join('');
  return `<p class="muted">Response fields the document does not list. They are tolerated, not failures.</p><table><thead><tr><th>Path</th><th>Operation</th><th class="num">Seen</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** The full HTML page of a report. */
export function renderHtmlReport(report: ConformanceReport): string {
  const s = report.summary;
  const scriptHash = createHash('sha256').update(HTML_SCRIPT, 'utf8').digest('base64');
  const csp = `default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-${scriptHash}'; base-uri 'none'; form-action 'none'`;
  const inconclusiveCount = s.inconclusive ?? report.rules.filter((r) => r.status === 'inconclusive').length;
  const lead = `${s.rules} rules: ${s.passed} passed, ${s.failed} failed${inconclusiveCount ? `, ${inconclusiveCount} inconclusive` : ''}, ${s.skipped} skipped${s.errors ? `, ${s.errors} errors` : ''} · ${s.requests} requests · ${duration(report.durationMs)}`;
  const stopped = stoppedText(report, 500);
  const reason = reasonText(report, 500);
  const title = inconclusiveForAnswers(report) ? 'Inconclusive: too many requests got no usable answer' : VERDICT_TITLE[s.verdict];
  const count = (n: number, what: string, status: RuleStatus) => `<div class="count"><strong class="badge s-${status}">${n}</strong>${what}</div>`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<title>${e(`${title}: conformance of ${report.target.baseUrl}`)}</title>
<style>${HTML_STYLE}</style>
</head>
<body>
<header class="banner verdict-${s.verdict}" id="verdict" data-verdict="${s.verdict}">
<div class="inner"><div class="kicker">Conformance report · Fiat Account Update and Identity Creation API</div>
<h1>${e(title)}</h1>
<div class="lead bidi">${e(report.target.baseUrl)} · ${e(lead)}</div>${stopped ? `\n<p class="stopped bidi" id="stopped" role="alert"><strong>Stopped:</strong> ${e(stopped)}</p>` : ''}${reason ? `\n<p class="stopped bidi" id="reason" role="alert"><strong>Reason:</strong> ${e(reason)}</p>` : ''}</div>
</header>
<main>
<div class="counts">${count(s.passed, 'passed', 'passed')}${count(s.failed, 'failed', 'failed')}${inconclusiveCount ? count(inconclusiveCount, 'inconclusive', 'inconclusive') : ''}${count(s.skipped, 'skipped', 'skipped')}${s.errors ? count(s.errors, 'errors', 'error') : ''}</div>
<h2>Run</h2>
${facts(report)}
<p class="muted">Re-run the same cases: <code>${e(rerunCommand(report))}</code>${report.strict ? '' : '. Convention rules fail the run only with <code>--strict</code>.'}</p>
<h2>Coverage of the document</h2>
${coverage(report)}
<h2 id="failures">Failures</h2>
${failures(report)}
${inconclusive(report)}
<h2>Rules</h2>
${rulesTable(report)}
<h2 id="observed-contract">Observed contract (open points)</h2>
${observedContract(report)}
<h2>Undocumented fields</h2>
${undocumented(report)}
<footer>Generated by ${e(report.tool.name)} ${e(report.tool.version)} · schemas ${e(report.schemasHash)}</footer>
</main>
<script>${HTML_SCRIPT}</script>
</body>
</html>
`;
}
