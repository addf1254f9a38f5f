/** PUT /v2/transfer/fiat-accounts/{id} on the faithful server: shapes per placement, metadata limits, merge. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReferenceServer, type ReferenceServer } from '../../src/server/server.ts';
import { registry } from '../../src/schema/registry.ts';
import type { Reading } from '../../src/server/reading.ts';
import { nested, pairs, update } from './http-client.ts';

const RFC3339_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const WIRE = {
  account_number: '987654321',
  fiat_account_owner_address: { country: 'USA', address1: '2 Side St', address2: '', city: 'Austin', province: 'TX', zip_code: '73301' },
};

describe.each<Reading['placement']>(['nested', 'top', 'both'])('a valid update, placement %s', (placement) => {
  let server: ReferenceServer;
  beforeAll(async () => {
    server = await createReferenceServer({ reading: { placement } });
  });
  afterAll(() => server.close());

  it('answers 200 with a FiatAccount that matches the schema and reflects the update', async () => {
    const id = server.fiatAccountIds[1];
    const sent = {
      fiat_account_owner: { person_details: { first_name: 'Zoë 中', last_name: '' } },
      fiat_network_instructions: { wire: WIRE },
      metadata: { note: 'é😀' },
    };
    const reply = await update(server, sent, {}, id);
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
    expect(registry().validate('fiat-account', reply.json)).toEqual([]);
    const body = reply.json;
    expect(body.id).toBe(id);
    expect(body.fiat_account_owner.person_details).toEqual({ first_name: 'Zoë 中', last_name: '' });
    expect(body.created_at).toMatch(RFC3339_UTC);
    expect(body.updated_at).toMatch(RFC3339_UTC);
    expect(Date.parse(body.updated_at)).toBeGreaterThanOrEqual(Date.parse(body.created_at));

    const placed = (o: any) => ({ status: o?.status, metadata: o?.metadata });
    const expected = { status: 'PENDING', metadata: { note: 'é😀' } };
    const absent = { status: undefined, metadata: undefined };
    expect(placed(nested(body))).toEqual(placement === 'top' ? absent : expected);
    expect(placed(body)).toEqual(placement === 'nested' ? absent : expected);
    // The top placement brings a top-level fiat_network_instructions; the sample's nested one has none.
    expect(body.fiat_network_instructions !== undefined).toBe(placement !== 'nested');
    const wire = (placement === 'nested' ? body.fiat_account_owner.fiat_network_instructions : body.fiat_network_instructions).wire;
    expect(wire.account_number).toBe('987654321');
    expect(wire.routing_details.routing_number_type).toBe('ABA'); // merged into, not replaced
  });
});

describe('metadata limits (section 8), characters counted as code points', () => {
  let server: ReferenceServer;
  beforeAll(async () => {
    server = await createReferenceServer();
  });
  afterAll(() => server.close());

  it('accepts 6 pairs and rejects 7', async () => {
    expect((await update(server, { metadata: pairs(6) })).status).toBe(200);
    const seven = await update(server, { metadata: pairs(7) });
    expect(seven.status).toBe(400);
    expect(seven.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(seven.json.errors.some((e: { instancePath: string }) => e.instancePath === '/metadata')).toBe(true);
  });

  it.each([
    ['ASCII', 'a'],
    ['é (2 UTF-8 bytes)', 'é'],
    ['中 (3 UTF-8 bytes)', '中'],
    ['😀 (2 UTF-16 units)', '😀'],
  ])('%s: keys and values of 100 accepted, 101 rejected', async (_name, char) => {
    const at = char.repeat(100);
    const over = char.repeat(101);
    expect((await update(server, { metadata: { [at]: at } })).status).toBe(200);
    expect((await update(server, { metadata: { k: over } })).status).toBe(400);
    expect((await update(server, { metadata: { [over]: 'v' } })).status).toBe(400);
  });

  it('returns exactly the stored pairs, and a refused update changes nothing', async () => {
    await update(server, { metadata: { a: '1', b: '2' } });
    expect((await update(server, { metadata: pairs(8) })).status).toBe(400);
    expect(nested((await update(server, {})).json).metadata).toEqual({ a: '1', b: '2' });
  });
});

describe('metadata update readings', () => {
  it('replace: the sent object replaces the stored one', async () => {
    const server = await createReferenceServer({ reading: { metadataUpdate: 'replace' } });
    try {
      await update(server, { metadata: { a: '1' } });
      expect(nested((await update(server, { metadata: { b: '2' } })).json).metadata).toEqual({ b: '2' });
    } finally {
      await server.close();
    }
  });

  it("merge: keys are merged, and a merge past 6 pairs is rejected with the reading's status", async () => {
    const server = await createReferenceServer({ reading: { metadataUpdate: 'merge', rejectStatus: 422 } });
    try {
      await update(server, { metadata: { a: '1', b: '2' } });
      expect(nested((await update(server, { metadata: { b: '3', c: '4' } })).json).metadata).toEqual({ a: '1', b: '3', c: '4' });
      const over = await update(server, { metadata: { d: '', e: '', f: '', g: '' } });
      expect(over.status).toBe(422);
      expect(nested((await update(server, {})).json).metadata).toEqual({ a: '1', b: '3', c: '4' });
    } finally {
      await server.close();
    }
  });
});
