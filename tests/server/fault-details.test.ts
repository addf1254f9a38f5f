/**
 * Details of faults that one probe (faults.test.ts) does not pin down: what stays faithful next
 * to the defect, in every reading it could hide behind.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createReferenceServer, type ReferenceServer, type ReferenceServerOptions } from '../../src/server/server.ts';
import { FAULTS } from '../../src/server/faults.ts';
import { accountPath, call, create, identityBody, pairs, update } from './http-client.ts';

async function withServer(options: ReferenceServerOptions, test: (server: ReferenceServer) => Promise<void>): Promise<void> {
  const server = await createReferenceServer(options);
  try {
    await test(server);
  } finally {
    await server.close();
  }
}

describe('fault details', () => {
  it('dies-mid-run: answers 150 requests of any kind, then nothing, and still closes cleanly', async () => {
    await withServer({ fault: 'dies-mid-run' }, async (s) => {
      for (let i = 0; i < 75; i++) {
        expect((await update(s, {})).status).toBe(200);
        expect((await create(s, identityBody())).status).toBe(201);
      }
      await expect(create(s, identityBody())).rejects.toThrow();
      await expect(call(s, 'GET', '/v2/nothing')).rejects.toThrow();
    });
  });

  it.each(['conflict', 'same'] as const)(
    'id-same-identity: a new ref_id gets the first identity with the created status (reading %s)',
    async (duplicateRefId) => {
      await withServer({ fault: 'id-same-identity', reading: { duplicateRefId } }, async (s) => {
        const first = await create(s, identityBody());
        const second = await create(s, identityBody({ ref_id: `x-${randomUUID()}` }, { first_name: 'Grace' }));
        expect(second.status).toBe(201);
        expect(second.json).toEqual(first.json);
      });
    },
  );

  it.each(['conflict', 'same'] as const)(
    'id-duplicate-bad-timestamp: only the repeat loses the offset, the stored identity keeps it (reading %s)',
    async (duplicateRefId) => {
      await withServer({ fault: 'id-duplicate-bad-timestamp', reading: { duplicateRefId } }, async (s) => {
        const body = identityBody();
        const first = await create(s, body);
        const [again, third] = [await create(s, body), await create(s, body)];
        expect(first.json.created_at).toMatch(/Z$/);
        for (const repeat of [again, third]) {
          expect(repeat.status).toBe(201);
          expect(repeat.json).toEqual({ ...first.json, created_at: first.json.created_at.slice(0, 19) });
        }
      });
    },
  );

  it('id-ref-id-remembers-last: ref_ids are still told apart per API user', async () => {
    await withServer({ fault: 'id-ref-id-remembers-last', reading: { duplicateRefId: 'same' } }, async (s) => {
      const a = identityBody();
      const first = await create(s, a);
      expect((await create(s, a)).json.id).toBe(first.json.id);
      await create(s, identityBody());
      expect((await create(s, a)).json.id).not.toBe(first.json.id);
    });
  });

  it('fa-500-always: the empty update, an unknown account and a missing token keep their faithful answers', async () => {
    await withServer({ fault: 'fa-500-always' }, async (s) => {
      expect((await update(s, {})).status).toBe(200);
      expect((await update(s, { metadata: {} }, {}, randomUUID())).status).toBe(404);
      expect((await update(s, { metadata: {} }, { token: null })).status).toBe(401);
      expect((await call(s, 'PUT', accountPath(s.fiatAccountIds[0]), { raw: '{' })).status).toBe(400);
      const crashed = await update(s, { metadata: pairs(7) });
      expect([crashed.status, crashed.json]).toEqual([500, { error: 'internal' }]);
      expect((await create(s, identityBody())).status).toBe(201);
    });
  });

  it.each([400, 422] as const)('id-long-name-rejected and fa-routing-type-case-sensitive refuse with 422 whatever the reading (%i)', async (rejectStatus) => {
    await withServer({ fault: 'id-long-name-rejected', reading: { rejectStatus } }, async (s) => {
      const reply = await create(s, identityBody({}, { last_name: 'x'.repeat(65) }));
      expect(reply.status).toBe(422);
      expect(reply.json.errors).toEqual([{ instancePath: '/person_details/last_name', message: 'must be at most 64 characters' }]);
      expect((await create(s, identityBody({ is_merchant: 'yes' }))).status).toBe(rejectStatus);
    });
    await withServer({ fault: 'fa-routing-type-case-sensitive', reading: { rejectStatus } }, async (s) => {
      const reply = await update(s, { fiat_network_instructions: { wire: { routing_details: { routing_number_type: 'ABA' } } } });
      expect(reply.status).toBe(422);
      expect(JSON.stringify(reply.json)).toContain('unsupported routing_number_type');
    });
  });

  it('id-tax-entry-types-unchecked: the tax rule and every other type are still checked', async () => {
    await withServer({ fault: 'id-tax-entry-types-unchecked' }, async (s) => {
      const { tax_details_not_required: _flag, ...noTax } = identityBody();
      expect((await create(s, noTax)).status).toBe(400);
      expect((await create(s, identityBody({ tax_details: [1] }))).status).toBe(400);
      expect((await create(s, identityBody({}, { first_name: 7 }))).status).toBe(400);
      expect((await create(s, identityBody({ tax_details: [{ tax_payer_id: 123, tax_payer_country: false }] }))).status).toBe(201);
    });
  });

  it('id-wrong-types-accepted now lets wrong types inside tax_details entries through too', async () => {
    await withServer({ fault: 'id-wrong-types-accepted' }, async (s) => {
      expect((await create(s, identityBody({ tax_details: [{ tax_payer_id: 123 }] }))).status).toBe(201);
    });
  });

  it('id-govt-id-internal-mismatch: with a cip_id sent, the answer is faithful', async () => {
    await withServer({ fault: 'id-govt-id-internal-mismatch' }, async (s) => {
      const sent = await create(s, identityBody({}, { cip_id: '555-00-1234', cip_id_type: 'SSN' }));
      expect(sent.json.person_details).toMatchObject({ cip_id: '555-00-1234', govt_id: '555-00-1234', govt_id_type: 'SSN' });
      const none = await create(s, identityBody());
      expect(none.json.person_details.govt_id).not.toBe(none.json.person_details.cip_id);
    });
  });

  it('id-empty-bearer-accepted and fa-basic-scheme-accepted let nothing else through', async () => {
    await withServer({ fault: 'id-empty-bearer-accepted' }, async (s) => {
      expect((await create(s, identityBody(), { token: null })).status).toBe(401);
      expect((await create(s, identityBody(), { token: 'made-up' })).status).toBe(401);
      expect((await create(s, identityBody(), { token: null, headers: { authorization: 'Basic eDp5' } })).status).toBe(401);
    });
    await withServer({ fault: 'fa-basic-scheme-accepted' }, async (s) => {
      expect((await update(s, {}, { token: null })).status).toBe(401);
      expect((await update(s, {}, { token: '' })).status).toBe(401);
      expect((await update(s, {}, { token: null, headers: { authorization: 'Basic eDp5' } })).status).toBe(200);
    });
  });

  it.each([400, 422] as const)(
    "the contradiction faults refuse with the reading's status (%i), on the plain and the strict server, and name where",
    async (rejectStatus) => {
      for (const strict of [false, true]) {
        await withServer({ fault: 'address2-empty-refused', reading: { rejectStatus }, strict }, async (s) => {
          const reply = await update(s, { fiat_network_instructions: { wire: { routing_details: { bank_address: { address2: '' } } } } });
          expect(reply.status).toBe(rejectStatus);
          expect(reply.json.errors).toEqual([
            { instancePath: '/fiat_network_instructions/wire/routing_details/bank_address/address2', message: 'must not be empty' },
          ]);
        });
        await withServer({ fault: 'id-address-members-required', reading: { rejectStatus }, strict }, async (s) => {
          const reply = await create(s, identityBody({}, { address: { country: 'USA', address1: '1 Main St' } }));
          expect(reply.status).toBe(rejectStatus);
          expect(reply.json.errors.map((e: { message: string }) => e.message)).toEqual(["must have required properties 'city', 'province'"]);
        });
        await withServer({ fault: 'fa-owner-both-names-required', reading: { rejectStatus }, strict }, async (s) => {
          const reply = await update(s, { fiat_account_owner: { person_details: { last_name: 'Lovelace' } } });
          expect(reply.status).toBe(rejectStatus);
          expect(reply.json.errors).toEqual([{ instancePath: '/fiat_account_owner/person_details', message: "must have required property 'first_name'" }]);
        });
      }
    },
  );

  it('id-astral-name-500: the plain server fails on storing an astral name; the strict one refuses it first, so it never shows there', async () => {
    await withServer({ fault: 'id-astral-name-500' }, async (s) => {
      expect((await create(s, identityBody({}, { first_name: '😀' }))).status).toBe(500);
      expect((await create(s, identityBody({ metadata: { k: '😀' } }))).status).toBe(201);
    });
    await withServer({ fault: 'id-astral-name-500', strict: true }, async (s) => {
      const reply = await create(s, identityBody({}, { first_name: '😀' }));
      expect([reply.status, reply.json.field]).toEqual([400, 'person_details.first_name']);
    });
    expect(FAULTS.filter((f) => f.hiddenByStrict).map((f) => f.name)).toEqual(['id-astral-name-500', 'id-combining-marks-stripped', 'id-dob-far-date-500']);
  });

  it('id-combining-marks-stripped and id-dob-far-date-500 show on the plain server; the strict one refuses their values first', async () => {
    const decomposed = identityBody({}, { first_name: 'Zoe\u0308' });
    const farDate = identityBody({}, { date_of_birth: '0001-01-01' });
    await withServer({ fault: 'id-combining-marks-stripped' }, async (s) => expect((await create(s, decomposed)).json.person_details.first_name).toBe('Zoe'));
    await withServer({ fault: 'id-dob-far-date-500' }, async (s) => expect((await create(s, farDate)).status).toBe(500));
    for (const [fault, body, field] of [
      ['id-combining-marks-stripped', decomposed, 'person_details.first_name'],
      ['id-dob-far-date-500', farDate, 'person_details.date_of_birth'],
    ] as const) {
      await withServer({ fault, strict: true }, async (s) => {
        const reply = await create(s, body);
        expect([reply.status, reply.json.field]).toEqual([400, field]);
      });
    }
  });
});
