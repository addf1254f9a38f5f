/**
 * A reason several rules share is said once: a server that answers every update with 500 leaves
 * a dozen rules inconclusive for one cause (the refused valid updates, with the target's words),
 * and the console, summary.md and report.html list that cause once, as `N rules: <reason>`, each
 * rule still listed with its figures and its own causes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { runEmbedded } from '../../../src/run/embedded-run.ts';
import type { ConformanceReport } from '../../../src/report/model/model.ts';
import { endLines } from '../../../src/report/terminal/console.ts';
import { renderMarkdownSummary } from '../../../src/report/files/markdown-summary.ts';
import { renderHtmlReport } from '../../../src/report/files/html-report.ts';
import { groupShortfalls } from '../../../src/report/model/reason-groups.ts';
import { splitShortfall } from '../../../src/engine/coverage.ts';

const count = (text: string, part: string) => text.split(part).length - 1;

describe('a reason shared by many rules', () => {
  let report: ConformanceReport;
  let inconclusive: ConformanceReport['rules'];
  /** The words of the cause the rules share: the target's answer to the first refused update. */
  let cause: string;

  beforeAll(async () => {
    ({ report } = await runEmbedded({ fault: 'fa-500-always', runs: 3, seed: 1, ruleFilter: ['fa.'] }));
    inconclusive = report.rules.filter((r) => r.status === 'inconclusive');
    cause = /first: (.*?got HTTP 500: "internal")/.exec(inconclusive[0].reason ?? '')?.[1] ?? '';
  });

  it('the run leaves many rules inconclusive for the same cause', () => {
    expect(inconclusive.length).toBeGreaterThanOrEqual(8);
    expect(cause).not.toBe('');
    expect(inconclusive.every((r) => r.reason?.includes(cause))).toBe(true);
  });

  it('groups them by the cause alone: the figures and the causes of each rule stay with it', () => {
    const groups = groupShortfalls(inconclusive, '');
    expect(groups).toHaveLength(1);
    expect(groups[0].rules.map(({ rule }) => rule.id)).toEqual(inconclusive.map((r) => r.id));
    expect(groups[0].reason).not.toMatch(/^judged by/);
    for (const { rule, own } of groups[0].rules) expect(own).toEqual(splitShortfall(rule.reason!).own);
    expect(groups[0].rules.some(({ own }) => own.some((o) => /refused together with their valid twin/.test(o)))).toBe(true);
  });

  it('the console says the cause once, under the rules, as "N rules: …"', () => {
    const text = endLines(report).join('\n');
    expect(count(text, cause)).toBe(1);
    expect(text).toContain(`      ${inconclusive.length} rules: `);
    for (const r of inconclusive) expect(count(text, `? ${r.id}  inconclusive`)).toBe(1);
  });

  it('summary.md says the cause once, the rules listed under it with their figures', () => {
    const md = renderMarkdownSummary(report);
    expect(count(md, cause)).toBe(1);
    expect(md).toContain(`- **${inconclusive.length} rules: `);
    for (const r of inconclusive) expect(md).toMatch(new RegExp(`  - \`${r.id.replace(/\./g, '\\.')}\` §[\\d.]+ \\w+ \\(\\d+ fixed \\+ \\d+ random cases`));
  });

  it('report.html says the cause once in the inconclusive section and once in the rule table', () => {
    const html = renderHtmlReport(report);
    const escaped = cause.replace(/"/g, '&quot;');
    expect(count(html, escaped)).toBe(2);
    expect(html).toContain(`data-inconclusive-group="${inconclusive.length}"`);
  });
});
