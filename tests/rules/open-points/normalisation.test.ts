/**
 * The open values a normalising server would change (issue: servers trim, fold case, strip marks,
 * drop leading zeros, store a narrower range of dates): every run sends fixed ones, the random
 * cases vary them, and the ref_id stamp keeps the leading zeros of a government id.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { TestCase } from '../../../src/core/case.ts';
import { caseFamilies } from '../../../src/rules/cases/families.ts';
import { RefIds } from '../../../src/engine/ref-ids.ts';
import { otherCase } from '../../../src/rules/create-identity/ref-id-scenarios.ts';

const family = (rule: string) => caseFamilies().find((f) => f.rule === rule)!;
const valueAt = (body: unknown, field: string) => {
  let value = body;
  for (const part of field.split('.')) value = (value as Record<string, unknown>)?.[part.replace(/\[\]$/, '')];
  return value;
};
const openValue = (c: TestCase) => valueAt(c.body, c.open!.field);
const fixed = (rule: string, field: string, kind: string) =>
  family(rule)
    .examples.filter((c) => c.open?.field === field && c.open.kind === kind)
    .map((c) => [c.open!.value, openValue(c)] as const);

describe('normalisation values', () => {
  it('are sent in every run: names spaced, in upper case, composed and decomposed; a government id with leading zeros; far dates', () => {
    expect(fixed('id.valid-accepted', 'person_details.first_name', 'format')).toEqual([
      ['outer spaces', ' Jane '],
      ['inner double space', 'Mary  Ann'],
    ]);
    expect(fixed('id.valid-accepted', 'person_details.first_name', 'letter-case')).toEqual([['upper case', 'JANE']]);
    const forms = fixed('id.valid-accepted', 'person_details.first_name', 'alphabet').filter(([v]) => /composed/.test(v));
    expect(forms).toEqual([
      ['composed (NFC)', 'Zo\u00eb'],
      ['decomposed (NFD)', 'Zoe\u0308'],
    ]);
    expect(fixed('id.valid-accepted', 'person_details.cip_id', 'format')).toContainEqual(['leading zeros', expect.stringMatching(/^00\d-\d\d-\d{4}$/)]);
    const dates = fixed('id.valid-accepted', 'person_details.date_of_birth', 'date').map(([, d]) => d);
    expect(dates).toEqual(expect.arrayContaining(['0001-01-01', '1000-01-01', '9999-12-31']));
    expect(fixed('fa.valid-accepted', 'fiat_account_owner.person_details.first_name', 'letter-case')).toEqual([['upper case', 'JANE']]);
  });

  it('vary in the random cases, each value unlike its twin, and far dates in four-digit years', () => {
    const open = fc.sample(family('id.valid-accepted').arbitrary!, { numRuns: 4000, seed: 7 }).filter((c) => c.open);
    const values = (field: string, kind: string) => open.filter((c) => c.open!.field === field && c.open!.kind === kind);
    const spacing = values('person_details.first_name', 'format');
    expect(new Set(spacing.map((c) => c.open!.value))).toEqual(new Set(['outer spaces', 'inner double space']));
    for (const c of [...spacing, ...values('person_details.last_name', 'letter-case')]) expect(openValue(c)).not.toBe(valueAt(c.control!.body, c.open!.field));
    expect(new Set(values('person_details.first_name', 'letter-case').map((c) => c.open!.value)).size).toBe(3);
    const decomposed = values('person_details.first_name', 'alphabet').filter((c) => c.open!.alphabet === 'decomposed');
    expect(decomposed.length).toBeGreaterThan(0);
    for (const c of decomposed) expect(openValue(c)).toBe(String(openValue(c)).normalize('NFD'));
    const dates = values('person_details.date_of_birth', 'date').map((c) => String(openValue(c)));
    for (const d of dates) expect(d).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(dates.some((d) => d < '1000')).toBe(true);
    expect(dates.some((d) => d > '2100')).toBe(true);
    expect(values('person_details.cip_id', 'format').some((c) => c.open!.value === 'leading zeros')).toBe(true);
  });
});

describe('the ref_id stamp', () => {
  it('keeps the leading zeros of a government id (only the digits after them come from the ref_id)', () => {
    const refIds = new RefIds(1);
    for (let i = 0; i < 50; i++) {
      const c: TestCase = { operation: 'createIdentity', mode: 'valid', label: '', body: { person_details: { cip_id: '003-45-6789' } } };
      const cipId = (refIds.stamp(c).body as Record<string, Record<string, string>>).person_details.cip_id;
      expect(cipId).toMatch(/^00[1-9]-\d\d-\d{4}$/);
    }
  });

  it('a ref_id in another letter case differs from it in every letter and in nothing else', () => {
    const refId = new RefIds(1).next();
    expect(otherCase(refId)).not.toBe(refId);
    expect(otherCase(refId).toLowerCase()).toBe(refId.toLowerCase());
  });
});
