/**
 * The sandbox target itself, with plain fetch: it is the tool that proves the harness a careful
 * guest (issue 29), so each behaviour and each fault it models must be right.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSandboxTarget, type SandboxAccount, type SandboxOptions, type SandboxRequest, type SandboxTarget } from './sandbox-target.ts';

const started: SandboxTarget[] = [];
const start = async (options: SandboxOptions = {}) => {
  const target = await startSandboxTarget(options);
  started.push(target);
  return target;
};
afterEach(async () => {
  await Promise.all(started.splice(0).map((t) => t.close()));
});

interface Reply {
  status: number;
  headers: Headers;
  json: any;
}

/** One request; `body` a value sent as JSON, or a string sent as it is; `token` null sends no Authorization. */
async function call(t: SandboxTarget, method: string, path: string, body?: unknown, token: string | null = t.token): Promise<Reply> {
  const response = await fetch(t.baseUrl + path, {
    method,
    headers: { 'content-type': 'application/json', ...(token !== null ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : undefined };
}
const accountPath = (id: string) => `/v2/transfer/fiat-accounts/${id}`;
const get = (t: SandboxTarget, id = t.accountIds[0]) => call(t, 'GET', accountPath(id));
const put = (t: SandboxTarget, body: unknown, id = t.accountIds[0]) => call(t, 'PUT', accountPath(id), body);
const create = (t: SandboxTarget, body: unknown) => call(t, 'POST', '/v2/identity/identities', body);
const pairs = (n: number, prefix = 'k') => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i + 1}`, `v${i + 1}`]));
/** The record without its update time: what a restore must give back. */
const content = ({ updated_at: _updated, ...rest }: SandboxAccount) => rest;

describe('accounts and their shape', () => {
  it('answers a GET as the sample places it: client metadata at the top, the instructions with status and an integer counter inside fiat_account_owner', async () => {
    const t = await start();
    const { status, json } = await get(t);
    expect(status).toBe(200);
    expect(json).toEqual({
      id: t.accountIds[0],
      created_at: expect.any(String),
      updated_at: expect.any(String),
      metadata: { cost_center: 'cc-1' },
      fiat_account_owner: {
        person_details: { first_name: 'Jane', last_name: 'Doe' },
        fiat_network_instructions: {
          wire: {
            account_number: '000123456700',
            fiat_account_owner_address: { country: 'USA', address1: '1 Main Street', address2: '', city: 'Springfield', province: 'IL', zip_code: '62701' },
            routing_details: {
              routing_number_type: 'ABA',
              routing_number: '021000021',
              bank_name: 'Example Bank',
              bank_address: { country: 'USA', address1: '100 Bank Plaza', address2: '', city: 'New York', province: 'NY', zip_code: '10001' },
            },
          },
          status: 'APPROVED',
          metadata: { source: 'sample', attempt: 1 },
        },
      },
    });
    expect(t.accountIds).toHaveLength(2);
    expect(t.accountIds[0]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('placement top: status and fiat_network_instructions at the top level', async () => {
    const t = await start({ placement: 'top' });
    const { json } = await get(t);
    expect(json.status).toBe('APPROVED');
    expect(json.fiat_network_instructions.metadata).toEqual({ source: 'sample', attempt: 1 });
    expect(json.fiat_network_instructions.wire.account_number).toBe('000123456700');
    expect(json.fiat_account_owner).toEqual({ person_details: { first_name: 'Jane', last_name: 'Doe' } });
  });

  it('seeds accounts as given, an integer client value, six pairs already', async () => {
    const id = '11111111-2222-4333-8444-555555555555';
    const t = await start({ accounts: [{ id, metadata: pairs(6) }, {}], integerClientValue: true });
    expect(t.accountIds[0]).toBe(id);
    expect((await get(t, id)).json.metadata).toEqual(pairs(6));
    expect((await get(t, t.accountIds[1])).json.metadata).toEqual({ cost_center: 'cc-2', priority: 3 });
  });

  it.each([
    [405, { get: false }],
    [404, { get: false, getMissing: 404 as const }],
  ])('without the GET route a GET gets %i', async (status, options) => {
    const t = await start(options);
    const reply = await get(t);
    expect(reply.status).toBe(status);
    if (status === 405) expect(reply.headers.get('allow')).toBe('PUT');
    expect((await put(t, {})).status).toBe(200);
  });

  it('401 without the token or with another; 404 for an unknown or malformed account; 405 for another method', async () => {
    const t = await start({ token: 'static-token' });
    expect(t.token).toBe('static-token');
    expect((await call(t, 'GET', accountPath(t.accountIds[0]), undefined, null)).status).toBe(401);
    const wrong = await call(t, 'PUT', accountPath(t.accountIds[0]), {}, 'other');
    expect([wrong.status, wrong.headers.get('www-authenticate'), wrong.json.error]).toEqual([401, 'Bearer', 'unauthorized']);
    expect((await get(t, '0f8fad5b-d9cb-469f-a165-70867728950e')).status).toBe(404);
    expect((await put(t, {}, '0f8fad5b-d9cb-469f-a165-70867728950e')).status).toBe(404);
    expect((await put(t, {}, 'not-a-uuid')).status).toBe(404);
    expect((await call(t, 'DELETE', accountPath(t.accountIds[0]))).status).toBe(405);
    expect((await call(t, 'GET', '/v2/elsewhere')).status).toBe(404);
  });

  it('refuses a body that is not JSON or not an object with 400', async () => {
    const t = await start();
    expect((await put(t, '{')).status).toBe(400);
    expect((await put(t, [])).status).toBe(400);
    expect((await put(t, { fiat_account_owner: { person_details: { first_name: 42 } } })).status).toBe(400);
    expect((await put(t, { fiat_network_instructions: { wire: { routing_details: { routing_number: 21000021 } } } })).status).toBe(400);
  });

  it('snapshot is a deep copy; set changes the account behind the harness, and a GET shows it', async () => {
    const t = await start();
    const before = t.snapshot(t.accountIds[0]);
    before.metadata.cost_center = 'mine';
    expect(t.snapshot(t.accountIds[0]).metadata.cost_center).toBe('cc-1');
    t.set(t.accountIds[0], { first_name: 'Other', metadata: { by: 'someone else' }, wire: undefined });
    const { json } = await get(t);
    expect(json.fiat_account_owner.person_details.first_name).toBe('Other');
    expect(json.metadata).toEqual({ by: 'someone else' });
    expect(json.fiat_account_owner.fiat_network_instructions.wire).toBeUndefined();
    expect(t.snapshot(t.accountIds[0]).updated_at > before.updated_at).toBe(true);
  });
});

describe('the documented limits, counted in code points', () => {
  it('6 pairs of 100-character keys and values are accepted; a 7th pair, or 101 characters, is 400 with a JSON error, and nothing stored', async () => {
    const t = await start();
    const hundred = '😀'.repeat(100);
    expect((await put(t, { metadata: { [hundred]: hundred, ...pairs(5) } })).status).toBe(200);
    const before = t.snapshot(t.accountIds[0]);
    for (const metadata of [pairs(7), { [`${hundred}a`]: 'v' }, { k: `${hundred}😀` }]) {
      const reply = await put(t, { metadata });
      expect(reply.status).toBe(400);
      expect(reply.json).toEqual({ error: 'bad_request', message: expect.any(String) });
    }
    expect(t.snapshot(t.accountIds[0])).toEqual(before);
  });
});

describe('update semantics', () => {
  it('patch (default): fields absent from the body are kept, so PUT {} changes nothing but updated_at', async () => {
    const t = await start();
    const before = t.snapshot(t.accountIds[0]);
    const reply = await put(t, {});
    expect(reply.status).toBe(200);
    expect(reply.json.updated_at > before.updated_at).toBe(true);
    expect(content(t.snapshot(t.accountIds[0]))).toEqual(content(before));
    await put(t, {
      fiat_account_owner: { person_details: { first_name: 'Ada' } },
      fiat_network_instructions: { wire: { routing_details: { bank_name: 'B' } } },
    });
    const after = t.snapshot(t.accountIds[0]);
    expect([after.first_name, after.last_name]).toEqual(['Ada', 'Doe']);
    expect((after.wire as any).routing_details).toMatchObject({ bank_name: 'B', routing_number: '021000021' });
    expect(after.metadata).toEqual({ cost_center: 'cc-1' });
  });

  it('replace: PUT {} wipes owner names, client metadata and wire (status and the instructions metadata are the server’s and stay)', async () => {
    const t = await start({ update: 'replace' });
    const reply = await put(t, {});
    expect(reply.status).toBe(200);
    expect(reply.json.fiat_account_owner).toEqual({ fiat_network_instructions: { status: 'APPROVED', metadata: { source: 'sample', attempt: 1 } } });
    expect(reply.json.metadata).toEqual({});
    const after = t.snapshot(t.accountIds[0]);
    expect(after.first_name).toBeUndefined();
    expect(after.wire).toBeUndefined();
    await put(t, { fiat_account_owner: { person_details: { first_name: 'Ada' } } });
    expect([t.snapshot(t.accountIds[0]).first_name, t.snapshot(t.accountIds[0]).last_name]).toEqual(['Ada', undefined]);
  });

  it('metadata replace (default): the sent map is the new map', async () => {
    const t = await start();
    expect((await put(t, { metadata: { a: '1' } })).json.metadata).toEqual({ a: '1' });
  });

  it('metadata merge: sent pairs join the stored ones; the 7th key is refused ("metadata would exceed 6 pairs") and nothing changes', async () => {
    const t = await start({ metadata: 'merge', accounts: [{ metadata: pairs(4, 'old') }] });
    expect((await put(t, { metadata: { a: '1', old1: 'changed' } })).json.metadata).toEqual({ ...pairs(4, 'old'), old1: 'changed', a: '1' });
    const before = t.snapshot(t.accountIds[0]);
    const reply = await put(t, { metadata: { b: '2', c: '3' } });
    expect(reply.status).toBe(400);
    expect(reply.json.message).toBe('metadata would exceed 6 pairs');
    expect(t.snapshot(t.accountIds[0])).toEqual(before);
    expect((await put(t, { metadata: { b: '2' } })).status).toBe(200);
    expect(Object.keys(t.snapshot(t.accountIds[0]).metadata)).toHaveLength(6);
    // a full account takes a change of a key it holds
    expect((await put(t, { metadata: { a: 'again' } })).status).toBe(200);
  });

  it('merge without a delete option: neither a null value nor {} removes a key', async () => {
    const t = await start({ metadata: 'merge' });
    expect((await put(t, { metadata: { cost_center: null } })).json.metadata).toEqual({ cost_center: 'cc-1' });
    expect((await put(t, { metadata: {} })).json.metadata).toEqual({ cost_center: 'cc-1' });
  });

  it('merge with null-value delete: {"k": null} removes k', async () => {
    const t = await start({ metadata: 'merge', metadataDelete: 'null-value', accounts: [{ metadata: { a: '1', b: '2' } }] });
    expect((await put(t, { metadata: { a: null, c: '3' } })).json.metadata).toEqual({ b: '2', c: '3' });
    expect((await put(t, { metadata: {} })).json.metadata).toEqual({ b: '2', c: '3' });
  });

  it('merge with empty-object delete: metadata {} clears every pair', async () => {
    const t = await start({ metadata: 'merge', metadataDelete: 'empty-object', accounts: [{ metadata: { a: '1', b: '2' } }] });
    expect((await put(t, { metadata: { a: null } })).json.metadata).toEqual({ a: '1', b: '2' });
    expect((await put(t, { metadata: {} })).json.metadata).toEqual({});
  });

  it('blanks ignored (default): nulls and empty strings count as absent', async () => {
    const t = await start();
    const reply = await put(t, {
      fiat_account_owner: { person_details: { first_name: null, last_name: '' } },
      fiat_network_instructions: { wire: { account_number: '', routing_details: { bank_name: null } } },
      metadata: { a: '', b: '2' },
    });
    expect(reply.status).toBe(200);
    const after = t.snapshot(t.accountIds[0]);
    expect([after.first_name, after.last_name]).toEqual(['Jane', 'Doe']);
    expect((after.wire as any).account_number).toBe('000123456700');
    expect((after.wire as any).routing_details.bank_name).toBe('Example Bank');
    expect(after.metadata).toEqual({ b: '2' });
  });

  it('blanks strict: a null is a wrong type (400), an empty string a value', async () => {
    const t = await start({ blanks: 'strict' });
    expect((await put(t, { fiat_account_owner: { person_details: { first_name: null } } })).status).toBe(400);
    expect((await put(t, { metadata: { a: null } })).status).toBe(400);
    expect((await put(t, { fiat_account_owner: { person_details: { last_name: '' } }, metadata: { a: '' } })).status).toBe(200);
    expect(t.snapshot(t.accountIds[0])).toMatchObject({ last_name: '', metadata: { a: '' } });
  });

  it('integer client metadata values: refused by default, stored as integers with integerMetadata', async () => {
    const refusing = await start({ integerClientValue: true });
    expect((await put(refusing, { metadata: { priority: 3 } })).status).toBe(400);
    const accepting = await start({ integerClientValue: true, integerMetadata: true });
    expect((await put(accepting, { metadata: { priority: 4 } })).json.metadata).toEqual({ priority: 4 });
    expect((await put(accepting, { metadata: { priority: 4.5 } })).status).toBe(400);
  });

  it('mask: account_number answered as ****1234 everywhere; its write-back refused (default) or stored as sent', async () => {
    const t = await start({ mask: true });
    expect((await get(t)).json.fiat_account_owner.fiat_network_instructions.wire.account_number).toBe('****6700');
    expect((await put(t, {})).json.fiat_account_owner.fiat_network_instructions.wire.account_number).toBe('****6700');
    expect((t.snapshot(t.accountIds[0]).wire as any).account_number).toBe('000123456700');
    expect((await put(t, { fiat_network_instructions: { wire: { account_number: '****6700' } } })).status).toBe(400);
    const storing = await start({ mask: true, maskWriteBack: 'store' });
    expect((await put(storing, { fiat_network_instructions: { wire: { account_number: '****6700' } } })).status).toBe(200);
    expect((storing.snapshot(storing.accountIds[0]).wire as any).account_number).toBe('****6700');
  });

  it('review: a change of the wire moves APPROVED to PENDING, and the client cannot set it back', async () => {
    const t = await start({ review: true });
    expect((await put(t, { fiat_account_owner: { person_details: { first_name: 'Ada' } } })).json.fiat_account_owner.fiat_network_instructions.status).toBe(
      'APPROVED',
    );
    // the same wire sent again is no change
    expect((await put(t, { fiat_network_instructions: { wire: { account_number: '000123456700' } } })).status).toBe(200);
    expect(t.snapshot(t.accountIds[0]).status).toBe('APPROVED');
    await put(t, { fiat_network_instructions: { wire: { account_number: '999' } } });
    expect(t.snapshot(t.accountIds[0]).status).toBe('PENDING');
    await put(t, { fiat_network_instructions: { wire: { account_number: '000123456700' }, status: 'APPROVED' }, status: 'APPROVED' });
    expect(t.snapshot(t.accountIds[0]).status).toBe('PENDING');
  });

  it('without review the status in a body is stored; an unknown status is 400', async () => {
    const t = await start();
    await put(t, { fiat_network_instructions: { status: 'REJECTED' } });
    expect(t.snapshot(t.accountIds[0]).status).toBe('REJECTED');
    expect((await put(t, { status: 'DONE' })).status).toBe(400);
  });

  it('takes the wire where the sample places it (a write-back of a read) as well as where section 4.1 sends it', async () => {
    const t = await start();
    await put(t, { fiat_account_owner: { fiat_network_instructions: { wire: { account_number: '42' } } } });
    expect((t.snapshot(t.accountIds[0]).wire as any).account_number).toBe('42');
  });

  it('the instructions metadata: the server’s and ignored by default; stored with instructionMetadata store', async () => {
    const ignoring = await start();
    await put(ignoring, { fiat_network_instructions: { metadata: { x: '1' } } });
    expect(ignoring.snapshot(ignoring.accountIds[0]).instruction_metadata).toEqual({ source: 'sample', attempt: 1 });
    const storing = await start({ instructionMetadata: 'store' });
    await put(storing, { fiat_account_owner: { fiat_network_instructions: { metadata: { source: 'sample', attempt: 2 } } } });
    expect(storing.snapshot(storing.accountIds[0]).instruction_metadata).toEqual({ source: 'sample', attempt: 2 });
  });

  it('updated_at moves on each accepted update, not on a refused one', async () => {
    const t = await start();
    const times = [t.snapshot(t.accountIds[0]).updated_at];
    for (let i = 0; i < 3; i++) times.push((await put(t, {})).json.updated_at);
    expect(new Set(times).size).toBe(4);
    expect([...times].sort()).toEqual(times);
    await put(t, { metadata: pairs(7) });
    expect(t.snapshot(t.accountIds[0]).updated_at).toBe(times[3]);
  });
});

describe('identity create', () => {
  it('creates with a UUID id and status PENDING; a repeated ref_id is 409; tax_details required unless not required', async () => {
    const t = await start();
    const body = { ref_id: 'r-1', tax_details_not_required: true, person_details: { first_name: 'Ada', date_of_birth: '1990-01-02', cip_id: '1' } };
    const created = await create(t, body);
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), ref_id: 'r-1', status: 'PENDING', created_at: expect.any(String) });
    expect(created.json.person_details).toMatchObject({ date_of_birth: '1990-01-02T00:00:00Z', govt_id: '1' });
    expect((await create(t, body)).status).toBe(409);
    expect((await create(t, { ref_id: 'r-2' })).status).toBe(400);
    expect((await create(t, { ref_id: 'r-3', tax_details_not_required: false })).status).toBe(400);
    expect((await create(t, { ref_id: 'r-4', tax_details: [{ tax_payer_country: 'USA', tax_payer_id: '1' }] })).status).toBe(200);
    expect(t.identities().map((i) => i.ref_id)).toEqual(['r-1', 'r-4']);
  });

  it.each([
    ['is_merchant a string', { is_merchant: 'true' }],
    ['ref_id a number', { ref_id: 12345 }],
    ['tax_details an object', { tax_details: { tax_payer_id: '1' } }],
    ['a tax_payer_id a number', { tax_details: [{ tax_payer_id: 1 }] }],
    ['first_name a number', { person_details: { first_name: 42 } }],
    ['an address zip_code a number', { person_details: { address: { zip_code: 10001 } } }],
    ['date_of_birth Feb 30', { person_details: { date_of_birth: '2001-02-30' } }],
    ['date_of_birth a number', { person_details: { date_of_birth: 19900101 } }],
  ])('refuses a create with %s (400)', async (_name, body) => {
    const t = await start();
    expect((await create(t, { tax_details_not_required: true, ...body })).status).toBe(400);
    expect(t.identities()).toEqual([]);
  });
});

describe('faults', () => {
  /** The first GET of account `id`: the restore's start read. */
  const firstGetOf = (id: string) => (r: SandboxRequest) => r.method === 'GET' && r.accountId === id && r.nth === 1;

  it('500 on the first GET of one account (its start read): that GET is 500, the next one and the other account answer; the log says so', async () => {
    const t = await start();
    const [a, b] = t.accountIds;
    const fault = t.inject({ match: firstGetOf(a), fault: '500' });
    expect((await get(t, b)).status).toBe(200);
    expect((await get(t, a)).status).toBe(500);
    expect((await get(t, a)).status).toBe(200);
    expect([fault.hits, fault.remaining]).toEqual([1, 0]);
    expect(t.log.map((e) => [e.method, e.accountId, e.nth, e.status, e.fault])).toEqual([
      ['GET', b, 1, 200, undefined],
      ['GET', a, 1, 500, '500'],
      ['GET', a, 2, 200, undefined],
    ]);
  });

  it('500 on a PUT is not applied; 500 afterApply is (a 500 after storing)', async () => {
    const t = await start({ faults: [{ match: (r) => r.method === 'PUT', fault: '500' }] });
    expect((await put(t, { metadata: { a: '1' } })).status).toBe(500);
    expect(t.snapshot(t.accountIds[0]).metadata).toEqual({ cost_center: 'cc-1' });
    t.inject({ match: (r) => r.method === 'PUT', fault: '500', afterApply: true });
    expect((await put(t, { metadata: { a: '1' } })).status).toBe(500);
    expect(t.snapshot(t.accountIds[0]).metadata).toEqual({ a: '1' });
  });

  it('429 with Retry-After, `times` times, not applied; then served', async () => {
    const t = await start();
    t.inject({ match: (r) => r.method === 'PUT' && (r.body as any)?.metadata !== undefined, fault: '429', times: 2, retryAfterSeconds: 3 });
    for (let i = 0; i < 2; i++) {
      const reply = await put(t, { metadata: { a: '1' } });
      expect([reply.status, reply.headers.get('retry-after')]).toEqual([429, '3']);
    }
    expect(t.snapshot(t.accountIds[0]).metadata).toEqual({ cost_center: 'cc-1' });
    expect((await put(t, {})).status).toBe(200); // a PUT without metadata never matched
    expect((await put(t, { metadata: { a: '1' } })).status).toBe(200);
    expect(t.snapshot(t.accountIds[0]).metadata).toEqual({ a: '1' });
  });

  it('reset destroys the socket: the request fails, not applied (applied with afterApply)', async () => {
    const t = await start();
    t.inject({ match: (r) => r.method === 'PUT', fault: 'reset' });
    await expect(put(t, { metadata: { a: '1' } })).rejects.toThrow();
    expect(t.snapshot(t.accountIds[0]).metadata).toEqual({ cost_center: 'cc-1' });
    t.inject({ match: (r) => r.method === 'PUT', fault: 'reset', afterApply: true });
    await expect(put(t, { metadata: { b: '2' } })).rejects.toThrow();
    expect(t.snapshot(t.accountIds[0]).metadata).toEqual({ b: '2' });
    expect(t.log.map((e) => [e.method, e.status, e.fault])).toEqual([
      ['PUT', undefined, 'reset'],
      ['PUT', undefined, 'reset'],
    ]);
  });

  it('hang never answers; close() cuts it and resolves', async () => {
    const t = await start({ faults: [{ match: (r) => r.method === 'GET', fault: 'hang' }] });
    let arrived!: () => void;
    const seen = new Promise<void>((resolve) => (arrived = resolve));
    t.onRequest(() => arrived());
    const pending = get(t);
    await seen;
    let settled = false;
    pending.then(
      () => (settled = true),
      () => (settled = true),
    );
    // Another request is answered while the GET hangs.
    expect((await put(t, {})).status).toBe(200);
    expect(settled).toBe(false);
    await t.close();
    await expect(pending).rejects.toThrow();
  });

  it('restart: away for restartMs (connections refused), then answers again on the same port with the same state', async () => {
    const t = await start();
    await put(t, { metadata: { kept: 'yes' } });
    t.inject({ match: (r) => r.method === 'GET', fault: 'restart', restartMs: 1500 });
    await expect(get(t)).rejects.toThrow();
    await expect(put(t, {})).rejects.toThrow();
    let reply: Reply | undefined;
    for (let i = 0; i < 100 && !reply; i++) {
      reply = await get(t).catch(() => undefined);
      if (!reply) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(reply?.status).toBe(200);
    expect(reply?.json.metadata).toEqual({ kept: 'yes' });
  });

  it('close() during a restart ends it: nothing listens again', async () => {
    const t = await start({ faults: [{ match: () => true, fault: 'restart', restartMs: 100 }] });
    await expect(get(t)).rejects.toThrow();
    await t.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await expect(get(t)).rejects.toThrow();
  });

  it('a removed fault no longer hits', async () => {
    const t = await start();
    const fault = t.inject({ match: () => true, fault: '500', times: 5 });
    expect((await get(t)).status).toBe(500);
    fault.remove();
    expect((await get(t)).status).toBe(200);
    expect([fault.hits, fault.remaining]).toEqual([1, 0]);
  });
});

describe('onRequest and the log', () => {
  it('an async listener holds the answer back until it settles (a slow target)', async () => {
    const t = await start();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let heard!: () => void;
    const arrived = new Promise<void>((resolve) => (heard = resolve));
    t.onRequest(async () => {
      heard();
      await gate;
    });
    let answered = false;
    const pending = get(t).then((reply) => ((answered = true), reply));
    await arrived;
    await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe(false);
    expect(t.log.at(-1)?.status).toBeUndefined();
    release();
    expect((await pending).status).toBe(200);
  });

  it('hears every request before it is handled, with its parsed body and nth; awaited; unsubscribed', async () => {
    const t = await start();
    const heard: unknown[] = [];
    const stop = t.onRequest(async (r) => {
      heard.push([r.method, r.path, r.accountId, r.body, r.nth]);
      // Someone else changes the account just before the harness's PUT is handled.
      if (r.method === 'PUT') t.set(r.accountId!, { last_name: 'Changed' });
    });
    await put(t, { metadata: { a: '1' } });
    await call(t, 'POST', '/v2/identity/identities?x=1', '{');
    stop();
    await get(t);
    const id = t.accountIds[0];
    expect(heard).toEqual([
      ['PUT', accountPath(id), id, { metadata: { a: '1' } }, 1],
      ['POST', '/v2/identity/identities', undefined, undefined, 1],
    ]);
    expect(t.snapshot(id)).toMatchObject({ last_name: 'Changed', metadata: { a: '1' } });
    expect(t.log.map((e) => [e.method, e.path, e.status])).toEqual([
      ['PUT', accountPath(id), 200],
      ['POST', '/v2/identity/identities', 400],
      ['GET', accountPath(id), 200],
    ]);
  });
});
