/**
 * The document's samples, reconstructed in fixtures/samples/<schema>.json, validate against the
 * schema of their name; the fields the document does not list are tolerated and show up as
 * undocumented, nothing else does.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { registry } from '../../src/schema/registry.ts';
import { UndocumentedFields } from '../../src/rules/undocumented-fields.ts';
import type { Exchange } from '../../src/core/exchange.ts';
import type { Operation } from '../../src/core/catalogue.ts';

const SAMPLES_DIR = path.resolve('fixtures/samples');
const sample = (name: string): Record<string, unknown> => JSON.parse(readFileSync(path.join(SAMPLES_DIR, `${name}.json`), 'utf8'));
const sampleNames = readdirSync(SAMPLES_DIR)
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.slice(0, -'.json'.length))
  .sort();

/** A successful exchange whose response is `body`, as the runner would record it. */
function successExchange(operation: Operation, body: unknown): Exchange {
  return {
    testCase: { operation, mode: 'valid', label: 'sample' },
    request: { method: 'POST', url: 'http://127.0.0.1:1/v2/x', headers: {} },
    response: { status: 200, headers: { 'content-type': 'application/json' }, rawBody: JSON.stringify(body), json: true, body },
    startedAt: '2024-01-01T00:00:00Z',
    durationMs: 1,
  } as Exchange;
}

describe('samples of the document', () => {
  it('cover both requests and both responses', () => {
    expect(sampleNames).toEqual(['create-identity-request', 'fiat-account', 'identity', 'update-fiat-account-request']);
  });

  it.each(sampleNames)('%s validates against its schema', (name) => {
    expect(registry().validate(name, sample(name))).toEqual([]);
  });

  it('keep the sample shape: status and metadata only inside fiat_account_owner.fiat_network_instructions', () => {
    const account = sample('fiat-account');
    expect(account.status).toBeUndefined();
    expect(account.fiat_network_instructions).toBeUndefined();
    const nested = (account.fiat_account_owner as Record<string, Record<string, Record<string, unknown>>>).fiat_network_instructions;
    expect(nested.status).toBe('PENDING');
    expect(Object.values(nested.metadata).some((v) => Number.isInteger(v))).toBe(true);
  });

  it('list summary_status and the misspelled key as undocumented, and nothing else', () => {
    const walker = new UndocumentedFields(registry());
    walker.observe(successExchange('createIdentity', sample('identity')));
    walker.observe(successExchange('updateFiatAccount', sample('fiat-account')));
    expect(walker.list().map((f) => `${f.operation} ${f.path}`)).toEqual([
      "createIdentity /person_details/passthrough_verifier_type'",
      'createIdentity /summary_status',
    ]);
  });

  it('list an unknown field nested inside the owner instructions as undocumented', () => {
    const account = structuredClone(sample('fiat-account')) as { fiat_account_owner: { fiat_network_instructions: { wire: Record<string, unknown> } } };
    account.fiat_account_owner.fiat_network_instructions.wire.iban = 'DE00';
    const walker = new UndocumentedFields(registry());
    walker.observe(successExchange('updateFiatAccount', account));
    expect(walker.list().map((f) => f.path)).toEqual(['/fiat_account_owner/fiat_network_instructions/wire/iban']);
  });
});
