/** repeatOutcome: a repeat is judged on the identity it returns, its id, its created_at and its data. */
import { describe, expect, it } from 'vitest';
import { repeatOutcome } from '../../../src/rules/create-identity/ref-id-scenarios.ts';
import { identityData } from '../../../src/rules/create-identity/identity-data.ts';
import type { CreatedIdentity } from '../../../src/rules/create-identity/created-identities.ts';
import type { Exchange } from '../../../src/core/exchange.ts';

const FIRST = {
  id: 'id-1',
  ref_id: 'ref-1',
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  status: 'PENDING',
  tax_details_not_required: true,
  person_details: { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1990-01-01T00:00:00Z', id_verification_status: 'APPROVED' },
};

const original: CreatedIdentity = { refId: 'ref-1', id: 'id-1', key: 'id-1', body: {}, createdAt: FIRST.created_at, data: identityData(FIRST) };

const answer = (status: number, body?: Record<string, unknown>): Exchange => ({
  testCase: { operation: 'createIdentity', mode: 'duplicate', label: 'repeat', body: { ref_id: 'ref-1' } },
  request: { method: 'POST', url: 'http://t/v2/identity/identities', headers: {} },
  response: { status, headers: {}, rawBody: '', json: body !== undefined, body },
  startedAt: '2026-01-01T00:00:01Z',
  durationMs: 1,
});

describe('repeatOutcome', () => {
  it('takes a refusal, and the first identity with its first data, whatever moved on its own', () => {
    expect(repeatOutcome(answer(409, { error: 'duplicate' }), original).problems).toEqual([]);
    expect(repeatOutcome(answer(201, FIRST), original).problems).toEqual([]);
    const moved = { ...FIRST, status: 'APPROVED', updated_at: '2026-02-01T00:00:00Z', last_kyc_refresh_date: '2026-02-01T00:00:00Z' };
    expect(repeatOutcome(answer(200, { ...moved, person_details: { ...FIRST.person_details, id_verification_status: 'DENIED' } }), original).problems).toEqual(
      [],
    );
    // The same instant written otherwise, and a lean answer that leaves fields out, change nothing.
    expect(
      repeatOutcome(answer(200, { ...FIRST, person_details: { ...FIRST.person_details, date_of_birth: '1990-01-01T00:00:00.000Z' } }), original).problems,
    ).toEqual([]);
    expect(repeatOutcome(answer(200, { id: 'id-1' }), original).problems).toEqual([]);
  });

  it('takes a value the target shows masked once stored, and its keys in another order', () => {
    const withIds = { ...FIRST, tax_details: [{ tax_payer_country: 'USA', tax_payer_id: '123456789' }], metadata: { a: '1', b: '2' } };
    const first: CreatedIdentity = { ...original, data: identityData(withIds) };
    const masked = { ...withIds, tax_details: [{ tax_payer_id: '*****6789', tax_payer_country: 'USA' }], metadata: { b: '2', a: '1' } };
    expect(repeatOutcome(answer(200, masked), first).problems).toEqual([]);
    const otherId = { ...withIds, tax_details: [{ tax_payer_country: 'USA', tax_payer_id: '*****0000' }] };
    expect(repeatOutcome(answer(200, otherId), first).problems[0]).toMatchObject({ kind: 'mismatch', instancePath: '/tax_details' });
    const otherMetadata = { ...withIds, metadata: { a: '1', b: '3' } };
    expect(repeatOutcome(answer(200, otherMetadata), first).problems[0]).toMatchObject({ kind: 'mismatch', instancePath: '/metadata' });
  });

  it('fails a second identity, the identity created anew, and the identity updated by the repeat', () => {
    expect(repeatOutcome(answer(201, { ...FIRST, id: 'id-2' }), original).problems[0]).toMatchObject({ kind: 'identity-duplicated' });
    expect(repeatOutcome(answer(201, { ...FIRST, created_at: '2026-01-01T00:00:05Z' }), original).problems[0]).toMatchObject({ kind: 'identity-recreated' });
    const upserted = repeatOutcome(answer(201, { ...FIRST, person_details: { ...FIRST.person_details, first_name: 'Grace' } }), original).problems;
    expect(upserted).toEqual([
      expect.objectContaining({
        kind: 'mismatch',
        instancePath: '/person_details/first_name',
        params: { field: '/person_details/first_name', expected: 'Ada', received: 'Grace' },
      }),
    ]);
    expect(upserted[0].message).toContain('came back with other data');
  });
});
