import { describe, expect, it } from 'vitest';
import type { ObservedContract, ObservedLimit } from '../../../src/core/open-point.ts';
import { confirmDrift } from '../../../src/report/compare/drift-confirmation.ts';
import type { DriftFinding } from '../../../src/schema/drift/drift-finding.ts';

const NAME_PATTERN = "^[0-9A-Za-z /?:().,&'+-]+$";

const tightening = (field: string, keyword: string, constraint: unknown, openKinds: DriftFinding['openKinds']): DriftFinding => ({
  kind: 'tightening',
  operation: 'createIdentity',
  direction: 'request',
  field,
  keyword,
  ours: 'x.schema.json#',
  theirs: '#/components/schemas/X',
  document: '',
  openapi: '',
  reason: '',
  constraint,
  openKinds,
});

const limit = (field: string, kind: ObservedLimit['kind'], accepted: string[], refused: string[], extra: Partial<ObservedLimit> = {}): ObservedLimit => ({
  operation: 'createIdentity',
  field,
  kind,
  accepted,
  refused: refused.map((value) => ({ value, status: 400 })),
  summary: '',
  ...extra,
});

const contract = (...limits: ObservedLimit[]): ObservedContract => ({ version: 1, limits });
const observed = (finding: DriftFinding, c: ObservedContract | undefined) => confirmDrift([finding], c)[0].observed;

describe('confirmDrift', () => {
  const kinds = tightening('person_details.cip_id_type', 'enum', ['SSN', 'ITIN'], ['code', 'letter-case']);

  it('an enum: a refused code outside it confirms, an accepted one outside it is not enforced', () => {
    expect(observed(kinds, contract(limit('person_details.cip_id_type', 'code', ['ITIN'], ['TAX_ID'])))).toBe('confirmed');
    expect(observed(kinds, contract(limit('person_details.cip_id_type', 'code', ['TAX_ID'], [])))).toBe('not enforced by the target');
    // A refusal of a value the enum allows says nothing of the enum.
    expect(observed(kinds, contract(limit('person_details.cip_id_type', 'code', [], ['ITIN'])))).toBe('not observed');
  });

  it('a pattern: named alphabets are judged by their text; described values are no evidence', () => {
    const name = tightening('person_details.first_name', 'pattern', NAME_PATTERN, ['alphabet', 'code', 'letter-case']);
    expect(observed(name, contract(limit('person_details.first_name', 'alphabet', [], ['cjk', 'latin'])))).toBe('confirmed');
    expect(observed(name, contract(limit('person_details.first_name', 'alphabet', ['cjk'], [])))).toBe('not enforced by the target');
    expect(observed(name, contract(limit('person_details.first_name', 'alphabet', ['letters'], [])))).toBe('not observed');
    expect(observed(name, contract(limit('person_details.first_name', 'letter-case', ['upper case'], [])))).toBe('not observed');
  });

  it('a maxLength: against the longest accepted and the shortest refused', () => {
    const max = tightening('person_details.first_name', 'maxLength', 200, ['length']);
    expect(
      observed(
        max,
        contract(limit('person_details.first_name', 'length', ['150 characters'], ['255 characters'], { longestAccepted: 150, shortestRefused: 255 })),
      ),
    ).toBe('confirmed');
    expect(observed(max, contract(limit('person_details.first_name', 'length', ['255 characters'], [], { longestAccepted: 255 })))).toBe(
      'not enforced by the target',
    );
    // Refused only below the bound: another limit than this one.
    expect(observed(max, contract(limit('person_details.first_name', 'length', [], ['100 characters'], { shortestRefused: 100 })))).toBe('not observed');
  });

  it('matches operation, field and kind; leaves other kinds of finding alone; no contract is not observed', () => {
    const other = { ...kinds, operation: 'updateFiatAccount' as const };
    expect(observed(other, contract(limit('person_details.cip_id_type', 'code', [], ['TAX_ID'])))).toBe('not observed');
    expect(observed(kinds, undefined)).toBe('not observed');
    const contradiction: DriftFinding = { ...kinds, kind: 'contradiction' };
    expect(confirmDrift([contradiction], contract(limit('person_details.cip_id_type', 'code', [], ['TAX_ID'])))[0]).toEqual(contradiction);
  });
});
