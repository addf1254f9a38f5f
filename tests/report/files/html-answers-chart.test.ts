/** report.html's chart of status codes and latency per operation: inline SVG, nothing fetched. */
import { describe, expect, it } from 'vitest';
import { answersChart } from '../../../src/report/files/html-answers-chart.ts';
import { renderHtmlReport } from '../../../src/report/files/html-report.ts';
import { runEmbedded } from '../../../src/run/embedded-run.ts';
import { registry } from '../../../src/schema/registry.ts';
import { sampleReport } from '../sample-report.ts';

describe('the answers chart', () => {
  it('draws per operation its answers by status class and its latency on one scale', () => {
    const chart = answersChart({
      operations: [
        { operation: 'createIdentity', requests: 10, statuses: { '201': 6, '400': 3, none: 1 }, latencyMs: { median: 5, p95: 20, max: 40 } },
        { operation: 'updateFiatAccount', requests: 4, statuses: { '200': 4 }, latencyMs: { median: 2, p95: 3, max: 4 } },
      ],
    })!;
    expect(chart).toContain('<rect class="answer-2xx" x="0.000" y="0" width="60.000"');
    expect(chart).toContain('<title>3 4xx: 400 ×3</title>');
    expect(chart).toContain('<title>1 without a usable answer: none ×1</title>');
    // One scale: the slowest answer of the run spans the whole bar, the other operation's a tenth of it.
    expect(chart).toContain('<rect class="latency-max" x="0" y="3" width="100.000"');
    expect(chart).toContain('<rect class="latency-max" x="0" y="3" width="10.000"');
    expect(chart).not.toMatch(/\s(?:src|href)=/);
    expect(answersChart({})).toBeUndefined();
  });

  it('comes from the run: conformance.json counts every operation\u2019s answers, valid against its schema, and report.html shows them', async () => {
    const { report } = await runEmbedded({ runs: 3, seed: 1, ruleFilter: ['id.valid', 'fa.valid'] });
    const operations = report.operations ?? [];
    expect(operations.map((o) => o.operation).sort()).toEqual(['createIdentity', 'updateFiatAccount']);
    for (const o of operations) expect(Object.values(o.statuses).reduce((a, b) => a + b, 0)).toBe(o.requests);
    expect(registry().validate('conformance-report', report)).toEqual([]);
    expect(renderHtmlReport(report)).toContain('id="answers"');
    expect(renderHtmlReport(sampleReport())).not.toContain('id="answers"');
  });
});
