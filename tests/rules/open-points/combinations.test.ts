/**
 * Documented rules over the open space: the rows cover every accepted value and every pair of
 * the fields a rule depends on together, refused values are never combined, twins carry the
 * values, and a valid combination the target refuses is its limit, never a failure.
 */
import { describe, expect, it } from 'vitest';
import { judge } from '../../../src/rules/judge.ts';
import { CombinationsJudged } from '../../../src/rules/open-points/combinations-judged.ts';
import { COMBINED_RULES, combinationCases, coveringRows, plannedCombinations } from '../../../src/rules/open-points/combinations.ts';
import type { AcceptedOpenValue } from '../../../src/rules/open-points/open-point-book.ts';
import { OpenPointBook } from '../../../src/rules/open-points/open-point-book.ts';
import { exchange } from '../exchange-builders.ts';

const ruleOf = (id: string) => COMBINED_RULES.find((r) => r.rule === id)!;
const value = (field: string, description: string, v: unknown = description, kind: AcceptedOpenValue['kind'] = 'code'): AcceptedOpenValue => ({
  operation: 'createIdentity',
  field,
  kind,
  description,
  value: v,
});
const NATIONALITY = 'person_details.nationality';
const CIP_COUNTRY = 'person_details.cip_id_country';

describe('covering rows', () => {
  it('hold every value of every column and every pair of the first two columns', () => {
    const rows = coveringRows(
      [
        ['a', 'b', 'c'],
        ['x', 'y'],
        ['1', '2', '3', '4'],
      ],
      true,
      100,
    );
    for (const v of ['a', 'b', 'c', 'x', 'y', '1', '2', '3', '4']) expect(rows.some((r) => r.includes(v))).toBe(true);
    for (const a of ['a', 'b', 'c']) for (const b of ['x', 'y']) expect(rows.some((r) => r.includes(a) && r.includes(b))).toBe(true);
    // 4 rows cover the single values, 2 more the pairs not in them: far fewer than 3 x 2 x 4.
    expect(rows.length).toBe(6);
  });

  it('are cut at the bound, the rows that cover each value first', () => {
    const rows = coveringRows(
      [
        ['a', 'b', 'c'],
        ['x', 'y'],
      ],
      true,
      3,
    );
    expect(rows).toHaveLength(3);
    for (const v of ['a', 'b', 'c', 'x', 'y']) expect(rows.some((r) => r.includes(v))).toBe(true);
  });

  it('are none when no value was accepted', () => {
    expect(coveringRows([[], []], true, 10)).toEqual([]);
  });
});

describe('combination cases', () => {
  it("put the accepted values in the rule's own case, and its twin holds them too", () => {
    const cases = combinationCases(ruleOf('id.tax.absent-rejected'), [value(NATIONALITY, 'GBR'), value(CIP_COUNTRY, 'DEU')], 10);
    expect(cases).toHaveLength(1);
    const [c] = cases;
    expect(c).toMatchObject({ mode: 'invalid', violates: 'id.tax.absent-rejected', body: { person_details: { nationality: 'GBR', cip_id_country: 'DEU' } } });
    expect((c.body as Record<string, unknown>).tax_details).toBeUndefined();
    expect(c.control).toMatchObject({ mode: 'valid', body: { person_details: { nationality: 'GBR' }, tax_details: [{ tax_payer_country: 'USA' }] } });
    expect(c.control?.combined).toEqual(c.combined);
    expect(c.combined).toEqual([
      { field: NATIONALITY, kind: 'code', value: 'GBR' },
      { field: CIP_COUNTRY, kind: 'code', value: 'DEU' },
    ]);
  });

  it('use only values the target accepted: a refused one never comes back', () => {
    const book = new OpenPointBook();
    const open = (v: string) => ({
      operation: 'createIdentity' as const,
      label: v,
      body: { person_details: { first_name: 'Ada', nationality: v }, tax_details_not_required: true },
      open: { field: NATIONALITY, kind: 'code' as const, value: v },
    });
    book.accepted(exchange(open('GBR'), 201, { id: 'a' }));
    book.refused(exchange(open('GB'), 400, { message: 'nationality must have three letters' }));
    const cases = combinationCases(ruleOf('id.tax.absent-rejected'), book.acceptedValues(), 10);
    expect(cases.map((c) => c.combined)).toEqual([[{ field: NATIONALITY, kind: 'code', value: 'GBR' }]]);
  });

  it('leave out kinds that are the subject of their own cases (a shared government id)', () => {
    const shared = value('person_details.cip_id', '987-65-4320', '987-65-4320', 'uniqueness');
    expect(combinationCases(ruleOf('id.govt-id.mirrors-cip'), [shared], 10)).toEqual([]);
  });

  it('are planned from the examples every run sends, bounded per profile', () => {
    const quick = plannedCombinations(10, () => true);
    const deep = plannedCombinations(400, () => true);
    expect(quick.requests).toBeGreaterThan(0);
    expect(deep.requests).toBeGreaterThanOrEqual(quick.requests);
    // A run whose fixed cases sent no open example tries them first.
    expect(plannedCombinations(10, () => false).requests).toBeGreaterThan(quick.requests);
  });
});

describe('a combination judged', () => {
  const [valid] = combinationCases(ruleOf('id.govt-id.mirrors-cip'), [value('person_details.cip_id', 'with spaces', '123 45 6789', 'format')], 10);

  it('refused while valid is the target limit: id.valid-accepted says nothing', () => {
    const judgements = judge(exchange(valid, 400, { message: 'cip_id must not contain spaces' }), { fiatAccountIds: [], mergeMayExceedLimit: () => false });
    expect(judgements.find((j) => j.rule === 'id.valid-accepted')).toBeUndefined();
  });

  it('accepted, is judged by the rule that compares the answer with it', () => {
    const answer = { id: 'i', person_details: { first_name: 'Ada', cip_id: '123 45 6789', govt_id: '123456789', cip_id_type: 'SSN', govt_id_type: 'SSN' } };
    const judgements = judge(exchange(valid, 201, answer), { fiatAccountIds: [], mergeMayExceedLimit: () => false });
    expect(judgements.find((j) => j.rule === 'id.govt-id.mirrors-cip')?.problems.length).toBeGreaterThan(0);
  });

  it('is listed per rule with its values and cases, a refused one counted apart', () => {
    const judged = new CombinationsJudged();
    judged.bound(4);
    judged.note('id.govt-id.mirrors-cip', valid, exchange(valid, 201, { id: 'i' }));
    judged.note('id.govt-id.mirrors-cip', valid, exchange(valid, 400, {}));
    expect(judged.coverage()).toEqual({
      perRule: 4,
      rules: [{ rule: 'id.govt-id.mirrors-cip', cases: 2, refused: 1, values: [{ field: 'person_details.cip_id', kind: 'format', value: 'with spaces' }] }],
    });
  });
});
