/** Bad input gets a clear 4xx problem answer, never a 5xx, never a crash (section 7 conventions). */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createReferenceServer, type ReferenceServer } from '../../src/server/server.ts';
import { accountPath, call, create, IDENTITIES, identityBody, update } from './http-client.ts';

/** Sends `size` bytes without a Content-Length (chunked), so the server must count while reading. */
function chunkedPut(server: ReferenceServer, path: string, size: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${server.baseUrl}${path}`,
      { method: 'PUT', agent: false, headers: { authorization: `Bearer ${server.staticToken}`, 'transfer-encoding': 'chunked' } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    for (let sent = 0; sent < size; sent += chunk.length) req.write(chunk);
    req.end();
  });
}

describe.each([400, 422] as const)('bad input, rejections with %i', (rejectStatus) => {
  let server: ReferenceServer;
  beforeAll(async () => {
    server = await createReferenceServer({ reading: { rejectStatus } });
  });
  afterAll(() => server.close());

  const expectProblem = (reply: { status: number; headers: http.IncomingHttpHeaders; json: any }, status: number) => {
    expect(reply.status).toBe(status);
    expect(reply.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(reply.json).toMatchObject({ type: expect.any(String), title: expect.any(String), status, detail: expect.any(String) });
  };

  it.each(['{', '{"metadata": }', '', '\u00ff'])('malformed JSON %j gets 400 on both operations', async (raw) => {
    expectProblem(await call(server, 'PUT', accountPath(server.fiatAccountIds[0]), { raw }), 400);
    expectProblem(await call(server, 'POST', IDENTITIES, { raw }), 400);
  });

  it('bytes that are not UTF-8 get 400', async () => {
    expectProblem(await call(server, 'PUT', accountPath(server.fiatAccountIds[0]), { raw: Buffer.from([0x7b, 0xff, 0x7d]) }), 400);
  });

  it.each([[[]], ['text'], [null], [42]])('a body that is not an object (%j) gets the rejection status', async (body) => {
    expectProblem(await update(server, body), rejectStatus);
    expectProblem(await create(server, body), rejectStatus);
  });

  it('a body nested too deeply gets the rejection status', async () => {
    const deep = '{"metadata":' + '['.repeat(10_000) + ']'.repeat(10_000) + '}';
    expectProblem(await call(server, 'PUT', accountPath(server.fiatAccountIds[0]), { raw: deep }), rejectStatus);
  });

  it.each([
    ['metadata as a string', { metadata: 'x' }],
    ['metadata as an array', { metadata: ['x'] }],
    ['metadata as a number', { metadata: 1 }],
    ['a metadata value as an object', { metadata: { k: { v: 1 } } }],
    ['first_name as a number', { fiat_account_owner: { person_details: { first_name: 1 } } }],
    ['fiat_account_owner as a string', { fiat_account_owner: 'Ada' }],
  ])('an update with %s gets the rejection status with errors', async (_name, body) => {
    const reply = await update(server, body);
    expectProblem(reply, rejectStatus);
    expect(reply.json.errors.length).toBeGreaterThan(0);
  });

  it('a Content-Length over 1 MiB gets 413 without the body being read', async () => {
    const big = JSON.stringify({ metadata: { k: 'x'.repeat(1024 * 1024 + 10) } });
    expectProblem(await call(server, 'PUT', accountPath(server.fiatAccountIds[0]), { raw: big }), 413);
    expectProblem(await call(server, 'POST', IDENTITIES, { raw: big }), 413);
  });

  it('a chunked body over 1 MiB gets 413, and the server still answers afterwards', async () => {
    expect(await chunkedPut(server, accountPath(server.fiatAccountIds[0]), 3 * 1024 * 1024)).toBe(413);
    expect((await update(server, {})).status).toBe(200);
  });

  it('a body of just under 1 MiB is read (and judged)', async () => {
    const body = JSON.stringify({ metadata: {} }) + ' '.repeat(1024 * 1024 - 20);
    expect((await call(server, 'PUT', accountPath(server.fiatAccountIds[0]), { raw: body })).status).toBe(200);
  });

  it.each(['/', '/v2', '/v2/transfer/fiat-accounts', '/v2/identity/identities/x', '/v3/identity/identities'])('unknown route %s gets 404', async (path) => {
    expectProblem(await call(server, 'GET', path), 404);
  });

  it('an unknown /v2 route without a token gets 401 (credentials first)', async () => {
    expect((await call(server, 'GET', '/v2/nothing', { token: null })).status).toBe(401);
  });

  it.each([
    ['POST', () => accountPath(server.fiatAccountIds[0]), 'GET, PUT'],
    ['DELETE', () => accountPath(server.fiatAccountIds[0]), 'GET, PUT'],
    ['GET', () => IDENTITIES, 'POST'],
    ['PUT', () => IDENTITIES, 'POST'],
  ])('%s on a known route gets 405 with Allow', async (method, path, allow) => {
    const reply = await call(server, method, path(), { body: {} });
    expectProblem(reply, 405);
    expect(reply.headers.allow).toBe(allow);
  });

  it.each(['not-a-uuid', '12345', '%E0%A4%A', 'e3b0c442-98fc-1c14-9afb-f4c8996fb92'])('malformed id %s gets the rejection status', async (id) => {
    expectProblem(await call(server, 'PUT', `/v2/transfer/fiat-accounts/${id}`, { body: {} }), rejectStatus);
  });

  it('an unknown UUID gets 404', async () => {
    expectProblem(await call(server, 'PUT', accountPath(randomUUID()), { body: { metadata: { a: 'b' } } }), 404);
  });

  it('a wrong Content-Type is accepted when the body parses', async () => {
    const reply = await call(server, 'POST', IDENTITIES, { raw: JSON.stringify(identityBody()), headers: { 'content-type': 'text/plain' } });
    expect(reply.status).toBe(201);
  });

  it('"__proto__" keys stay plain data', async () => {
    const raw = '{"metadata":{"__proto__":"x"},"fiat_network_instructions":{"wire":{"__proto__":{"polluted":true}}}}';
    const reply = await call(server, 'PUT', accountPath(server.fiatAccountIds[2]), { raw });
    expect(reply.status).toBeLessThan(500);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
