/**
 * The strict variant (`strict: true`): every restriction of strict-open-points.ts refuses what it
 * names, with the field and the reason, and only on open points: the plain server accepts every
 * value the strict one refuses, and the strict one accepts the samples and address2 "".
 */
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReferenceServer, type ReferenceServer, type ReferenceServerOptions } from '../../src/server/server.ts';
import { STRICT_GOVT_ID, STRICT_OPEN_POINTS, STRICT_RESTRICTIONS } from '../../src/server/strict-open-points.ts';
import { FAULTS } from '../../src/server/faults.ts';
import type { Operation } from '../../src/core/operations.ts';
import { create, identityBody, nested, pairs, update, type Reply } from './http-client.ts';

const sample = (name: string) => JSON.parse(readFileSync(new URL(`../../fixtures/samples/${name}.json`, import.meta.url), 'utf8'));
const NAME_RULE = "must match ^[0-9A-Za-z /?:().,&'+-]+$ and be at most 200 characters";
const day = (offset: number) => new Date(Date.now() + offset * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);

/** A body of `operation` with `value` at the dotted field of the table (an array's entry as []). */
function bodyWith(operation: Operation, field: string, value: unknown): Record<string, unknown> {
  const body: Record<string, unknown> = operation === 'createIdentity' ? identityBody() : {};
  let at: Record<string, unknown> = body;
  const segments = field.split('.');
  segments.forEach((segment, i) => {
    const last = i === segments.length - 1;
    if (segment.endsWith('[]')) {
      const entry = last ? value : { tax_payer_country: 'USA', tax_payer_id: '1' };
      at[segment.slice(0, -2)] = [entry];
      at = entry as Record<string, unknown>;
    } else if (last) {
      at[segment] = value;
    } else {
      at[segment] = { ...((at[segment] as object) ?? {}) };
      at = at[segment] as Record<string, unknown>;
    }
  });
  return body;
}

const send = (server: ReferenceServer, operation: Operation, body: unknown): Promise<Reply> =>
  operation === 'createIdentity' ? create(server, body) : update(server, body);

const namePair = (refused: unknown[], accepted: unknown[]) => ({ refused, accepted });
const NAMES = namePair(['', 'Zoë', '😀', 'a'.repeat(201), 'Ada\tLovelace', 'Ada_Lovelace'], ['a'.repeat(200), "O'Brien-Smith (Jr.), 2/3 & co: x? +1"]);
const ADDRESS_TEXT = namePair(['a'.repeat(36), 'Straße 1', '中村', 'a;b'], ['', 'a'.repeat(35), '1 Main St, Apt 2/3']);
const COUNTRY = namePair(['usa', 'Usa', 'US', 'US1', ''], ['USA', 'DEU']);
const ID_TEXT = (max: number) => namePair(['', 'é1', 'x'.repeat(max + 1)], ['123-45-6789', 'x'.repeat(max)]);
const METADATA = namePair([pairs(7), { k: 'a'.repeat(101) }, { ['k'.repeat(101)]: 'v' }], [pairs(6, 'é'.repeat(100)), {}, { n: 1 }]);

/** For each field of the table, values the strict variant refuses and values it accepts. */
const CASES: Record<string, { refused: unknown[]; accepted: unknown[] }> = {
  'fiat_account_owner.person_details.first_name': NAMES,
  'fiat_account_owner.person_details.last_name': NAMES,
  'fiat_network_instructions.wire.routing_details.routing_number_type': namePair(['aba', 'Swift', 'IBAN', ''], ['ABA', 'SWIFT']),
  'person_details.first_name': NAMES,
  'person_details.last_name': NAMES,
  'person_details.date_of_birth': namePair(['1899-12-31', '0004-02-29', day(2), '2999-01-01'], ['1900-01-01', '2000-02-29', day(-1)]),
  // The schema's email format (ajv's) is narrower than the vendor's pattern: it refuses first.
  'person_details.email': namePair([], ['ada@example.com', 'a.b+c@mail.example.org']),
  'person_details.phone_number': namePair(
    ['5551234567', '+0123456789', '+1 555 123 4567', '(555) 123-4567', '+123456', '+1234567890123456'],
    ['+15551234567', '+4420123456'],
  ),
  'person_details.cip_id': ID_TEXT(200),
  'person_details.cip_id_type': namePair(['ssn', 'EIN', 'NATIONAL_ID', ''], ['SSN', 'ID_CARD', 'ITIN', 'PASSPORT', 'DRIVING_LICENSE', 'VISA']),
  'person_details.cip_id_country': COUNTRY,
  'person_details.nationality': COUNTRY,
  'person_details.verifier_type': namePair(['passthrough', 'DOCUMENT', ''], ['PAXOS', 'PASSTHROUGH', 'MANUAL']),
  'person_details.metadata': METADATA,
  metadata: METADATA,
  'tax_details[]': namePair([{ tax_payer_country: 'USA' }, { tax_payer_id: '1' }, {}], [{ tax_payer_country: 'USA', tax_payer_id: '1' }]),
  'tax_details[].tax_payer_country': COUNTRY,
  'tax_details[].tax_payer_id': ID_TEXT(35),
};
for (const prefix of [
  'fiat_network_instructions.wire.fiat_account_owner_address',
  'fiat_network_instructions.wire.routing_details.bank_address',
  'person_details.address',
]) {
  CASES[`${prefix}.country`] = COUNTRY;
  for (const member of ['address1', 'address2', 'city', 'province', 'zip_code']) CASES[`${prefix}.${member}`] = ADDRESS_TEXT;
}

const servers: ReferenceServer[] = [];
const start = async (options: ReferenceServerOptions = {}) => {
  const server = await createReferenceServer(options);
  servers.push(server);
  return server;
};
afterAll(() => Promise.all(servers.map((s) => s.close())));

describe('the table of strict restrictions', () => {
  it('has a case for every field, and every field names its open kinds', () => {
    expect(Object.keys(CASES).sort()).toEqual(STRICT_OPEN_POINTS.map((p) => p.field).sort());
    for (const point of STRICT_OPEN_POINTS) expect(point.limits.length, point.field).toBeGreaterThan(0);
    expect(Object.keys(CASES).filter((field) => !CASES[field].refused.length)).toEqual(['person_details.email']);
  });

  it('lists each restriction in human terms, the government id included, fiat-account metadata not', () => {
    expect(STRICT_RESTRICTIONS).toContainEqual({
      operation: 'createIdentity',
      field: 'person_details.first_name',
      kind: 'length',
      limit: '1 to 200 characters',
    });
    expect(STRICT_RESTRICTIONS).toContainEqual({
      operation: 'updateFiatAccount',
      field: 'fiat_network_instructions.wire.routing_details.routing_number_type',
      kind: 'letter-case',
      limit: 'upper case, as listed',
    });
    expect(STRICT_RESTRICTIONS).toContainEqual(STRICT_GOVT_ID);
    expect(STRICT_RESTRICTIONS.filter((r) => r.operation === 'updateFiatAccount' && r.field.startsWith('metadata'))).toEqual([]);
    const keys = STRICT_RESTRICTIONS.map((r) => `${r.operation} ${r.field} ${r.kind}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe.each([400, 422] as const)('the strict variant, rejections with %i', (rejectStatus) => {
  let strict: ReferenceServer;
  let plain: ReferenceServer;
  beforeAll(async () => {
    [strict, plain] = await Promise.all([start({ strict: true, reading: { rejectStatus } }), start({ reading: { rejectStatus } })]);
  });

  it.each(STRICT_OPEN_POINTS.map((p) => [p.field, p] as const))('%s: refuses what it restricts (the plain server accepts it)', async (field, point) => {
    for (const value of CASES[field].refused) {
      const body = bodyWith(point.operation, field, value);
      const plainReply = await send(plain, point.operation, body);
      expect(plainReply.status, `plain ${JSON.stringify(value)}`).toBeLessThan(300);
      const reply = await send(strict, point.operation, { ...body, ...(point.operation === 'createIdentity' ? { ref_id: `s-${randomUUID()}` } : {}) });
      expect(reply.status, `strict ${JSON.stringify(value)}`).toBe(rejectStatus);
      expect(reply.headers['content-type']).toMatch(/^application\/json/);
      const leaf = field.split('.').at(-1)!;
      expect(reply.json).toEqual({
        error: 'invalid_field',
        field: field.replace('[]', '[0]'),
        message: leaf.endsWith('[]') ? `a ${leaf.slice(0, -2)} entry must ${point.rule}` : `${leaf} must ${point.rule}`,
      });
    }
  });

  it.each(STRICT_OPEN_POINTS.map((p) => [p.field, p] as const))('%s: accepts what its limit allows', async (field, point) => {
    for (const value of CASES[field].accepted) {
      const reply = await send(strict, point.operation, bodyWith(point.operation, field, value));
      expect(reply.status, `${JSON.stringify(value)}: ${reply.text}`).toBeLessThan(300);
    }
  });

  it('names the field and the reason, as the vendor would', async () => {
    const reply = await create(strict, identityBody({}, { first_name: '' }));
    expect(reply.json).toEqual({ error: 'invalid_field', field: 'person_details.first_name', message: `first_name ${NAME_RULE}` });
    const entry = await create(
      strict,
      identityBody({
        tax_details: [
          { tax_payer_country: 'USA', tax_payer_id: '1' },
          { tax_payer_country: 'usa', tax_payer_id: '2' },
        ],
      }),
    );
    expect(entry.json.field).toBe('tax_details[1].tax_payer_country');
  });

  it('accepts the document\'s samples, the update with the sample\'s wire instructions, and address2 "" everywhere', async () => {
    // A server of its own: the sample's cip_id is not yet held by another identity.
    const fresh = await start({ strict: true, reading: { rejectStatus } });
    const identity = sample('create-identity-request');
    expect((await create(fresh, identity)).status).toBeLessThan(300);
    expect((await update(fresh, sample('update-fiat-account-request'))).status).toBe(200);
    const wire = sample('fiat-account').fiat_account_owner.fiat_network_instructions.wire;
    expect(wire.fiat_account_owner_address.address2).toBe('');
    const updated = await update(fresh, { fiat_network_instructions: { wire }, metadata: { source: 'sample' } });
    expect(updated.status).toBe(200);
    expect(nested(updated.json).wire).toEqual(wire);
    const address = { ...identity.person_details.address, address2: '' };
    const reply = await create(fresh, identityBody({}, { address, cip_id: undefined }));
    expect(reply.status).toBeLessThan(300);
    expect(reply.json.person_details.address).toEqual(address);
  });

  it('accepts addresses without any member, and fiat-account metadata of 6 pairs of 100 characters in any script', async () => {
    expect((await create(strict, identityBody({}, { address: {} }))).status).toBeLessThan(300);
    expect((await create(strict, identityBody({}, { address: { address2: '' } }))).status).toBeLessThan(300);
    expect((await update(strict, { fiat_network_instructions: { wire: { fiat_account_owner_address: {} } } })).status).toBe(200);
    const scripts = { a: 'я'.repeat(100), b: '中'.repeat(100), c: '😀'.repeat(100), d: 'é'.repeat(100), e: 'ا'.repeat(100), ['ж'.repeat(100)]: '' };
    expect((await update(strict, { metadata: scripts })).status).toBe(200);
  });

  it("an email outside the vendor's pattern: the plain server takes any string (2.6 shows a placeholder), the strict one refuses it", async () => {
    for (const email of ['ada@example', 'ada.example.com', 'ada@@example.com']) {
      expect((await create(plain, identityBody({}, { email }))).status).toBeLessThan(300);
      const refused = await create(strict, identityBody({}, { email }));
      expect(refused.status).toBe(rejectStatus);
      expect(refused.json).toMatchObject({ error: 'invalid_field', field: 'person_details.email' });
    }
    expect((await create(strict, identityBody({}, { email: 'zoë@example.com' }))).status).toBeLessThan(300);
  });

  it("leaves wrong JSON types and impossible dates to the document's refusal (a problem document)", async () => {
    for (const body of [
      identityBody({}, { first_name: 7 }),
      identityBody({}, { date_of_birth: '1990-02-30' }),
      identityBody({ tax_details: [{ tax_payer_id: 1 }] }),
    ]) {
      const reply = await create(strict, body);
      expect(reply.status).toBe(rejectStatus);
      expect(reply.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(reply.json.errors.length).toBeGreaterThan(0);
    }
    const update7 = await update(strict, { fiat_account_owner: { person_details: { first_name: 7 } }, metadata: pairs(7) });
    expect(update7.headers['content-type']).toMatch(/^application\/problem\+json/);
  });
});

describe('one identity per government id (strict)', () => {
  it.each(['conflict', 'same'] as const)('a cip_id held by another ref_id, or by none, is a 409 (reading %s)', async (duplicateRefId) => {
    const s = await start({ strict: true, reading: { duplicateRefId } });
    const cip_id = '555-00-1234';
    const first = await create(s, identityBody({}, { cip_id }));
    expect(first.status).toBe(201);
    const other = await create(s, identityBody({}, { cip_id }));
    expect([other.status, other.json]).toEqual([
      409,
      { error: 'duplicate_govt_id', field: 'person_details.cip_id', message: `cip_id is already used by identity ${first.json.id}` },
    ]);
    const { ref_id: _none, ...withoutRefId } = identityBody({}, { cip_id });
    expect((await create(s, withoutRefId)).json.error).toBe('duplicate_govt_id');
  });

  it("a repeat of the ref_id that holds the cip_id gets the reading's answer, not the govt id refusal", async () => {
    for (const duplicateRefId of ['conflict', 'same'] as const) {
      const s = await start({ strict: true, reading: { duplicateRefId } });
      const body = identityBody({}, { cip_id: '555-00-9999' });
      const first = await create(s, body);
      const repeat = await create(s, body);
      if (duplicateRefId === 'conflict') expect([repeat.status, repeat.json.detail]).toEqual([409, expect.stringMatching(/^ref_id is already used/)]);
      else expect([repeat.status, repeat.json.id]).toEqual([201, first.json.id]);
    }
  });

  it('another cip_id, or none, is a new identity; the plain server lets cip_ids repeat', async () => {
    const s = await start({ strict: true });
    expect((await create(s, identityBody({}, { cip_id: '1' }))).status).toBe(201);
    expect((await create(s, identityBody({}, { cip_id: '2' }))).status).toBe(201);
    expect((await create(s, identityBody())).status).toBe(201);
    expect((await create(s, identityBody())).status).toBe(201);
    const plain = await start();
    for (let i = 0; i < 2; i++) expect((await create(plain, identityBody({}, { cip_id: '1' }))).status).toBe(201);
  });

  it('keeps a fault of ref_id uniqueness visible: a repeated ref_id under id-ref-id-not-unique creates again', async () => {
    const s = await start({ strict: true, fault: 'id-ref-id-not-unique' });
    const body = identityBody({}, { cip_id: '777-00-1234' });
    const [a, b] = [await create(s, body), await create(s, body)];
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.json.id).not.toBe(b.json.id);
    expect((await create(s, identityBody({}, { cip_id: '777-00-1234' }))).status).toBe(409);
  });
});

describe('the strict variant combines with every fault', () => {
  it.each(FAULTS.map((f) => [f.name] as const))('%s: the samples get the same status as on the plain server with the fault', async (fault) => {
    const [plain, strict] = await Promise.all([start({ fault }), start({ fault, strict: true })]);
    expect(strict.strict).toBe(true);
    const statusOf = (s: ReferenceServer, operation: Operation, body: unknown) =>
      send(s, operation, body).then(
        (r) => r.status,
        () => 'connection dropped',
      );
    for (const [operation, body] of [
      ['createIdentity', sample('create-identity-request')],
      ['updateFiatAccount', sample('update-fiat-account-request')],
    ] as const) {
      expect(await statusOf(strict, operation, body), `${fault} ${operation}`).toBe(await statusOf(plain, operation, body));
    }
  });
});
