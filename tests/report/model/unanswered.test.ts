/**
 * Too many requests without a usable answer: a run that would be conformant is inconclusive
 * (exit 4) with one reason line that every renderer shows; failed rules still make it
 * non-conformant; a stopped run keeps its own message.
 */
import { describe, expect, it } from 'vitest';
import { RULES } from '../../../src/core/catalogue.ts';
import { buildReport, toReportRule, type RunFacts } from '../../../src/report/model/report-builder.ts';
import { exitCodeOf, type ConformanceReport } from '../../../src/report/model/model.ts';
import { UNANSWERED_LIMIT, unansweredReason } from '../../../src/report/model/unanswered.ts';
import { closingLine, createConsoleReporter } from '../../../src/report/terminal/console.ts';
import { renderMarkdownSummary } from '../../../src/report/files/markdown-summary.ts';
import { renderHtmlReport } from '../../../src/report/files/html-report.ts';
import { renderJunit } from '../../../src/report/files/junit.ts';
import { registry } from '../../../src/schema/registry.ts';
import type { AnswerCounts } from '../../../src/engine/answer-tally.ts';

const facts: RunFacts = {
  baseUrl: 'http://127.0.0.1:4010',
  embedded: false,
  fiatAccountIds: ['8d3b1c2e-7f4a-4e0b-9c51-2a6f0d9e1b37'],
  seed: 7,
  profile: 'quick',
  runs: 10,
  strict: false,
};
const judgedEnough = { fixed: 5, random: 10, distinctInputs: 15, minimum: { fixed: 1, random: 1 } };
const passedRules = (strict = false) =>
  RULES.map((rule) => toReportRule({ rule, cases: 15, findings: [], crashed: false, coverage: judgedEnough }, { seed: 7, strict }));
const counts = (exchanges: number, timeout: number, connection: number, other: number): AnswerCounts => ({
  exchanges,
  unanswered: timeout + connection + other,
  byKind: { timeout, connection, other },
});
const report = (transport: AnswerCounts | undefined, rules = passedRules(), extra: object = {}): ConformanceReport =>
  buildReport(facts, rules, {
    startedAt: '2026-01-01T00:00:00Z',
    durationMs: 1000,
    requests: transport?.exchanges ?? 100,
    undocumentedFields: [],
    ...(transport ? { transport } : {}),
    ...extra,
  });
const schemaErrors = (r: ConformanceReport) => registry().validate('conformance-report', r);

describe('the unanswered share', () => {
  it('allows at most 5% of the requests without a usable answer', () => {
    expect(UNANSWERED_LIMIT).toBe(0.05);
    expect(unansweredReason(counts(100, 5, 0, 0))).toBeUndefined();
    expect(unansweredReason(counts(100, 0, 0, 0))).toBeUndefined();
    expect(unansweredReason(counts(0, 0, 0, 0))).toBeUndefined();
    expect(unansweredReason(counts(100, 3, 2, 1))).toBe(
      '6 of 100 requests (6%) got no usable HTTP answer (3 timed out, 2 dropped or reset, 1 broke HTTP framing or failed otherwise): above 5% a run cannot be conformant',
    );
    expect(unansweredReason(counts(98, 0, 15, 0))).toBe(
      '15 of 98 requests (15.3%) got no usable HTTP answer (15 dropped or reset): above 5% a run cannot be conformant',
    );
  });
});

describe('the verdict', () => {
  it('stays conformant within the limit, and says how the target answered', () => {
    const r = report(counts(200, 4, 4, 2));
    expect(r.summary.verdict).toBe('conformant');
    expect(r.summary.unanswered).toBe(10);
    expect(r.summary.reason).toBeUndefined();
    expect(r.transport).toEqual({ exchanges: 200, unanswered: 10, byKind: { timeout: 4, connection: 4, other: 2 }, limit: 0.05 });
    expect(exitCodeOf(r)).toBe(0);
    expect(schemaErrors(r)).toEqual([]);
  });

  it('turns a would-be conformant run inconclusive (exit 4) past the limit, with the reason', () => {
    const r = report(counts(100, 0, 10, 5));
    expect(r.summary.verdict).toBe('inconclusive');
    expect(r.summary.reason).toMatch(/^15 of 100 requests \(15%\) got no usable HTTP answer/);
    expect(exitCodeOf(r)).toBe(4);
    expect(schemaErrors(r)).toEqual([]);
  });

  it('leaves a run with a failed documented rule non-conformant (exit 1), the reason said as well', () => {
    const rules = passedRules();
    const at = rules.findIndex((x) => x.id === 'fa.status.enum');
    const failure = {
      message: 'x',
      case: { operation: 'updateFiatAccount' as const, label: 'x', mode: 'valid' },
      request: { method: 'PUT', url: 'http://127.0.0.1:4010/v2/x', headers: {} },
      curl: 'curl',
      seed: 7,
    };
    rules[at] = { ...rules[at], status: 'failed', blocking: true, failures: [failure] };
    const r = report(counts(100, 20, 0, 0), rules);
    expect(r.summary.verdict).toBe('non-conformant');
    expect(r.summary.reason).toBeDefined();
    expect(exitCodeOf(r)).toBe(1);
  });

  it('keeps --strict: a failed .answers convention is non-conformant there, whatever the share', () => {
    const rules = passedRules(true).map((x) => (x.id === 'fa.answers' ? { ...x, status: 'failed' as const, blocking: true } : x));
    expect(report(counts(100, 1, 0, 0), rules).summary.verdict).toBe('non-conformant');
    expect(report(counts(100, 50, 0, 0), rules).summary.verdict).toBe('non-conformant');
  });

  it('leaves a stopped run to its stop: verdict error, exit 3, no reason', () => {
    const stopped = { kind: 'unreachable' as const, message: 'the target stopped answering', requests: 100 };
    const r = report(counts(100, 50, 0, 0), passedRules(), { stopped });
    expect(r.summary.verdict).toBe('error');
    expect(r.summary.reason).toBeUndefined();
    expect(exitCodeOf(r)).toBe(3);
  });

  it('is unchanged for a run without transport figures (an older caller)', () => {
    const r = report(undefined);
    expect(r.summary.verdict).toBe('conformant');
    expect(r.transport).toBeUndefined();
    expect(r.summary.unanswered).toBeUndefined();
  });
});

describe('every renderer shows the reason', () => {
  const r = report(counts(100, 0, 10, 5));
  const reason = r.summary.reason!;

  it('console: a reason line before the seed, and `N passed, N failed` stays last', async () => {
    const lines: string[] = [];
    // Built apart, so the event fits with or without the exchanges it carried before HAR streaming.
    const end = { type: 'run-end' as const, report: r, exchanges: [] };
    await createConsoleReporter({ out: (l) => lines.push(l), isTTY: false })(end);
    expect(lines).toContain(`reason: ${reason}`);
    expect(lines.findIndex((l) => l.startsWith('reason: '))).toBeGreaterThan(lines.findIndex((l) => l.startsWith('verdict: inconclusive')));
    expect(lines.at(-1)).toBe(closingLine(r.rules));
  });

  it('summary.md: an inconclusive headline about answers, and the reason', () => {
    const md = renderMarkdownSummary(r);
    expect(md).toContain('❔ **Inconclusive**: nothing failed, but too many requests got no usable HTTP answer');
    expect(md).toContain(`⚠️ **Reason**: ${reason}`);
    expect(md).toContain('100 requests (15 without a usable answer)');
  });

  it('report.html: the banner says why', () => {
    const html = renderHtmlReport(r);
    expect(html).toContain('<h1>Inconclusive: too many requests got no usable answer</h1>');
    expect(html).toContain(`<p class="stopped bidi" id="reason" role="alert"><strong>Reason:</strong> ${reason}</p>`);
  });

  it('junit.xml: a reason property on every suite', () => {
    const xml = renderJunit(r);
    expect(xml.match(/<property name="reason" value="15 of 100 requests \(15%\) got no usable HTTP answer[^"]*"\/>/g)).toHaveLength(2);
  });
});
