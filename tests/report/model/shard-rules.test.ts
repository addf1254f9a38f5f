/** A shard's report claims no verdict: one share of the cases does not say whether the API conforms. */
import { describe, expect, it } from 'vitest';
import { shardNoVerdict } from '../../../src/report/model/shard-rules.ts';
import { verdictLine } from '../../../src/report/terminal/console.ts';
import { renderMarkdownSummary } from '../../../src/report/files/markdown-summary.ts';
import { renderHtmlReport } from '../../../src/report/files/html-report.ts';
import type { ConformanceReport } from '../../../src/report/model/model.ts';
import { sampleReport } from '../sample-report.ts';

function shardReport(verdict: ConformanceReport['summary']['verdict']): ConformanceReport {
  const report = sampleReport();
  report.shard = { index: 2, count: 3 };
  report.summary = { ...report.summary, verdict };
  return report;
}

describe('a shard', () => {
  it('prints no verdict where it saw nothing fail, in the console, summary.md and report.html', () => {
    for (const verdict of ['conformant', 'inconclusive'] as const) {
      const report = shardReport(verdict);
      expect(shardNoVerdict(report)).toContain('shard 2/3');
      const line = verdictLine(report);
      expect(line).toMatch(/^verdict: none from shard 2\/3 alone .*merge the shard reports/);
      expect(line).not.toMatch(/verdict: (conformant|inconclusive)/);
      expect(renderMarkdownSummary(report)).toContain('## Conformance: **No verdict**: none from shard 2/3 alone');
      expect(renderHtmlReport(report)).toContain('<h1>No verdict: shard 2/3 judged one share of the cases</h1>');
    }
  });

  it('keeps a failure (a failure in any share fails the API) and an unsharded run keeps its verdict', () => {
    expect(shardNoVerdict(shardReport('non-conformant'))).toBeUndefined();
    expect(verdictLine(shardReport('non-conformant'))).toMatch(/^verdict: non-conformant/);
    const whole = { ...sampleReport(), summary: { ...sampleReport().summary, verdict: 'conformant' as const } };
    expect(verdictLine(whole)).toMatch(/^verdict: conformant/);
  });
});
