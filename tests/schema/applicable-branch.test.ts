/** Of a failed anyOf, the branch the payload followed (its deepest error), or none when no branch stands out. */
import { describe, expect, it } from 'vitest';
import { applicableErrors } from '../../src/schema/applicable-branch.ts';
import type { SchemaError } from '../../src/schema/registry.ts';

const required = (instancePath: string, schemaPath: string, property: string): SchemaError => ({
  instancePath,
  keyword: 'required',
  message: `must have required property '${property}'`,
  schemaPath,
});
const anyOf: SchemaError = {
  instancePath: '',
  keyword: 'anyOf',
  message: 'must have status somewhere',
  schemaPath: '#/allOf/2/anyOf',
  branches: ['#/$defs/top', '#/$defs/inner', '#/allOf/2/anyOf/2'],
};

describe('applicableErrors', () => {
  it('keeps the branch the payload got furthest into and drops the others', () => {
    const top = required('', '#/$defs/top/required', 'status');
    const inner = required('/fiat_network_instructions', '#/$defs/inner/properties/fiat_network_instructions/required', 'status');
    const owner = required('', '#/allOf/2/anyOf/2/required', 'fiat_account_owner');
    const other = required('', '#/required', 'id');
    expect(applicableErrors([top, inner, owner, anyOf, other])).toEqual([inner, anyOf, other]);
  });

  it('tells no branch when none stands out, the combinator alone', () => {
    const top = required('', '#/$defs/top/required', 'status');
    const owner = required('', '#/allOf/2/anyOf/2/required', 'fiat_account_owner');
    expect(applicableErrors([top, owner, anyOf])).toEqual([anyOf]);
  });
});
