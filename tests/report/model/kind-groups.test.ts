/**
 * A rule's failures grouped by kind and field (src/report/model/kind-groups.ts): the console line
 * and the summary.md cell of a failed rule name the groups of its other failures, report.html
 * puts its findings under a heading per group; one group, or an older report without kinds,
 * reads as before.
 */
import { describe, expect, it } from 'vitest';
import { kindGroups, moreFailuresText } from '../../../src/report/model/kind-groups.ts';
import type { ConformanceReport, ReportFailure } from '../../../src/report/model/model.ts';
import { ruleLine } from '../../../src/report/terminal/console.ts';
import { renderMarkdownSummary } from '../../../src/report/files/markdown-summary.ts';
import { renderHtmlReport } from '../../../src/report/files/html-report.ts';
import { registry } from '../../../src/schema/registry.ts';
import { sampleReport } from '../sample-report.ts';

const RULE = 'fa.metadata.over-pairs-rejected';
const schemaErrors = (report: unknown) => registry().validate('conformance-report', report);

/** The sample's failure of RULE made into another one: its message, kind and params. */
function failure(message: string, data: Pick<ReportFailure, 'kind' | 'params'>): ReportFailure {
  const base = sampleReport().rules.find((r) => r.id === RULE)!.failures[0];
  return { ...base, message, ...data } as ReportFailure;
}

const atStatus = (n: number) => failure(`/status is "pending${n}"`, { kind: 'schema', params: { field: '/status', keyword: 'enum', keywordParams: {} } });
const accepted = failure('7 pairs accepted (200)', { kind: 'status', params: { expected: '4xx', received: 200 } });
const atId = failure('id is ""', { kind: 'format', params: { field: '/id', format: 'non-empty', received: '' } });
const atType = failure('type is "X"', { kind: 'mismatch', params: { field: '/type', expected: 'PERSON', received: 'X' } });

/** The sample report with RULE's failures replaced. */
function reportWith(failures: ReportFailure[]): ConformanceReport {
  const report = sampleReport();
  report.rules.find((r) => r.id === RULE)!.failures = failures;
  return report;
}

describe('kindGroups', () => {
  it('groups by kind and field, in the order each group is first seen', () => {
    const groups = kindGroups([atStatus(1), accepted, atStatus(2), atStatus(3)]);
    expect(groups.map((g) => [g.label, g.failures.length])).toEqual([
      ['schema at /status', 3],
      ['status', 1],
    ]);
  });

  it('makes no groups of an older report, whose failures have no kind', () => {
    const { kind: _k, params: _p, ...unkinded } = accepted;
    expect(kindGroups([accepted, unkinded as ReportFailure])).toEqual([]);
    expect(moreFailuresText([accepted, unkinded as ReportFailure, unkinded as ReportFailure])).toBe(' (+2 more)');
  });

  it("says the other failures: nothing for one, a count when all are of one group, else the others' groups (three named at most)", () => {
    expect(moreFailuresText([accepted])).toBe('');
    expect(moreFailuresText([atStatus(1), atStatus(2)])).toBe(' (+1 more)');
    expect(moreFailuresText([atStatus(1), accepted, atStatus(2), atStatus(3)])).toBe(' (+3 more: status, schema at /status ×2)');
    expect(moreFailuresText([accepted, atStatus(1)])).toBe(' (+1 more: schema at /status)');
    expect(moreFailuresText([atStatus(1), accepted, atId, atType, atStatus(2)])).toBe(' (+4 more: status, format at /id, mismatch at /type, …)');
  });

  it('keeps a field the target chose on one line, cut', () => {
    const hostile = failure('pair', { kind: 'schema', params: { field: `/metadata/a\u001b[31m\n${'k'.repeat(500)}`, keyword: 'type', keywordParams: {} } });
    const [label] = kindGroups([hostile]).map((g) => g.label);
    expect(label).not.toMatch(/[\u0000-\u001f]/);
    expect(label.length).toBeLessThan(100);
  });
});

describe('the reports group a failed rule by kind', () => {
  const failures = [atStatus(1), accepted, atStatus(2)];

  it('the console line of the rule names the groups of its other failures', () => {
    const rule = reportWith(failures).rules.find((r) => r.id === RULE)!;
    expect(ruleLine(rule)).toMatch(/ \(\+2 more: status, schema at \/status\)$/);
    expect(ruleLine({ ...rule, failures: [atStatus(1), atStatus(2)] })).toMatch(/ \(\+1 more\)$/);
  });

  it("summary.md's first-failure cell does too", () => {
    const md = renderMarkdownSummary(reportWith(failures));
    const row = md.split('\n').find((line) => line.startsWith(`| \`${RULE}\``))!;
    expect(row).toMatch(/ \(\+2 more: status, schema at \/status\) \|$/);
    expect(renderMarkdownSummary(sampleReport())).not.toContain('more:');
  });

  it('report.html puts the findings under a heading per kind and field, and marks each with its kind', () => {
    const html = renderHtmlReport(reportWith(failures));
    const entry = html.slice(html.indexOf(`data-rule="${RULE}"`));
    const next = entry.indexOf('<details class="failure-rule"', 1);
    const headings = [...entry.slice(0, next === -1 ? undefined : next).matchAll(/<h3 class="kind-group mono">([^<]*)<\/h3>/g)].map((m) => m[1]);
    expect(headings).toEqual(['schema at /status · 2 cases', 'status · 1 case']);
    expect(entry).toContain('data-kind="schema"');
    expect(renderHtmlReport(sampleReport())).not.toContain('class="kind-group');
  });

  it('the report with them is valid conformance.json', () => {
    expect(schemaErrors(reportWith([atStatus(1), accepted, atId, atType]))).toEqual([]);
  });
});
