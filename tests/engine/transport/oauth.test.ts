/**
 * OAuth 2 client credentials (document section 5, RFC 6749 4.4) against a local token endpoint
 * and target: one token for many sends, renewal on a 401, and refusals that end the run with
 * one line that never holds the secret.
 */
import { describe, expect, it } from 'vitest';
import { AuthenticationError, UnreachableError } from '../../../src/core/errors.ts';
import { createTransport, type TransportOptions } from '../../../src/engine/transport/transport.ts';
import { TokenSource } from '../../../src/engine/transport/token-source.ts';
import type { TestCase } from '../../../src/core/case.ts';
import { closedPortUrl, json, localServers } from './local-server.ts';

// Characters RFC 6749 2.3.1 wants form-encoded before base64: space, colon, ampersand, non-ASCII.
const CLIENT_ID = 'client id:1';
const SECRET = 's3cret &:é value';
const create: TestCase = { operation: 'createIdentity', mode: 'valid', label: 'create', body: {} };

const serve = localServers();

/** A token endpoint issuing tok-1, tok-2 ... to HTTP Basic with the right credentials. */
async function tokenEndpoint(options: { expiresIn?: number; basic?: boolean } = {}) {
  let issued = 0;
  const server = await serve((req, res) => {
    const form = new URLSearchParams(req.body);
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const [id, secret] = basic
      ? Buffer.from(basic, 'base64').toString('utf8').split(':').map((part) => new URLSearchParams(`v=${part}`).get('v'))
      : [form.get('client_id'), form.get('client_secret')];
    if (options.basic === false && basic) return json(res, 401, { error: 'invalid_client' });
    if (form.get('grant_type') !== 'client_credentials' || id !== CLIENT_ID || secret !== SECRET) {
      return json(res, 401, { error: 'invalid_client', error_description: `bad secret ${SECRET}` });
    }
    issued++;
    json(res, 200, { access_token: `tok-${issued}`, token_type: 'Bearer', ...(options.expiresIn ? { expires_in: options.expiresIn } : {}) });
  });
  return { ...server, tokenUrl: `${server.url}/oauth/token` };
}

/** A target that accepts only the given tokens. */
const target = (accepted: (token: string) => boolean) =>
  serve((req, res) => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    if (accepted(token)) json(res, 200, { id: 'i-1' });
    else json(res, 401, { error: 'unauthorized' });
  });

const transportFor = (baseUrl: string, tokenUrl: string, options: Partial<TransportOptions> & { secret?: string; scope?: string } = {}) =>
  createTransport({
    baseUrl,
    auth: { kind: 'client-credentials', tokenUrl, clientId: CLIENT_ID, clientSecret: options.secret ?? SECRET, ...(options.scope ? { scope: options.scope } : {}) },
    timeoutMs: 2000,
    rateLimitPerSecond: null,
    concurrency: 25,
    maxRetries: 1,
    ...options,
  });

describe('client credentials', () => {
  it('fetches one token with HTTP Basic and shares it across 20 concurrent sends', async () => {
    const tokens = await tokenEndpoint({ expiresIn: 3600 });
    const api = await target((t) => t === 'tok-1');
    const transport = transportFor(api.url, tokens.tokenUrl, { scope: 'identity fiat' });
    const exchanges = await Promise.all(Array.from({ length: 20 }, () => transport.send(create)));
    expect(tokens.seen).toHaveLength(1);
    expect(exchanges.every((e) => e.response?.status === 200)).toBe(true);
    const form = new URLSearchParams(tokens.seen[0].body);
    expect(Object.fromEntries(form)).toEqual({ grant_type: 'client_credentials', scope: 'identity fiat' });
    expect(tokens.seen[0].headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(transport.requestCount).toBe(20); // token requests are not target requests
    expect(transport.secrets()).toEqual(expect.arrayContaining([SECRET, 'tok-1']));
    for (const e of exchanges) expect(JSON.stringify(e)).not.toContain('tok-1');
  });

  it('falls back to credentials in the body when the endpoint refuses Basic', async () => {
    const tokens = await tokenEndpoint({ basic: false });
    const api = await target(() => true);
    const transport = transportFor(api.url, tokens.tokenUrl);
    await transport.authenticate();
    expect(tokens.seen).toHaveLength(2);
    expect(tokens.seen[1].headers.authorization).toBeUndefined();
    expect(new URLSearchParams(tokens.seen[1].body).get('client_secret')).toBe(SECRET);
  });

  it('renews the token once on a 401 and resends the request once', async () => {
    const tokens = await tokenEndpoint();
    const api = await target((t) => t === 'tok-2'); // tok-1 was "revoked"
    const transport = transportFor(api.url, tokens.tokenUrl);
    await transport.authenticate();
    const exchange = await transport.send(create);
    expect(exchange.response?.status).toBe(200);
    expect(tokens.seen).toHaveLength(2);
    expect(api.seen.map((s) => s.headers.authorization)).toEqual(['Bearer tok-1', 'Bearer tok-2']);
    expect(transport.requestCount).toBe(2);
  });

  it('renews once for many concurrent 401s, and does not loop when the new token is refused too', async () => {
    const tokens = await tokenEndpoint();
    const api = await target(() => false);
    const transport = transportFor(api.url, tokens.tokenUrl);
    const exchanges = await Promise.all(Array.from({ length: 10 }, () => transport.send(create)));
    expect(tokens.seen).toHaveLength(2);
    expect(api.seen).toHaveLength(20);
    expect(exchanges.every((e) => e.response?.status === 401)).toBe(true);
  });

  it('does not renew for a case sent with a deliberately wrong token', async () => {
    const tokens = await tokenEndpoint();
    const api = await target(() => false);
    const transport = transportFor(api.url, tokens.tokenUrl);
    await transport.send(create, { auth: 'invalid' });
    expect(api.seen).toHaveLength(1);
    expect(tokens.seen).toHaveLength(0);
  });

  it('throws AuthenticationError naming the endpoint and error code, never the secret', async () => {
    const tokens = await tokenEndpoint();
    const api = await target(() => true);
    const wrong = 'wr0ng-s3cret-value';
    const error = await transportFor(api.url, tokens.tokenUrl, { secret: wrong }).authenticate().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    const message = (error as Error).message;
    expect(message).toBe(`the token endpoint ${tokens.tokenUrl} refused the client credentials: HTTP 401 invalid_client`);
    expect(message).not.toContain(wrong);
    expect(message).not.toContain(SECRET); // the endpoint echoed a secret in error_description
  });

  it('throws AuthenticationError when the endpoint answers 200 without an access_token', async () => {
    const tokens = await serve((_req, res) => json(res, 200, { token_type: 'Bearer' }));
    const error = await transportFor('http://127.0.0.1:1', `${tokens.url}/token`).authenticate().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as Error).message).toMatch(/without an access_token/);
  });

  it('throws UnreachableError when the token endpoint cannot be reached, without the secret', async () => {
    const tokenUrl = `${await closedPortUrl()}/token`;
    const error = await transportFor('http://127.0.0.1:1', tokenUrl).authenticate().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnreachableError);
    expect((error as Error).message).toBe(`cannot reach the token endpoint ${tokenUrl}: ECONNREFUSED`);
    expect((error as Error).message).not.toContain(SECRET);
  });

  it('records a send whose token cannot be fetched instead of throwing', async () => {
    const tokenUrl = `${await closedPortUrl()}/token`;
    const api = await target(() => true);
    const exchange = await transportFor(api.url, tokenUrl).send(create);
    expect(exchange.error?.kind).toBe('connection');
    expect(api.seen).toHaveLength(0);
  });
});

describe('the token cache', () => {
  it('keeps a token until 30 s before expires_in runs out', async () => {
    const tokens = await tokenEndpoint({ expiresIn: 3600 });
    let now = 1_000_000;
    const source = new TokenSource({ kind: 'client-credentials', tokenUrl: tokens.tokenUrl, clientId: CLIENT_ID, clientSecret: SECRET }, 2000, () => now);
    expect(await source.token()).toBe('tok-1');
    now += 3569_000;
    expect(await source.token()).toBe('tok-1');
    now += 2_000; // 29 s left
    expect(await source.token()).toBe('tok-2');
    expect(source.requestCount).toBe(2);
  });

  it('keeps a token without expires_in for the whole run', async () => {
    const tokens = await tokenEndpoint();
    let now = 0;
    const source = new TokenSource({ kind: 'client-credentials', tokenUrl: tokens.tokenUrl, clientId: CLIENT_ID, clientSecret: SECRET }, 2000, () => now);
    await source.token();
    now += 86_400_000;
    expect(await source.token()).toBe('tok-1');
    expect(tokens.seen).toHaveLength(1);
  });
});
