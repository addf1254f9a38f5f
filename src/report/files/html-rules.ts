/**
 * The rules in report.html: the inconclusive rules with why, and the table of every rule. Both
 * say a reason several rules share once (reason-groups.ts): an aborted run skips every rule for
 * one reason, a target that refuses every create leaves fifteen rules short for the same words.
 * The table is collapsed by status (the failures and the inconclusive rules have their sections
 * above), so the page stays a few screens long.
 */
import type { ConformanceReport, ReportRule } from '../model/model.ts';
import { escapeHtml as e } from './escape.ts';
import { compareSections, sectionWithTitle } from '../model/sections.ts';
import { coverageFigures } from '../model/rule-text.ts';
import { groupByReason, groupShortfalls, reasonGroupText, type ReasonGroup } from '../model/reason-groups.ts';
import { badge } from './html-failures.ts';

const SHORTFALL_FALLBACK = 'judged by fewer cases than the profile asks';

const bySection = (a: ReportRule, b: ReportRule) => compareSections(a.section, b.section) || a.id.localeCompare(b.id);

/** A row of the table; `reason`: what the row says under the title (none when a group row above says it). */
function ruleRow(r: ReportRule, reason: string | undefined): string {
  return `<tr data-rule="${e(r.id)}" data-status="${r.status}"><td class="mono">${e(r.id)}</td><td>${e(r.title)}${reason ? `<div class="muted reason">${e(reason)}</div>` : ''}</td><td class="where">${e(sectionWithTitle(r.section))} <span class="basis">${e(r.basis)}</span></td><td class="status">${badge(r.status)}</td><td class="num">${r.cases}${r.coverage ? `<div class="muted figures">${e(coverageFigures(r.coverage))}</div>` : ''}</td></tr>`;
}

/** The rows of a group: a shared reason once in a row of its own above its rules, a reason of one rule in its row. */
function groupRows(group: ReasonGroup): string {
  if (group.rules.length === 1) return ruleRow(group.rules[0].rule, group.reason);
  const head = `<tr class="reason-group"><td colspan="5" class="bidi">${e(reasonGroupText(group))}</td></tr>`;
  return head + group.rules.map(({ rule, own }) => ruleRow(rule, own.length ? own.join('; ') : undefined)).join('');
}

const table = (rows: string) =>
  `<table class="rules"><thead><tr><th>Rule</th><th>Title</th><th>Section, basis</th><th>Status</th><th class="num">Cases</th></tr></thead><tbody>${rows}</tbody></table>`;

/** A collapsed table of rules under a one-line summary. */
const collapsed = (summary: string, rows: string, attributes: string) =>
  `<details class="collapsed-rules" ${attributes}><summary>${summary}</summary>${table(rows)}</details>`;

const rulesWord = (n: number) => `${n} ${n === 1 ? 'rule' : 'rules'}`;

/**
 * The rule table, by status, each status a collapsed table under a line that counts it: the
 * failures and the inconclusive rules have sections of their own above, so the table is the index
 * of every rule, not a second copy of them. Skipped rules by reason (an aborted run: one line).
 */
export function rulesSection(report: ConformanceReport): string {
  const rules = [...report.rules].sort(bySection);
  const failing = rules.filter((r) => r.status === 'failed' || r.status === 'error');
  const inconclusive = rules.filter((r) => r.status === 'inconclusive');
  const passed = rules.filter((r) => r.status === 'passed');
  const parts: string[] = [];
  if (failing.length) {
    // A crashed rule's reason says to look at the failures; a failed rule's evidence is above.
    const rows = failing.map((r) => ruleRow(r, r.status === 'error' ? r.reason : undefined)).join('');
    parts.push(collapsed(`${rulesWord(failing.length)} failed or crashed <span class="muted">(findings under Failures)</span>`, rows, 'data-status="failed"'));
  }
  if (inconclusive.length) {
    const rows = groupShortfalls(inconclusive, SHORTFALL_FALLBACK).map(groupRows).join('');
    parts.push(collapsed(`${rulesWord(inconclusive.length)} inconclusive`, rows, 'data-status="inconclusive"'));
  }
  for (const group of groupByReason(
    rules.filter((r) => r.status === 'skipped'),
    'not judged',
  )) {
    const rows = group.rules.map(({ rule }) => ruleRow(rule, undefined)).join('');
    parts.push(collapsed(`${rulesWord(group.rules.length)} skipped: <span class="bidi">${e(group.reason)}</span>`, rows, 'data-status="skipped"'));
  }
  if (passed.length) parts.push(collapsed(`${rulesWord(passed.length)} passed`, passed.map((r) => ruleRow(r, undefined)).join(''), 'data-status="passed"'));
  return parts.join('');
}

/** The inconclusive rules: one entry per shortfall cause, its rules with their figures. */
export function inconclusiveSection(report: ConformanceReport): string {
  const groups = groupShortfalls(
    report.rules.filter((r) => r.status === 'inconclusive'),
    SHORTFALL_FALLBACK,
  );
  if (!groups.length) return '';
  const blocks = (r: ReportRule) => (r.blocking ? ' · blocks the verdict' : ' · does not block the verdict');
  const figures = (r: ReportRule) =>
    r.coverage
      ? `<span class="figures muted">${e(coverageFigures(r.coverage))} · ${r.coverage.distinctInputs} distinct inputs</span>`
      : `<span class="figures muted">${r.cases} cases</span>`;
  const items = groups.map((group) => {
    if (group.rules.length === 1) {
      const [{ rule: r }] = group.rules;
      return (
        `<article class="failure-rule" data-inconclusive="${e(r.id)}"><header>${badge(r.status)}<h3 class="mono">${e(r.id)}</h3><span>${e(r.title)}</span><span class="basis">§${e(r.section)} · ${e(r.basis)}${blocks(r)}</span></header>` +
        `<div class="failure"><p class="reason bidi">${e(group.reason)}</p>${figures(r)}</div></article>`
      );
    }
    const members = group.rules
      .map(
        ({ rule: r, own }) =>
          `<li data-inconclusive="${e(r.id)}">${badge(r.status)} <span class="mono">${e(r.id)}</span> <span class="basis">§${e(r.section)} · ${e(r.basis)}${blocks(r)}</span>${figures(r)}${own.length ? `<p class="own muted bidi">${e(own.join('; '))}</p>` : ''}</li>`,
      )
      .join('');
    return `<article class="failure-rule" data-inconclusive-group="${group.rules.length}"><header><h3>${group.rules.length} rules</h3><span class="reason bidi">${e(group.reason)}</span></header><ul class="group-rules">${members}</ul></article>`;
  });
  return `<p class="muted">Judged by fewer cases than the profile asks: neither passed nor failed. The reason says what would fix it.</p>
${items.join('')}`;
}
