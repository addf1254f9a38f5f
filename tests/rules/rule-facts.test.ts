/** Every rule has exactly one judge, and what the engine derives from the checks' declarations holds. */
import { describe, expect, it } from 'vitest';
import { RULES } from '../../src/core/catalogue.ts';
import { judgesOf } from '../../src/rules/judges-of-rules.ts';
import { comparesWithRequest, judgesSuccessBody, rulesOfAnswersAlone } from '../../src/rules/rule-facts.ts';

describe('rule facts', () => {
  it.each(RULES.map((r) => r.id))('%s has exactly one judge', (id) => {
    expect(judgesOf(id), `${id} is judged by: ${judgesOf(id).join(', ') || 'nothing'}`).toHaveLength(1);
  });

  it('a rule without a judge, or with two, is found (the check can fail)', () => {
    expect(judgesOf('fa.no-such-rule')).toEqual([]);
    expect(judgesOf('id.ref-id.sequential-duplicate')).toEqual(['the scenario of id.ref-id.sequential-duplicate']);
  });

  it('the rules that compare an identity with its request, those judged from a success body, and those a repeat feeds', () => {
    expect(RULES.filter((r) => r.operation === 'createIdentity' && comparesWithRequest(r.id)).map((r) => r.id)).toEqual([
      'id.dob.midnight-utc',
      'id.govt-id.mirrors-cip',
      'id.person-details.returned',
      'id.is-merchant.returned',
      'id.type-person',
    ]);
    expect(judgesSuccessBody('id.initial-statuses')).toBe(true);
    expect(judgesSuccessBody('id.content-type')).toBe(false);
    expect(judgesSuccessBody('fa.valid-accepted')).toBe(false);
    expect(rulesOfAnswersAlone('createIdentity').sort()).toEqual([
      'id.booleans',
      'id.content-type',
      'id.enums',
      'id.response.id',
      'id.response.schema',
      'id.timestamps.rfc3339',
    ]);
  });
});
