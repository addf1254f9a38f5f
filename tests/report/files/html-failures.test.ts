/** The failures section of report.html: counts that say what the run saw, not the cap on what it kept. */
import { describe, expect, it } from 'vitest';
import { failuresSection, keptCases, otherCaseText } from '../../../src/report/files/html-failures.ts';
import { sampleReport } from '../sample-report.ts';

describe('the failures section', () => {
  it('says "N of M failing cases kept" when the run kept fewer than it saw, the plain count otherwise', () => {
    const failure = sampleReport().rules.find((r) => r.failures.length)!.failures[0];
    const five = Array.from({ length: 5 }, () => structuredClone(failure));
    expect(keptCases({ failures: five, failedCases: 58 })).toBe('5 of 58 failing cases kept');
    expect(keptCases({ failures: five, failedCases: 5 })).toBe('5 cases');
    expect(keptCases({ failures: five.slice(0, 1) })).toBe('1 case');
    const report = sampleReport();
    const rule = report.rules.find((r) => r.failures.length)!;
    rule.failures = five;
    rule.failedCases = 58;
    expect(failuresSection(report)).toContain('5 of 58 failing cases kept');
    expect(failuresSection(report)).not.toMatch(/· 5 cases/);
  });
});

describe('the other cases of a finding', () => {
  it('each show their own reason: what came back and the target\u2019s words on it, not only their label', () => {
    const report = sampleReport();
    const rule = report.rules.find((r) => r.failures.some((f) => f.response))!;
    const base = rule.failures.find((f) => f.response)!;
    const other = structuredClone(base);
    other.case.label = 'first_name with a digit';
    other.response = {
      status: 422,
      headers: { 'content-type': 'application/json' },
      json: true,
      body: { error: 'first_name must not hold digits' },
      rawBody: '{"error":"first_name must not hold digits"}',
    };
    const line = otherCaseText(other, rule.id);
    expect(line).toContain('first_name with a digit');
    expect(line).toContain('HTTP 422');
    expect(line).toContain('target said: "first_name must not hold digits"');
    rule.failures = [base, other];
    expect(failuresSection(report)).toContain('target said: &quot;first_name must not hold digits&quot;');
  });
});

describe('report.html at a glance', () => {
  it('lists blocking failures before convention ones, each with its section title beside its number', () => {
    const report = sampleReport();
    const failing = report.rules.filter((r) => r.status === 'failed');
    // The first failing rule made a convention one (not blocking): it moves below the blocking ones.
    failing[0].blocking = false;
    const html = failuresSection(report);
    const order = [...html.matchAll(/<details class="failure-rule" data-rule="([^"]+)"/g)].map((m) => m[1]);
    const blocking = order.map((id) => report.rules.find((r) => r.id === id)!.blocking);
    expect(blocking).toContain(false);
    expect(blocking).toEqual([...blocking].sort((a, b) => Number(b) - Number(a)));
    expect(order).toHaveLength(failing.length);
    expect(html).toContain('§8 Limits · documented');
    expect(html).toContain('§2.6 person_details · documented');
  });
});
