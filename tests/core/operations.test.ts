/** The operation table: URLs built from it and recorded URLs read back through it agree. */
import { describe, expect, it } from 'vitest';
import { OPERATIONS, OPERATION_IDS, describeOperation, matchOperationPath, operationUrl } from '../../src/core/operations.ts';
import { RULES } from '../../src/core/catalogue.ts';
import { registry } from '../../src/schema/registry.ts';
import type { TestCase } from '../../src/core/case.ts';

const base = 'https://sandbox.example.com/api';
const update = (fiatAccountId: string): TestCase => ({ operation: 'updateFiatAccount', mode: 'valid', label: '', fiatAccountId });

describe('operation table', () => {
  it('names the document paths (section 4)', () => {
    expect(describeOperation('updateFiatAccount')).toBe('PUT /v2/transfer/fiat-accounts/{id}');
    expect(describeOperation('createIdentity')).toBe('POST /v2/identity/identities');
  });

  it('fills path parameters, encoded, and reads them back from a recorded URL behind a path prefix', () => {
    const url = operationUrl(base, update('a/b c'));
    expect(url).toBe(`${base}/v2/transfer/fiat-accounts/a%2Fb%20c`);
    expect(matchOperationPath(new URL(url).pathname, 'updateFiatAccount')).toEqual({ fiatAccountId: 'a/b c' });
    expect(matchOperationPath('/api/v2/identity/identities', 'createIdentity')).toEqual({});
    expect(matchOperationPath('/api/v2/identity/identities', 'updateFiatAccount')).toBeUndefined();
  });

  it('sends a lone surrogate as U+FFFD instead of throwing', () => {
    expect(operationUrl(base, update('x\uD800'))).toBe(`${base}/v2/transfer/fiat-accounts/x%EF%BF%BD`);
  });

  it('refers to schemas and rules that exist, with the rule prefix of the operation', () => {
    for (const op of OPERATION_IDS) {
      const spec = OPERATIONS[op];
      expect(registry().has(spec.requestSchema) && registry().has(spec.responseSchema), op).toBe(true);
      const rule = RULES.find((r) => r.id === spec.validAcceptedRule);
      expect(rule?.operation, op).toBe(op);
      expect(
        RULES.filter((r) => r.operation === op).every((r) => r.id.startsWith(spec.rulePrefix)),
        op,
      ).toBe(true);
    }
    expect(registry().schema('conformance-report').$defs).toMatchObject({ operation: { enum: OPERATION_IDS } });
  });
});
