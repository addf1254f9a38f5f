/**
 * The rules over the open space end to end, on the embedded server: the report lists which rule
 * was judged with which accepted values, the plan counts what was sent, a strict server's refused
 * values are never combined, and the faults only a combination shows are found by one.
 */
import { describe, expect, it } from 'vitest';
import { planRequests } from '../../../src/engine/plan.ts';
import { runEmbedded } from '../../../src/run/embedded-run.ts';
import { COMBINED_RULES } from '../../../src/rules/open-points/combinations.ts';

const SEED = 3;
const RUNS = 10;

describe('the rules over the open space', () => {
  it('are listed per rule in the report, and the plan counts what they sent', async () => {
    const { report } = await runEmbedded({ runs: RUNS, seed: SEED });
    expect(report.summary.verdict).toBe('conformant');
    const space = report.openSpace!;
    expect(space.rules.map((r) => r.rule)).toEqual(['id.ref-id.sequential-duplicate', ...COMBINED_RULES.map((r) => r.rule)]);
    for (const r of space.rules) {
      expect(r.cases, r.rule).toBeGreaterThan(0);
      expect(r.cases, r.rule).toBeLessThanOrEqual(space.perRule);
      expect(r.values.length, r.rule).toBeGreaterThan(0);
    }
    // The faithful server takes every combination; each invalid one (the tax rules) asks its twin.
    expect(space.rules.every((r) => r.refused === 0)).toBe(true);
    const invalid = space.rules
      .filter((r) => r.rule === 'id.tax.absent-rejected' || r.rule === 'id.tax.absent-false-rejected')
      .reduce((n, r) => n + r.cases, 0);
    const sent = space.rules.reduce((n, r) => n + r.cases, 0) + invalid;
    const plan = await planRequests({ runs: RUNS, accounts: 3, seed: SEED });
    expect(plan.byScenario.find((s) => s.rule === 'id.tax.absent-rejected')?.requests).toBe(sent);
  });

  it.each([['id.tax.absent-rejected'], ['id.govt-id.mirrors-cip'], ['id.ref-id.sequential-duplicate']])(
    'are planned exactly under --rule %s (the open values tried first when no fixed case did, twins only of judged rules)',
    async (rule) => {
      const { report } = await runEmbedded({ runs: RUNS, seed: SEED, ruleFilter: [rule] });
      const plan = await planRequests({ runs: RUNS, accounts: 3, seed: SEED, ruleFilter: [rule] });
      expect(report.summary.requests - report.restore!.requests).toBe(plan.total);
      expect(report.openSpace?.rules.length).toBeGreaterThan(0);
    },
  );

  it('combine nothing a strict server refused, and it stays conformant', async () => {
    const { report } = await runEmbedded({ runs: RUNS, seed: SEED, strictServer: true });
    expect(report.summary.verdict).toBe('conformant');
    const refused = new Set(report.observedContract!.limits.flatMap((l) => l.refused.map((r) => `${l.field} ${l.kind} ${r.value}`)));
    const combined = report.openSpace!.rules.flatMap((r) => r.values.map((v) => `${v.field} ${v.kind} ${v.value}`));
    expect(combined.length).toBeGreaterThan(0);
    expect(combined.filter((v) => refused.has(v))).toEqual([]);
  });

  it.each([
    ['id-tax-rule-one-country', 'id.tax.absent-rejected'],
    ['id-govt-id-normalised', 'id.govt-id.mirrors-cip'],
    ['id-ref-id-case-insensitive-repeat', 'id.ref-id.sequential-duplicate'],
  ] as const)('find %s, a failure of %s whose case holds the accepted open values', async (fault, rule) => {
    const { report } = await runEmbedded({ fault, runs: 3, seed: SEED });
    const failed = report.rules.find((r) => r.id === rule)!;
    expect(failed.status).toBe('failed');
    expect(failed.failures.some((f) => f.case.combined?.length || f.case.open)).toBe(true);
  });
});
