/** Coverage accounting: minimums per profile, the shortfall line, and the budget of paired families. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { coverageOf, emptyTally, inputKey, minimumFor, minimumUnder, randomRuns, Refusals } from '../../src/engine/coverage.ts';
import { getRule } from '../../src/core/catalogue.ts';
import type { TestCase } from '../../src/core/case.ts';
import type { Exchange } from '../../src/core/exchange.ts';

const valid = (label: string): TestCase => ({ operation: 'createIdentity', mode: 'valid', label, body: { person_details: { first_name: label } } });
const answered = (c: TestCase, status: number, body = '{"error":"first_name must be ASCII"}'): Exchange => ({
  testCase: c,
  startedAt: '2026-01-01T00:00:00Z',
  durationMs: 1,
  request: { method: 'POST', url: 'http://127.0.0.1/v2/identity/identities', headers: {}, body: c.body },
  response: { status, headers: {}, rawBody: body, json: true, body: JSON.parse(body) },
});

describe('minimums', () => {
  it('asks a share of the random cases, more of a deeper profile, and half of a family\u2019s examples', () => {
    const rule = getRule('id.enums');
    expect(minimumFor(rule, 10).random).toBeLessThan(minimumFor(rule, 400).random);
    expect(
      minimumFor(getRule('fa.metadata.over-pairs-rejected'), 50, { examples: [valid('a'), valid('b'), valid('c')], arbitrary: fc.constant(valid('r')) }),
    ).toEqual({ fixed: 2, random: 5 });
  });

  it('asks no random case of a family without an arbitrary, and rounds of a scenario', () => {
    expect(minimumFor(getRule('fa.malformed-id-4xx'), 50, { examples: [valid('a')] }).random).toBe(0);
    expect(minimumFor(getRule('id.ref-id.sequential-duplicate'), 50)).toEqual({ fixed: 3, random: 0 });
    expect(minimumFor(getRule('fa.auth-401'), 50)).toEqual({ fixed: 3, random: 0 });
  });

  it('waives the random minimum of the rules that need room for keys only under merged metadata', () => {
    const rule = getRule('fa.metadata.max-pairs-accepted');
    const minimum = minimumFor(rule, 50);
    expect(minimumUnder(rule, minimum, true).random).toBe(0);
    expect(minimumUnder(rule, minimum, false)).toEqual(minimum);
    expect(minimumUnder(getRule('fa.metadata.over-pairs-rejected'), minimum, true)).toEqual(minimum);
  });

  it('halves the random cases of a family of paired invalid cases, not of others', () => {
    const twin = valid('twin');
    expect(randomRuns({ rule: 'id.dob.invalid-rejected', examples: [{ ...valid('x'), mode: 'invalid', control: twin }] }, 50)).toBe(25);
    expect(randomRuns({ rule: 'id.valid-accepted', examples: [valid('x')] }, 50)).toBe(50);
  });
});

describe('the shortfall line', () => {
  it('is absent when the minimum is met', () => {
    const tally = { ...emptyTally(), fixed: 2, random: 5 };
    expect(coverageOf(getRule('id.enums'), tally, { fixed: 1, random: 5 }, new Refusals()).shortfall).toBeUndefined();
  });

  it('says how far below, why (refusals with the first one, the target\u2019s words), and what would fix it', () => {
    const refusals = new Refusals();
    refusals.observe(answered(valid('first refused'), 422));
    refusals.observe(answered(valid('second refused'), 422));
    refusals.observe(answered(valid('accepted'), 201, '{"id":"x"}'));
    const tally = { ...emptyTally(), fixed: 1, random: 0, silentSuccesses: 1 };
    const { shortfall } = coverageOf(getRule('id.enums'), tally, { fixed: 1, random: 13 }, refusals);
    expect(shortfall).toContain('judged by 1 fixed and 0 random cases (minimum 1 and 13)');
    expect(shortfall).toContain('2 of 3 POST /v2/identity/identities requests that should be accepted were refused');
    expect(shortfall).toContain('"first refused" got HTTP 422 {"error":"first_name must be ASCII"}');
    expect(shortfall).toContain('1 successful answers held none of the fields it judges');
    expect(shortfall).toContain('make the target accept valid requests');
  });

  it('suggests a larger profile when nothing was refused', () => {
    const { shortfall } = coverageOf(getRule('id.enums'), emptyTally(), { fixed: 1, random: 3 }, new Refusals());
    expect(shortfall).toMatch(/--profile/);
  });
});

describe('distinct inputs', () => {
  it('ignore the ref_id the runner stamps, and tell bodies apart', () => {
    const a = { ...valid('a'), body: { person_details: { first_name: 'A' }, ref_id: 'run-1' } };
    const b = { ...valid('a'), body: { person_details: { first_name: 'A' }, ref_id: 'run-2' } };
    const c = { ...valid('a'), body: { person_details: { first_name: 'B' }, ref_id: 'run-3' } };
    expect(inputKey(a)).toBe(inputKey(b));
    expect(inputKey(a)).not.toBe(inputKey(c));
  });
});
