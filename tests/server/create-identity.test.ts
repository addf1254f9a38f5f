/** POST /v2/identity/identities on the faithful server: the Identity, the tax rule, dates, ref_id uniqueness. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createReferenceServer, type ReferenceServer } from '../../src/server/server.ts';
import { registry } from '../../src/schema/registry.ts';
import { create, identityBody } from './http-client.ts';

describe('creating an identity', () => {
  let server: ReferenceServer;
  beforeAll(async () => {
    server = await createReferenceServer();
  });
  afterAll(() => server.close());

  it('answers 201 with the Identity as the sample shows it', async () => {
    const person = {
      first_name: 'Zoë',
      last_name: '😀',
      date_of_birth: '1992-02-29',
      email: 'zoe@example.com',
      phone_number: '+15551234567',
      cip_id: '123-45-6789',
      cip_id_type: 'SSN',
      nationality: 'USA',
      verifier_type: 'PASSTHROUGH',
      passthrough_verifier_type: 'VENDOR',
      passthrough_verified_at: '2024-01-02T03:04:05Z',
      address: { country: 'USA', address1: '1 Main St', address2: '', city: 'Austin', province: 'TX', zip_code: '73301' },
      metadata: { source: 'test' },
    };
    const sent = identityBody(
      { tax_details: [{ tax_payer_country: 'USA', tax_payer_id: '123456789' }], is_merchant: true, metadata: { a: 1 }, customer_due_diligence: {} },
      person,
    );
    delete sent.tax_details_not_required;
    const reply = await create(server, sent);
    expect(reply.status).toBe(201);
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
    expect(registry().validate('identity', reply.json)).toEqual([]);
    const body = reply.json;
    expect(body).toMatchObject({
      type: 'PERSON',
      status: 'PENDING',
      status_details: 'PENDING',
      summary_status: 'PENDING',
      user_disabled: false,
      admin_disabled: false,
      is_merchant: true,
      tax_details: sent.tax_details,
      metadata: { a: 1 },
      ref_id: sent.ref_id,
      customer_due_diligence: {},
      summary_tin_verification_status: 'TIN_VERIFICATION_PENDING',
    });
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.created_at).toMatch(/Z$/);
    expect(body.person_details).toEqual({
      ...person,
      date_of_birth: '1992-02-29T00:00:00Z',
      govt_id: '123-45-6789',
      govt_id_type: 'SSN',
      id_verification_status: 'APPROVED',
      sanctions_verification_status: 'PENDING',
      additional_screening_status: 'PENDING',
      "passthrough_verifier_type'": 'VENDOR',
    });
  });

  it('defaults is_merchant to false and answers INSTITUTION without person_details', async () => {
    const reply = await create(server, { institution_details: { name: 'ACME' }, tax_details_not_required: true });
    expect(reply.status).toBe(201);
    expect(reply.json).toMatchObject({ type: 'INSTITUTION', is_merchant: false, institution_details: { name: 'ACME' } });
  });

  it.each([
    ['tax_details absent, flag absent', {}, 400],
    ['tax_details absent, flag false', { tax_details_not_required: false }, 400],
    ['tax_details absent, flag true', { tax_details_not_required: true }, 201],
    ['tax_details present, flag false', { tax_details_not_required: false, tax_details: [{ tax_payer_country: 'USA', tax_payer_id: '1' }] }, 201],
  ])('the tax rule: %s -> %i', async (_name, tax, status) => {
    const { tax_details_not_required: _flag, ...rest } = identityBody();
    const reply = await create(server, { ...rest, ...tax });
    expect(reply.status).toBe(status);
  });

  it.each(['1990-02-30', '1991-02-29', '1990-13-01', '1990-1-1', 'yesterday', '1990-01-01T00:00:00Z'])('rejects date_of_birth %s', async (dob) => {
    const reply = await create(server, identityBody({}, { date_of_birth: dob }));
    expect(reply.status).toBe(400);
    expect(reply.json.errors.map((e: { instancePath: string }) => e.instancePath)).toContain('/person_details/date_of_birth');
  });

  it.each([
    ['tax_details_not_required "yes"', { tax_details_not_required: 'yes' }],
    ['is_merchant "true"', { is_merchant: 'true' }],
    ['tax_details as an object', { tax_details: { tax_payer_country: 'USA' } }],
    ['ref_id as a number', { ref_id: 42 }],
    ['person_details as a string', { person_details: 'Ada' }],
    ['metadata as an array', { metadata: [] }],
  ])('rejects wrong types: %s', async (_name, wrong) => {
    expect((await create(server, identityBody(wrong))).status).toBe(400);
  });
});

describe.each(['conflict', 'same'] as const)('ref_id duplicates, reading %s', (duplicateRefId) => {
  let server: ReferenceServer;
  beforeAll(async () => {
    server = await createReferenceServer({ reading: { duplicateRefId, createdStatus: 200 } });
  });
  afterAll(() => server.close());
  const repeatStatus = duplicateRefId === 'conflict' ? 409 : 200;

  it('a sequential repeat never yields a second identity', async () => {
    const body = identityBody();
    const first = await create(server, body);
    expect(first.status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const again = await create(server, { ...body, is_merchant: true });
      expect(again.status).toBe(repeatStatus);
      if (duplicateRefId === 'same') expect(again.json).toEqual(first.json);
    }
  });

  it('20 concurrent creates with one ref_id yield one identity', async () => {
    const body = identityBody();
    const replies = await Promise.all(Array.from({ length: 20 }, () => create(server, body)));
    const created = replies.filter((r) => r.status === 200);
    expect(new Set(created.map((r) => r.json.id)).size).toBe(1);
    expect(replies.filter((r) => r.status === 409).length).toBe(duplicateRefId === 'conflict' ? 19 : 0);
  });

  it('different ref_ids are different identities', async () => {
    const a = await create(server, identityBody({ ref_id: `a-${randomUUID()}` }));
    const b = await create(server, identityBody({ ref_id: `b-${randomUUID()}` }));
    expect(a.json.id).not.toBe(b.json.id);
  });
});

describe.each(['conflict', 'same'] as const)('a used ref_id in another letter case, reading %s', (duplicateRefId) => {
  it('is another identity with exact ref_ids, and refused (409) under case-insensitive uniqueness, never the other identity', async () => {
    for (const refIdCase of ['exact', 'insensitive'] as const) {
      const server = await createReferenceServer({ reading: { duplicateRefId, refIdCase } });
      try {
        const body = identityBody({ ref_id: `Case-${randomUUID()}` });
        const first = await create(server, body);
        const variant = await create(server, { ...body, ref_id: String(body.ref_id).toLowerCase() });
        const exact = await create(server, body);
        expect([first.status, variant.status]).toEqual([201, refIdCase === 'exact' ? 201 : 409]);
        if (variant.status === 201) expect(variant.json.id).not.toBe(first.json.id);
        // The exact ref_id again: the reading's answer to a repeat.
        expect(exact.status).toBe(duplicateRefId === 'conflict' ? 409 : 201);
      } finally {
        await server.close();
      }
    }
  });
});
