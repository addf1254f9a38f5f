/**
 * The failures section of report.html, short however much failed: each failing rule is one
 * collapsible entry (open when few rules failed), the failures of a rule with the same message
 * are one finding with its case count and the other cases listed collapsed, findings of several
 * kinds sit under a heading per kind and field (kind-groups.ts), and evidence longer
 * than a few lines (a request or response with its body, a curl command) sits in a `<details>`
 * whose summary still says what it is. `<details>` needs no script: the page works without one.
 */
import { reproduceSetup } from '../model/reproduce-setup.ts';
import type { ConformanceReport, ReportFailure, ReportRule, RuleStatus } from '../model/model.ts';
import type { RecordedRequest, RecordedResponse } from '../../core/exchange.ts';
import { escapeHtml as e } from './escape.ts';
import { failureWords } from '../model/target-words.ts';
import { caseModeText } from '../model/case-text.ts';
import { kindGroups } from '../model/kind-groups.ts';
import { failureCause } from '../model/simplest-first.ts';
import { sectionWithTitle } from '../model/sections.ts';

/** Findings (distinct messages) spelled out per rule; the rest are counted (conformance.json has them all). */
const FINDINGS_SHOWN = 10;
/** Other cases listed under a finding. */
const CASES_LISTED = 20;
/** Failing rules shown open; past this many, every rule starts collapsed so the page stays a few screens long. */
const OPEN_RULES_AT_MOST = 5;
/** Evidence longer than this many lines (as shown, long lines wrapped at WRAP_CHARS) is collapsed. */
const EVIDENCE_LINES = 6;
const WRAP_CHARS = 100;
/** Bodies longer than this are cut in the page. */
const BODY_LIMIT = 20_000;

export const badge = (status: RuleStatus) => `<span class="badge s-${status}">${status}</span>`;

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

/**
 * A piece of evidence: shown as it is when short, else collapsed under a summary that keeps its
 * first line (`PUT http://…`, `HTTP 500`, `curl -sS -X PUT …`) and says how long it is.
 */
function evidence(title: string, text: string, options: { attributes?: string; heading?: boolean } = {}): string {
  const { attributes = '', heading = true } = options;
  const lines = text.split('\n');
  // A long line wraps: what counts is the lines a reader sees.
  const shownLines = lines.reduce((n, line) => n + Math.max(1, Math.ceil(line.length / WRAP_CHARS)), 0);
  if (shownLines <= EVIDENCE_LINES) return `${heading ? `<h4>${e(title)}</h4>` : ''}<pre${attributes}>${e(text)}</pre>`;
  const size = lines.length > 1 ? `${lines.length} lines` : `${text.length} characters`;
  return `<details class="evidence"><summary><span class="what">${e(title)}</span> <span class="mono first-line">${e(lines[0].slice(0, 200))}</span> <span class="muted">(${size})</span></summary><pre${attributes}>${e(text)}</pre></details>`;
}

/** `metadata with 7 pairs · mode invalid, forbidden · violates …`: what a failing case was. */
function caseText(f: ReportFailure): string {
  const bits = [`${f.case.label}`, `mode ${caseModeText(f.case)}`];
  if (f.case.violates) bits.push(`violates ${f.case.violates}`);
  if (f.case.exercises) bits.push(`exercises ${f.case.exercises}`);
  if (f.case.auth) bits.push(`credentials ${f.case.auth}`);
  if (f.instancePath) bits.push(`at ${f.instancePath}`);
  if (f.path) bits.push(`replay path ${f.path}`);
  return bits.join(' · ');
}

/** What came back for a case, in a few words: `HTTP 500`, `no response: timeout`. */
const answerText = (f: ReportFailure): string => (f.response ? `HTTP ${f.response.status}` : f.error ? `no response: ${f.error.kind}` : 'no response recorded');

/**
 * Another case of a finding, with its own reason: what it was, what came back and the target's
 * words on it (two cases of one finding may be refused for different reasons).
 */
export function otherCaseText(f: ReportFailure, ruleId: string): string {
  const words = failureWords(f, ruleId);
  return `${caseText(f)} · ${answerText(f)}${words ? ` — target said: "${words}"` : ''}`;
}

/** One finding: the message, what the target said, the first case with its evidence, the other cases collapsed. */
function findingBlock(cases: ReportFailure[], id: string, ruleId: string): string {
  const [f, ...others] = cases;
  const response = f.response
    ? evidence('Response', responseText(f.response))
    : `<h4>Response</h4><pre>${e(f.error ? `no response: ${f.error.kind}\n${f.error.message}` : 'no response recorded')}</pre>`;
  const words = failureWords(f, ruleId);
  const said = words ? `<p class="said bidi">Target said: <q>${e(words)}</q></p>` : '';
  const count = cases.length > 1 ? `<p class="case-count muted">${cases.length} cases with this finding; the first one:</p>` : '';
  const listed = others.slice(0, CASES_LISTED).map((o) => `<li class="bidi">${e(otherCaseText(o, ruleId))}</li>`);
  if (others.length > CASES_LISTED) listed.push(`<li class="muted">… and ${others.length - CASES_LISTED} more in conformance.json</li>`);
  const more = others.length
    ? `<details class="more-cases"><summary>${others.length} more ${others.length === 1 ? 'case' : 'cases'} with this finding</summary><ul>${listed.join('')}</ul></details>`
    : '';
  const kind = f.kind ? ` data-kind="${e(f.kind)}"` : '';
  return `<div class="failure" data-failure data-cases="${cases.length}"${kind}>
<p class="message bidi">${e(cases.length > 1 ? findingOf(f) : f.message)}</p>${said}${count}
<div class="case bidi">${e(caseText(f))}</div>
<div class="exchange"><div class="pane">${evidence('Request', requestText(f.request))}</div><div class="pane">${response}</div></div>
<div class="curl"><div class="pane">${evidence('curl', f.curl, { attributes: ` id="${id}" class="mono"`, heading: false })}</div><button type="button" class="copy" data-copy="${id}" aria-label="Copy the curl command">Copy</button></div>${more}
</div>`;
}

/** A message without the case's label it may open with (`<label>: <finding>`): the case line says which case it was. */
const findingOf = failureCause;

/** Failures by finding, in order of first sight: the same finding on many cases is one entry. */
function findings(failures: readonly ReportFailure[]): ReportFailure[][] {
  const byFinding = new Map<string, ReportFailure[]>();
  for (const f of failures) {
    const key = findingOf(f);
    const same = byFinding.get(key);
    if (same) same.push(f);
    else byFinding.set(key, [f]);
  }
  return [...byFinding.values()];
}

/** A rule's findings, under a heading per kind and field when its failures are of several kinds or fields. */
function findingSections(rule: ReportRule): { heading?: string; findings: ReportFailure[][] }[] {
  const groups = kindGroups(rule.failures);
  if (groups.length <= 1) return [{ findings: findings(rule.failures) }];
  return groups.map((g) => ({ heading: `${g.label} · ${g.failures.length} ${g.failures.length === 1 ? 'case' : 'cases'}`, findings: findings(g.failures) }));
}

/** The findings of a rule as shown: at most FINDINGS_SHOWN, each group's heading before its first one shown. */
function shownFindings(rule: ReportRule, nextId: () => string): { html: string[]; count: number } {
  const html: string[] = [];
  let count = 0;
  for (const section of findingSections(rule)) {
    for (const [i, cases] of section.findings.entries()) {
      if (++count > FINDINGS_SHOWN) continue;
      if (i === 0 && section.heading) html.push(`<h3 class="kind-group mono">${e(section.heading)}</h3>`);
      html.push(findingBlock(cases, nextId(), rule.id));
    }
  }
  if (count > FINDINGS_SHOWN) html.push(`<div class="failure muted">… and ${count - FINDINGS_SHOWN} more findings in conformance.json</div>`);
  return { html, count };
}

/** `3 cases`, or `5 of 58 failing cases kept` when the run kept only some (MAX_FAILURES_PER_RULE): never the cap as if it were the count. */
export function keptCases(r: Pick<ReportRule, 'failures' | 'failedCases'>): string {
  const kept = r.failures.length;
  const failed = Math.max(r.failedCases ?? kept, kept);
  return failed > kept ? `${kept} of ${failed} failing cases kept` : `${kept} ${kept === 1 ? 'case' : 'cases'}`;
}

/** The failures section's body: one collapsible entry per failing rule. */
export function failuresSection(report: ConformanceReport): string {
  // Blocking failures first: a convention one (fatal only with --strict) waits below them.
  const failing = report.rules.filter((r) => r.status === 'failed' || r.status === 'error').sort((a, b) => Number(b.blocking) - Number(a.blocking));
  if (!failing.length) return '<p class="empty">No rule failed.</p>';
  const open = failing.length <= OPEN_RULES_AT_MOST ? ' open' : '';
  let n = 0;
  return failing
    .map((r: ReportRule) => {
      const { html: shown, count } = shownFindings(r, () => `curl-${++n}`);
      if (!r.failures.length) shown.push(`<div class="failure muted">${e(r.reason ?? 'no failure recorded')}</div>`);
      const tally = r.failures.length ? `${keptCases(r)}${count > 1 ? `, ${count} findings` : ''}` : '';
      // The headline names the cause; the random case that carried it is named under it.
      const first = r.failures[0] ? failureCause(r.failures[0]) : undefined;
      return (
        // One line closed: the rule and its first finding; its title opens with the evidence.
        `<details class="failure-rule" data-rule="${e(r.id)}"${open}><summary>${badge(r.status)}<strong class="mono rule-id">${e(r.id)}</strong><span class="basis">${e(sectionWithTitle(r.section))} · ${e(r.basis)}${tally ? ` · ${e(tally)}` : ''}</span>` +
        `${first ? `<span class="first-message bidi">${e(first)}</span>` : ''}</summary><p class="rule-title">${e(r.title)}</p>${shown.join('')}</details>`
      );
    })
    .join('');
}

/** What the failures' curl lines need first (the token, or a fresh embedded server): once, above them; nothing when no rule failed. */
export function reproduceSetupHtml(report: ConformanceReport): string {
  const setup = report.rules.some((r) => r.failures.length) ? reproduceSetup(report) : undefined;
  if (!setup) return '';
  return `<div class="reproduce-setup"><p>${e(setup.say)}</p>${setup.commands.map((c) => `<pre class="mono">${e(c)}</pre>`).join('')}</div>`;
}
