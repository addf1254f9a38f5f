/**
 * report.html: one self-contained page (inline CSS and script, no external asset) that opens
 * offline and works without its script. A warning before everything when the run left a fiat
 * account changed, or restore was off (html-left-changed.ts). Verdict banner (the reason first when the verdict is not
 * what the rules alone say: why an aborted run could not judge the target; where the run stopped),
 * a table of contents, then by section: the failures (html-failures.ts: a finding per rule and
 * message, long evidence collapsed), the inconclusive rules and the rule table (html-rules.ts: a
 * reason several rules share said once, the passed rules collapsed), the observed contract (what
 * the target refused on open points, a compact table), coverage of the document per section, the
 * undocumented fields and the facts of the run. A run with hundreds of failures stays a few
 * screens long. Every piece of data is escaped; a Content-Security-Policy pinned to the script's
 * hash backs that up.
 */
import { answersChart } from './html-answers-chart.ts';
import { collapsedWhenLong } from './html-long-table.ts';
import { shardNoVerdict } from '../model/shard-rules.ts';
import { shardName } from '../../engine/shard.ts';
import { createHash } from 'node:crypto';
import type { ConformanceReport, ReportRule, RuleStatus } from '../model/model.ts';
import { escapeHtml as e } from './escape.ts';
import { HTML_SCRIPT, HTML_STYLE } from './html-assets.ts';
import { htmlHead } from './html-page.ts';
import { compareSections, sectionWithTitle } from '../model/sections.ts';
import { rerunCommand } from '../model/rerun-command.ts';
import { inconclusiveForAnswers, reasonText, stoppedText } from '../model/rule-text.ts';
import { failuresSection, reproduceSetupHtml } from './html-failures.ts';
import { inconclusiveSection, rulesSection } from './html-rules.ts';
import { contractOf, refusedLimits } from '../model/report-contract.ts';
import { firstRefusalText, openCasesText } from '../model/contract-text.ts';
import { leftChangedHtml } from './html-left-changed.ts';

const VERDICT_TITLE: Record<ConformanceReport['summary']['verdict'], string> = {
  conformant: 'Conformant',
  'non-conformant': 'Non-conformant',
  inconclusive: 'Inconclusive: a rule was not judged by enough cases',
  interrupted: 'Interrupted: the run was stopped before its end',
  error: 'Error: the target could not be judged',
};

const STATUS_ORDER: RuleStatus[] = ['passed', 'failed', 'error', 'inconclusive', 'skipped'];

function duration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const s = ms / 1000;
  return s < 120 ? `${s.toFixed(1)} s` : `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
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
    return `<div class="row" data-section="${e(section)}"><span class="label">${e(sectionWithTitle(section))}</span><svg viewBox="0 0 100 10" preserveAspectRatio="none" role="img" aria-label="${e(`section ${section}: ${nums}`)}">${rects}</svg><span class="nums">${e(nums)}</span></div>`;
  });
  const legend = STATUS_ORDER.map((st) => `<span><i class="bar-${st}"></i>${st}</span>`).join('');
  return `<div class="coverage"><div class="legend">${legend}</div>${rows.join('')}</div>`;
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
  const table = `<table class="contract"><thead><tr><th>Field</th><th>Kind</th><th>Observed</th><th>First refusal</th></tr></thead><tbody>${rows}</tbody></table>`;
  return `${note}${collapsedWhenLong(table, refused.length, 'open points refused')}`;
}

/** Which documented rules were judged with which accepted open values (conformance.json openSpace); undefined when none was. */
function openSpace(report: ConformanceReport): string | undefined {
  const space = report.openSpace;
  if (!space?.rules.length) return undefined;
  const rows = space.rules
    .map((r) => {
      const values = r.values.map((v) => `${v.field.split('.').at(-1)} ${v.value}`).join(', ');
      return `<tr><td class="mono">${e(r.rule)}</td><td class="num">${r.cases}</td><td class="num">${r.refused}</td><td class="bidi">${e(values)}</td></tr>`;
    })
    .join('');
  const note = `<p class="muted">Each rule judged again with open values the target accepted alone, pairwise, at most ${space.perRule} cases a rule; a refused combination is the target's limit, not a failure.</p>`;
  const table = `<table><thead><tr><th>Rule</th><th class="num">Cases</th><th class="num">Refused</th><th>Open values</th></tr></thead><tbody>${rows}</tbody></table>`;
  // Collapsed however few its rows: each lists a rule's open values over several lines, and the page of a failing run stays a few screens long.
  const rules = space.rules.length;
  return `${note}<details class="long-table" data-rows="${rules}"><summary>${rules} ${rules === 1 ? 'rule' : 'rules'} judged with open values (show the table)</summary>${table}</details>`;
}

function undocumented(report: ConformanceReport): string {
  if (!report.undocumentedFields.length) return '<p class="empty">None seen.</p>';
  const rows = report.undocumentedFields
    .map((u) => `<tr><td class="mono bidi">${e(u.path)}</td><td>${e(u.operation)}</td><td class="num">${u.count}</td></tr>`)
    .join('');
  const table = `<table><thead><tr><th>Path</th><th>Operation</th><th class="num">Seen</th></tr></thead><tbody>${rows}</tbody></table>`;
  const count = report.undocumentedFields.length;
  return `<p class="muted">Response fields the document does not list. They are tolerated, not failures.</p>${collapsedWhenLong(table, count, 'undocumented fields')}`;
}

/** A section of the page: its anchor, its heading, and what the table of contents says of it. */
interface PageSection {
  id: string;
  title: string;
  /** `(20)` after the title in the contents: how many things it lists. */
  count?: number;
  body: string;
}

/** The page's sections in order; a section with nothing to say (no inconclusive rule) is left out. */
function pageSections(report: ConformanceReport): PageSection[] {
  const n = (test: (r: ReportRule) => boolean) => report.rules.filter(test).length;
  const inconclusive = inconclusiveSection(report);
  const chart = answersChart(report);
  const space = openSpace(report);
  return [
    {
      id: 'failures',
      title: 'Failures',
      count: n((r) => r.status === 'failed' || r.status === 'error'),
      body: reproduceSetupHtml(report) + failuresSection(report),
    },
    ...(inconclusive ? [{ id: 'inconclusive', title: 'Inconclusive', count: n((r) => r.status === 'inconclusive'), body: inconclusive }] : []),
    { id: 'rules', title: 'Rules', count: report.rules.length, body: rulesSection(report) },
    { id: 'observed-contract', title: 'Observed contract (open points)', body: observedContract(report) },
    ...(space ? [{ id: 'open-space', title: 'Rules over the open space', count: report.openSpace!.rules.length, body: space }] : []),
    { id: 'coverage', title: 'Coverage of the document', body: coverage(report) },
    ...(chart ? [{ id: 'answers', title: 'Answers per operation', body: chart }] : []),
    { id: 'undocumented', title: 'Undocumented fields', count: report.undocumentedFields.length, body: undocumented(report) },
    {
      id: 'run',
      title: 'Run',
      body: `${facts(report)}
<p class="muted">Re-run the same cases: <code>${e(rerunCommand(report))}</code>${report.strict ? '' : '. Convention rules fail the run only with <code>--strict</code>.'}</p>`,
    },
  ];
}

/** The table of contents: a link per section (fragment links only: the page loads nothing). */
function contents(sections: PageSection[]): string {
  const links = [
    '<li><a href="#verdict">Verdict</a></li>',
    ...sections.map((s) => `<li><a href="#${s.id}">${e(s.title)}</a>${s.count !== undefined ? ` <span class="muted">(${s.count})</span>` : ''}</li>`),
  ];
  return `<nav class="contents" id="contents" aria-label="Contents"><ol>${links.join('')}</ol></nav>`;
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
  const none = shardNoVerdict(report);
  const title = none
    ? `No verdict: ${shardName(report.shard!)} judged one share of the cases`
    : inconclusiveForAnswers(report)
      ? 'Inconclusive: too many requests got no usable answer'
      : VERDICT_TITLE[s.verdict];
  const count = (n: number, what: string, status: RuleStatus) => `<div class="count"><strong class="badge s-${status}">${n}</strong>${what}</div>`;
  const sections = pageSections(report);
  // Why the verdict is what it is comes first, under the title: an aborted run's reason is the news.
  const said = [
    reason ? `<p class="stopped bidi" id="reason" role="alert"><strong>Reason:</strong> ${e(reason)}</p>` : '',
    stopped ? `<p class="stopped bidi" id="stopped" role="alert"><strong>Stopped:</strong> ${e(stopped)}</p>` : '',
  ].join('');
  return `${htmlHead(`${title}: conformance of ${report.target.baseUrl}`, csp, HTML_STYLE)}
<body>
${leftChangedHtml(report)}<header class="banner verdict-${s.verdict}" id="verdict" data-verdict="${s.verdict}">
<div class="inner"><div class="kicker">Conformance report · Fiat Account Update and Identity Creation API</div>
<h1>${e(title)}</h1>${said}
<div class="lead bidi">${e(report.target.baseUrl)} · ${e(lead)}</div></div>
</header>
<main>
<div class="counts">${count(s.passed, 'passed', 'passed')}${count(s.failed, 'failed', 'failed')}${inconclusiveCount ? count(inconclusiveCount, 'inconclusive', 'inconclusive') : ''}${count(s.skipped, 'skipped', 'skipped')}${s.errors ? count(s.errors, 'errors', 'error') : ''}</div>
${contents(sections)}
${sections.map((section) => `<h2 id="${section.id}">${e(section.title)}</h2>\n${section.body}`).join('\n')}
<footer>Generated by ${e(report.tool.name)} ${e(report.tool.version)} · schemas ${e(report.schemasHash)}</footer>
</main>
<script>${HTML_SCRIPT}</script>
</body>
</html>
`;
}
