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

  it('asks no random case but every example of a family without an arbitrary, and rounds of a scenario', () => {
    expect(minimumFor(getRule('fa.malformed-id-4xx'), 50, { examples: [valid('a')] }).random).toBe(0);
    // Without random cases nothing makes up for an unjudged example: every one is asked (an empty body and a missing one).
    expect(minimumFor(getRule('fa.empty-body'), 50, { examples: [valid('no body'), valid('empty body')] })).toEqual({ fixed: 2, random: 0 });
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
  it('counts the cases not sent for want of room on the accounts, with the first reason, and asks for accounts with room', () => {
    const reason = 'not sent: no fiat account has room for the new metadata key it needs within 6 pairs (acc-a holds "h1")';
    const tally = { ...emptyTally(), fixed: 2, unsent: { count: 4, reason } };
    const { shortfall } = coverageOf(getRule('fa.metadata.max-length-accepted'), tally, { fixed: 3, random: 0 }, new Refusals());
    expect(shortfall).toBe(
      `judged by 2 fixed and 0 random cases (minimum 3 and 0): 4 of its cases were ${reason}; give --fiat-account-id accounts that hold fewer metadata keys, or remove keys from these, then run again`,
    );
  });

  it('gives a scenario\u2019s own note, not the refusals of its operation\u2019s other cases, as its cause', () => {
    const refusals = new Refusals();
    const update: TestCase = { operation: 'updateFiatAccount', mode: 'valid', label: 'names', body: {} };
    refusals.observe({ ...answered(update, 400), testCase: update });
    const note = '2 of 5 sequences ran; none of their 9 steps was refused';
    const own = coverageOf(getRule('fa.sequence.persisted'), { ...emptyTally(), scenarioNote: note }, { fixed: 3, random: 0 }, refusals).shortfall;
    expect(own).toContain(note);
    expect(own).not.toContain('should be accepted were refused');
    expect(coverageOf(getRule('fa.update-reflected'), emptyTally(), { fixed: 3, random: 0 }, refusals).shortfall).toContain('should be accepted were refused');
  });

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
    expect(shortfall).toContain('"first refused" got HTTP 422: "first_name must be ASCII"');
    expect(shortfall).toContain('1 successful answers held none of the fields it judges');
    expect(shortfall).toContain('make the target accept valid requests');
  });

  it('quotes the reason of a refusal, not the canned text beside it', () => {
    const refusals = new Refusals();
    const canned = JSON.stringify({
      code: 'BadRequest',
      message: 'fiat_account_owner cannot be changed from person to institution',
      validation: [{ field: 'person_details.address.country', message: 'is required' }],
    });
    refusals.observe(answered(valid('address without country'), 400, canned));
    const line = refusals.describe('createIdentity')!;
    expect(line).toContain('"address without country" got HTTP 400: "is required (at person_details.address.country)"');
    expect(line).not.toContain('fiat_account_owner');
  });

  it('cuts a long label in its citation, so the status and the words stay in view', () => {
    const refusals = new Refusals();
    refusals.observe(answered(valid(`person_details.address.address1 ${'x'.repeat(200)}`), 422));
    const line = refusals.describe('createIdentity')!;
    expect(line).toMatch(/first: "person_details\.address\.address1 x+…" got HTTP 422: "first_name must be ASCII"$/);
    expect(line.length).toBeLessThan(200);
  });

  it('does not count a deliberate unknown-id case (it expects 404) as a valid request refused', () => {
    const account = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const update = (label: string, fiatAccountId?: string): TestCase => ({
      operation: 'updateFiatAccount',
      mode: 'valid',
      label,
      body: {},
      ...(fiatAccountId ? { fiatAccountId } : {}),
    });
    const refusals = new Refusals([account]);
    refusals.observe(answered(update('unknown fiat account id', '3b241101-e2bb-4255-8caf-4136c566a962'), 404, '{"error":"not found"}'));
    refusals.observe(answered(update('empty update', account), 200, '{"id":"x"}'));
    expect(refusals.describe('updateFiatAccount')).toBeUndefined();
    refusals.observe(answered(update('owner names', account), 422, '{"error":"names"}'));
    expect(refusals.describe('updateFiatAccount')).toMatch(/^1 of 2 PUT .* first: "owner names" got HTTP 422/);
  });

  it('gives a scenario’s own fix alone when only a setting of the run can help (one fiat account for isolation)', () => {
    const refusals = new Refusals();
    refusals.observe(answered(valid('first refused'), 422));
    const tally = {
      ...emptyTally(),
      scenarioNote: 'one fiat account only: isolation between accounts needs two',
      scenarioRemedy: 'give a second account id (--fiat-account-id twice)',
    };
    const { shortfall } = coverageOf(getRule('fa.sequence.isolation'), tally, { fixed: 3, random: 0 }, refusals);
    expect(shortfall).toBe(
      'judged by 0 fixed and 0 random cases (minimum 3 and 0): one fiat account only: isolation between accounts needs two; give a second account id (--fiat-account-id twice)',
    );
    expect(shortfall).not.toContain('make the target accept valid requests');
  });

  it('says how many of its requests got no answer, and asks for answers, not a larger profile', () => {
    const tally = { ...emptyTally(), fixed: 4, unanswered: 1 };
    const { shortfall } = coverageOf(getRule('id.other-methods-refused'), tally, { fixed: 5, random: 0 }, new Refusals());
    expect(shortfall).toBe(
      'judged by 4 fixed and 0 random cases (minimum 5 and 0): 1 of its requests got no answer (dropped, timed out or cut short); make the target answer every request in time, then run again',
    );
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
