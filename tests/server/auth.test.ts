/** Section 5 on the embedded server: the token endpoint (body credentials and Basic) and bearer checks. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReferenceServer, type ReferenceServer } from '../../src/server/server.ts';
import { accountPath, call, create, identityBody, tokenRequest, update } from './http-client.ts';

describe('authentication', () => {
  let server: ReferenceServer;
  beforeAll(async () => {
    server = await createReferenceServer();
  });
  afterAll(() => server.close());

  const basic = (id: string, secret: string) => ({ authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}` });

  it('issues a bearer token for credentials in the form body, and the token works', async () => {
    const reply = await tokenRequest(server, { grant_type: 'client_credentials', client_id: server.clientId, client_secret: server.clientSecret });
    expect(reply.status).toBe(200);
    expect(reply.headers['cache-control']).toBe('no-store');
    expect(reply.json).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(reply.json.access_token).not.toBe(server.staticToken);
    expect((await update(server, {}, { token: reply.json.access_token })).status).toBe(200);
    expect((await create(server, identityBody(), { token: reply.json.access_token })).status).toBe(201);
  });

  it('issues a token for HTTP Basic credentials', async () => {
    const reply = await tokenRequest(server, { grant_type: 'client_credentials' }, basic(server.clientId, server.clientSecret));
    expect(reply.status).toBe(200);
    expect((await update(server, {}, { token: reply.json.access_token })).status).toBe(200);
  });

  it.each([
    ['a wrong secret in the body', (s: ReferenceServer) => [{ grant_type: 'client_credentials', client_id: s.clientId, client_secret: 'wrong' }, {}]],
    ['a wrong secret over Basic', (s: ReferenceServer) => [{ grant_type: 'client_credentials' }, basic(s.clientId, 'wrong')]],
    ['an unknown client', (s: ReferenceServer) => [{ grant_type: 'client_credentials', client_id: 'someone', client_secret: s.clientSecret }, {}]],
    ['no credentials', () => [{ grant_type: 'client_credentials' }, {}]],
  ] as const)('refuses %s with 401 invalid_client, never echoing a secret', async (_name, args) => {
    const [form, headers] = args(server) as [Record<string, string>, Record<string, string>];
    const reply = await tokenRequest(server, form, headers);
    expect(reply.status).toBe(401);
    expect(reply.json.error).toBe('invalid_client');
    expect(reply.text).not.toContain(server.clientSecret);
  });

  it('refuses another grant type with 400 unsupported_grant_type', async () => {
    const reply = await tokenRequest(server, { grant_type: 'password', client_id: server.clientId, client_secret: server.clientSecret });
    expect(reply.status).toBe(400);
    expect(reply.json.error).toBe('unsupported_grant_type');
  });

  it('answers 405 to GET on the token endpoint', async () => {
    const reply = await call(server, 'GET', '/oauth/token', { token: null });
    expect(reply.status).toBe(405);
    expect(reply.headers.allow).toBe('POST');
  });

  it.each([
    ['no Authorization header', null],
    ['a wrong token', 'not-a-token'],
    ['the client secret used as a token', 'SECRET'],
  ])('answers 401 with WWW-Authenticate: Bearer to both operations with %s', async (_name, token) => {
    const bearer = token === 'SECRET' ? server.clientSecret : token;
    for (const reply of [await update(server, {}, { token: bearer }), await create(server, identityBody(), { token: bearer })]) {
      expect(reply.status).toBe(401);
      expect(reply.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(reply.text).not.toContain(server.staticToken);
      expect(reply.text).not.toContain(server.clientSecret);
    }
  });

  it('refuses Basic credentials on the API (bearer only)', async () => {
    const reply = await call(server, 'PUT', accountPath(server.fiatAccountIds[0]), {
      body: {},
      token: null,
      headers: basic(server.clientId, server.clientSecret),
    });
    expect(reply.status).toBe(401);
  });

  it('gives every server its own credentials', async () => {
    const other = await createReferenceServer();
    try {
      expect(other.clientSecret).not.toBe(server.clientSecret);
      expect(other.staticToken).not.toBe(server.staticToken);
      expect((await update(server, {}, { token: other.staticToken })).status).toBe(401);
    } finally {
      await other.close();
    }
  });
});
