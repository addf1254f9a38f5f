/**
 * The foreign implementation itself: faithful, it accepts what the document allows (so a run
 * against it judges the harness, not this server's narrowness); each defect does what it names.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startForeignServer, type ForeignDefect, type ForeignServer } from './foreign-server.ts';
import { call as request } from '../server/http-client.ts';

/** A request to a foreign server with its token, another Authorization value, or none (null). */
const call = (server: ForeignServer, method: string, path: string, body: unknown, authorization: string | null = `Bearer ${server.token}`) =>
  request({ baseUrl: server.baseUrl, staticToken: server.token }, method, path, {
    body,
    token: null,
    ...(authorization !== null ? { headers: { authorization } } : {}),
  });

const create = (s: ForeignServer, body: unknown, authorization?: string | null) => call(s, 'POST', '/v2/identity/identities', body, authorization);
const update = (s: ForeignServer, body: unknown, id = s.accountIds[0]) => call(s, 'PUT', `/v2/transfer/fiat-accounts/${id}`, body);
const identity = (person: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  person_details: { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1990-01-01', ...person },
  tax_details_not_required: true,
  ref_id: `foreign-${randomUUID()}`,
  ...extra,
});
const ADDRESS = { country: 'USA', address1: '1 Main St', address2: '', city: 'Austin', province: 'TX', zip_code: '73301' };

const started: ForeignServer[] = [];
const start = async (defect: ForeignDefect = 'none', dieAfter?: number) => {
  const server = await startForeignServer(defect, dieAfter === undefined ? {} : { dieAfter });
  started.push(server);
  return server;
};
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.close()));
});

describe('the faithful foreign server accepts what the document allows', () => {
  it.each([
    ['long names', { first_name: '😀'.repeat(300), last_name: 'a'.repeat(300) }],
    ['empty names', { first_name: '', last_name: '' }],
    ['non-ASCII names', { first_name: 'Zoë', last_name: '中村' }],
    ['an empty address2', { address: ADDRESS }],
    ['lowercase kinds', { cip_id: '123-45-6789', cip_id_type: 'ssn', verifier_type: 'passthrough' }],
    ['Feb 29 of a leap year', { date_of_birth: '2000-02-29' }],
    ['Feb 29 of year 4', { date_of_birth: '0004-02-29' }],
    ['no names', { first_name: undefined, last_name: undefined }],
    ['nothing but a last name', { first_name: undefined, date_of_birth: undefined }],
  ])('a create with %s', async (_name, person) => {
    const s = await start();
    const reply = await create(s, identity(person));
    expect(reply.status).toBe(200);
    expect(reply.json.person_details).toMatchObject(Object.fromEntries(Object.entries(person).filter(([k, v]) => v !== undefined && k !== 'date_of_birth')));
  });

  it.each([[[{ tax_payer_country: 'USA' }]], [[{ tax_payer_id: '1' }]], [[{}]], [[]]])('tax_details %j', async (taxDetails) => {
    const s = await start();
    expect((await create(s, identity({}, { tax_details_not_required: false, tax_details: taxDetails }))).status).toBe(200);
  });

  it.each([[[{ tax_payer_id: 123 }]], [[{ tax_payer_country: null }]], [['USA']]])('refuses tax_details %j with 422', async (taxDetails) => {
    const s = await start();
    expect((await create(s, identity({}, { tax_details: taxDetails }))).status).toBe(422);
  });

  it.each([
    ['routing_number a number', { fiat_network_instructions: { wire: { routing_details: { routing_number: 21000021 } } } }],
    ['bank_address.city a number', { fiat_network_instructions: { wire: { routing_details: { bank_address: { city: 1 } } } } }],
    ['account_number an object', { fiat_network_instructions: { wire: { account_number: {} } } }],
    ['the owner address a string', { fiat_network_instructions: { wire: { fiat_account_owner_address: 'Main St' } } }],
    ['the instructions status a number', { fiat_network_instructions: { status: 1 } }],
  ])('refuses an update with %s', async (_name, body) => {
    const s = await start();
    expect((await update(s, body)).status).toBe(422);
  });

  it.each([[{ zip_code: 10001 }], [{ address2: null }], ['1 Main St']])('refuses a create with person_details.address %j', async (address) => {
    const s = await start();
    expect((await create(s, identity({ address }))).status).toBe(422);
  });

  it.each(['1900-02-29', '2023-02-29', '1990-02-30'])('refuses date_of_birth %s', async (dob) => {
    const s = await start();
    expect((await create(s, identity({ date_of_birth: dob }))).status).toBe(422);
  });

  it.each(['ABA', 'aba', 'Swift'])('an update with routing_number_type %s', async (kind) => {
    const s = await start();
    expect(
      (
        await update(s, {
          fiat_network_instructions: { wire: { routing_details: { routing_number_type: kind } } },
          fiat_account_owner: { person_details: { first_name: '' } },
        })
      ).status,
    ).toBe(200);
  });

  it.each([null, 'Bearer ', 'Bearer made-up', 'Basic dXNlcjpwYXNz'])('refuses Authorization %j with 401 and a Bearer challenge', async (authorization) => {
    const s = await start();
    const reply = await create(s, identity(), authorization);
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toBe('BEARER');
  });

  it('different ref_ids give different identities, a repeat the same one', async () => {
    const s = await start();
    const body = identity();
    const [a, b, again] = [await create(s, body), await create(s, identity()), await create(s, body)];
    expect(a.json.id).not.toBe(b.json.id);
    expect(again.json.id).toBe(a.json.id);
  });
});

describe('foreign defects', () => {
  it('dies-mid-run: answers N requests, then resets or refuses every one', async () => {
    const s = await start('dies-mid-run', 5);
    for (let i = 0; i < 5; i++) expect((await update(s, {})).status).toBe(200);
    await expect(update(s, {})).rejects.toThrow();
    await expect(create(s, identity())).rejects.toThrow();
  });

  it('dies-mid-run: 150 requests by default', async () => {
    const s = await start('dies-mid-run');
    for (let i = 0; i < 150; i++) expect((await update(s, {})).status).toBe(200);
    await expect(update(s, {})).rejects.toThrow();
  });

  it('near-empty-identity: creates come back as {id, summary_status}, repeats too', async () => {
    const s = await start('near-empty-identity');
    const body = identity();
    const first = await create(s, body);
    expect(first.status).toBe(200);
    expect(first.json).toEqual({ id: expect.any(String), summary_status: 'PENDING' });
    expect((await create(s, body)).json).toEqual(first.json);
  });

  it('refuses-most-creates: 422 for a non-ASCII name or an empty address2, ASCII creates pass', async () => {
    const s = await start('refuses-most-creates');
    for (const person of [{ first_name: 'Zoë' }, { last_name: '😀' }, { address: ADDRESS }]) {
      const reply = await create(s, identity(person));
      expect(reply.status).toBe(422);
      expect(reply.json).toEqual({ error: 'first_name must be ASCII' });
    }
    expect((await create(s, identity({ address: { ...ADDRESS, address2: 'Apt 2' } }))).status).toBe(200);
  });

  it('same-identity: every create gets the first identity', async () => {
    const s = await start('same-identity');
    const first = await create(s, identity());
    const other = await create(s, identity({ first_name: 'Grace' }));
    expect(other.status).toBe(200);
    expect(other.json).toEqual(first.json);
  });

  it.each([
    ['counts-utf16', async (s: ForeignServer) => (await update(s, { metadata: { k: '😀'.repeat(100) } })).status, 422],
    ['lowercase-status', async (s: ForeignServer) => (await update(s, {})).json.status, 'pending'],
    [
      'second-identity',
      async (s: ForeignServer) => {
        const body = identity();
        const first = (await create(s, body)).json.id;
        const second = (await create(s, body)).json.id;
        return first === second;
      },
      false,
    ],
  ] as const)('%s still works', async (defect, probe, faulty) => {
    const [faithful, broken] = [await start(), await start(defect)];
    expect(await probe(faithful)).not.toEqual(faulty);
    expect(await probe(broken)).toEqual(faulty);
  });
});
