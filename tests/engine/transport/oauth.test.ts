/**
 * OAuth 2 client credentials (document section 5, RFC 6749 4.4) against local token endpoints and
 * targets: HTTP Basic or the form body, whichever the endpoint reads; one token for many sends;
 * renewal on a 401; refusals that end the run with one line that never holds the secret.
 */
import { describe, expect, it } from 'vitest';
import { AuthenticationError, UnreachableError } from '../../../src/core/errors.ts';
import { createTransport, type TransportOptions } from '../../../src/engine/transport/transport.ts';
import type { TestCase } from '../../../src/core/case.ts';
import { closedPortUrl, json, localServers } from './local-server.ts';
import { CLIENT_ID, SECRET, target, tokenEndpoint } from './token-endpoint.ts';

const create: TestCase = { operation: 'createIdentity', mode: 'valid', label: 'create', body: {} };
const serve = localServers();

const transportFor = (baseUrl: string, tokenUrl: string, options: Partial<TransportOptions> & { secret?: string; scope?: string; now?: () => number } = {}) =>
  createTransport({
    baseUrl,
    auth: {
      kind: 'client-credentials',
      tokenUrl,
      clientId: CLIENT_ID,
      clientSecret: options.secret ?? SECRET,
      ...(options.scope ? { scope: options.scope } : {}),
    },
    timeoutMs: 2000,
    rateLimitPerSecond: null,
    concurrency: 25,
    maxRetries: 1,
    tokenTiming: { sleep: async () => {}, ...(options.now ? { now: options.now } : {}) },
    ...options,
  });

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e as Error,
  );

describe('client credentials', () => {
  it('fetches one token with HTTP Basic and shares it across 20 concurrent sends', async () => {
    const tokens = await tokenEndpoint(serve, { expiresIn: 3600 });
    const api = await target(serve, (t) => t === 'tok-1');
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

  it.each([
    ['400 invalid_request', { status: 400, body: { error: 'invalid_request' } }],
    ['400 unauthorized_client', { status: 400, body: { error: 'unauthorized_client' } }],
    ['401 invalid_client', { status: 401, body: { error: 'invalid_client' } }],
    ['400 without a body', { status: 400 }],
  ])('a form-only endpoint (Basic answered %s) works, and is asked with the body from then on', async (_name, refusal) => {
    let now = 1_000_000;
    const tokens = await tokenEndpoint(serve, { reads: 'body', refusal, expiresIn: 3600 });
    const api = await target(serve, () => true);
    const transport = transportFor(api.url, tokens.tokenUrl, { now: () => now });
    await transport.authenticate();
    expect(tokens.methods()).toEqual(['basic', 'body']);
    now += 3600_000; // expired: the next send fetches a new token
    expect((await transport.send(create)).response?.status).toBe(200);
    expect(tokens.methods()).toEqual(['basic', 'body', 'body']);
    expect(tokens.seen[2].headers.authorization).toBeUndefined();
    expect(new URLSearchParams(tokens.seen[2].body).get('client_id')).toBe(CLIENT_ID);
  });

  it('a Basic-only endpoint works, and is asked with Basic from then on', async () => {
    let now = 1_000_000;
    const tokens = await tokenEndpoint(serve, { reads: 'basic', expiresIn: 60 });
    const api = await target(serve, () => true);
    const transport = transportFor(api.url, tokens.tokenUrl, { now: () => now });
    await transport.authenticate();
    now += 60_000;
    await transport.send(create);
    expect(tokens.methods()).toEqual(['basic', 'basic']);
    expect(new URLSearchParams(tokens.seen[1].body).has('client_secret')).toBe(false);
  });

  it('credentials refused both ways: one line with the body answer and both tries, no retry, never the secret', async () => {
    const tokens = await tokenEndpoint(serve);
    const wrong = 'wr0ng-s3cret-value';
    const error = await failure(transportFor('http://127.0.0.1:1', tokens.tokenUrl, { secret: wrong }).authenticate());
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error!.message).toBe(
      `the token endpoint ${tokens.tokenUrl} refused the client credentials: HTTP 401 invalid_client (tried HTTP Basic and the form body)`,
    );
    expect(tokens.methods()).toEqual(['basic', 'body']);
    expect(error!.message).not.toContain(wrong);
    expect(error!.message).not.toContain(SECRET); // the endpoint echoed a secret in error_description
  });

  it('Basic refused one way and the body another: the body answer, naming what Basic got', async () => {
    const tokens = await tokenEndpoint(serve, { reads: 'body', refusal: { status: 400, body: { error: 'invalid_request' } } });
    const error = await failure(transportFor('http://127.0.0.1:1', tokens.tokenUrl, { secret: 'wrong' }).authenticate());
    expect(error!.message).toBe(
      `the token endpoint ${tokens.tokenUrl} refused the client credentials: HTTP 401 invalid_client (tried HTTP Basic, refused with HTTP 400 invalid_request, then the form body)`,
    );
  });

  it('shows the token URL without user info', async () => {
    const tokens = await tokenEndpoint(serve);
    const withUser = tokens.tokenUrl.replace('http://', 'http://user:pa55@');
    const error = await failure(transportFor('http://127.0.0.1:1', withUser, { secret: 'wrong' }).authenticate());
    expect(error!.message).toContain(`the token endpoint ${tokens.tokenUrl} refused`);
    expect(error!.message).not.toContain('pa55');
  });

  it.each([
    ['a 200 without an access_token', { token_type: 'Bearer' }, /failed: HTTP 200 without an access_token$/],
    ['a 200 that is not JSON', 'plain text', /failed: HTTP 200 without a JSON body$/],
  ])('names %s as the endpoint failing, not the credentials, and does not retry it', async (_name, body, message) => {
    const tokens = await serve((_req, res) => (typeof body === 'string' ? res.writeHead(200).end(body) : json(res, 200, body)));
    const error = await failure(transportFor('http://127.0.0.1:1', `${tokens.url}/token`).authenticate());
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error!.message).toMatch(message);
    expect(tokens.seen).toHaveLength(1);
  });

  it('throws UnreachableError when the token endpoint cannot be reached, after its retries, without the secret', async () => {
    const tokenUrl = `${await closedPortUrl()}/token`;
    const error = await failure(transportFor('http://127.0.0.1:1', tokenUrl).authenticate());
    expect(error).toBeInstanceOf(UnreachableError);
    expect(error!.message).toBe(`cannot reach the token endpoint ${tokenUrl}: ECONNREFUSED (4 tries)`);
    expect(error!.message).not.toContain(SECRET);
  });
});

describe('renewal on a 401', () => {
  it('renews the token once on a 401 and resends the request once', async () => {
    const tokens = await tokenEndpoint(serve);
    const api = await target(serve, (t) => t === 'tok-2'); // tok-1 was "revoked"
    const transport = transportFor(api.url, tokens.tokenUrl);
    await transport.authenticate();
    const exchange = await transport.send(create);
    expect(exchange.response?.status).toBe(200);
    expect(tokens.seen).toHaveLength(2);
    expect(api.seen.map((s) => s.headers.authorization)).toEqual(['Bearer tok-1', 'Bearer tok-2']);
    expect(transport.requestCount).toBe(2);
  });

  it('renews once for many concurrent 401s, and does not loop when the new token is refused too', async () => {
    const tokens = await tokenEndpoint(serve);
    const api = await target(serve, () => false);
    const transport = transportFor(api.url, tokens.tokenUrl);
    const exchanges = await Promise.all(Array.from({ length: 10 }, () => transport.send(create)));
    expect(tokens.seen).toHaveLength(2);
    expect(api.seen).toHaveLength(20);
    expect(exchanges.every((e) => e.response?.status === 401)).toBe(true);
  });

  it('a target that refuses every token: no token request per case, one per cooldown', async () => {
    let now = 1_000_000;
    const tokens = await tokenEndpoint(serve);
    const api = await target(serve, () => false);
    const transport = transportFor(api.url, tokens.tokenUrl, { now: () => now });
    for (let i = 0; i < 10; i++) expect((await transport.send(create)).response?.status).toBe(401);
    expect(tokens.seen).toHaveLength(2); // the first token and one renewal
    now += 10_000;
    await transport.send(create);
    expect(tokens.seen).toHaveLength(3);
  });

  it('does not renew for a case sent with a deliberately wrong token', async () => {
    const tokens = await tokenEndpoint(serve);
    const api = await target(serve, () => false);
    const transport = transportFor(api.url, tokens.tokenUrl);
    await transport.send(create, { auth: 'invalid' });
    expect(api.seen).toHaveLength(1);
    expect(tokens.seen).toHaveLength(0);
  });
});

describe('a forced renewal and the token generations (a scenario that needs requests on two tokens)', () => {
  it('asks the endpoint once, and each exchange says which token carried it (a 401 attempt and its renewal alike), never the token', async () => {
    const tokens = await tokenEndpoint(serve, { expiresIn: 3600 });
    const api = await target(serve, (t) => t !== 'tok-2'); // tok-2 is "revoked" at once: a 401, then tok-3
    const transport = transportFor(api.url, tokens.tokenUrl);
    const first = await transport.send(create);
    expect(first.tokenGeneration).toBe(1);
    expect(await transport.renewToken!()).toEqual({ kind: 'renewed', generation: 2 });
    expect(tokens.seen).toHaveLength(2);
    const after = await transport.send(create);
    expect(after.response?.status).toBe(200);
    expect(after.resent?.map((a) => [a.response?.status, a.tokenGeneration])).toEqual([[401, 2]]);
    expect(after.tokenGeneration).toBe(3);
    expect(JSON.stringify([first, after])).not.toMatch(/tok-\d/);
    // Cases without the run's token carry no generation.
    expect((await transport.send(create, { auth: 'none' })).tokenGeneration).toBeUndefined();
  });

  it('an endpoint that hands back the same token: same-token, one generation; one that refuses: failed, the current token still serves', async () => {
    const same = await tokenEndpoint(serve, {
      override: (_n, res) => {
        json(res, 200, { access_token: 'tok-same', token_type: 'Bearer' });
        return true;
      },
    });
    const api = await target(serve, () => true);
    const transport = transportFor(api.url, same.tokenUrl);
    await transport.authenticate();
    expect(await transport.renewToken!()).toEqual({ kind: 'same-token', generation: 1 });
    expect((await transport.send(create)).tokenGeneration).toBe(1);

    const refusing = await tokenEndpoint(serve, {
      override: (n, res) => {
        if (n === 0) return false;
        json(res, 400, { error: 'invalid_client' });
        return true;
      },
    });
    const other = transportFor(api.url, refusing.tokenUrl);
    await other.authenticate();
    const renewal = await other.renewToken!();
    expect(renewal).toMatchObject({ kind: 'failed', what: expect.stringContaining('refused the client credentials: HTTP 400 invalid_client') });
    expect(JSON.stringify(renewal)).not.toContain(SECRET);
    const still = await other.send(create);
    expect([still.response?.status, still.tokenGeneration]).toEqual([200, 1]);
  });

  it('a static token has no renewal and no generation', async () => {
    const api = await target(serve, () => true);
    const transport = createTransport({
      baseUrl: api.url,
      auth: { kind: 'static', token: 'static-tok' },
      timeoutMs: 2000,
      rateLimitPerSecond: null,
      concurrency: 1,
      maxRetries: 0,
    });
    expect(transport.renewToken).toBeUndefined();
    expect((await transport.send(create)).tokenGeneration).toBeUndefined();
  });
});

describe('token answers as RFC 6749 5.1 allows them', () => {
  it.each([
    [
      'token_type "bearer" in lower case, no expires_in, extra fields',
      { access_token: 'tok-a', token_type: 'bearer', scope: 'x', id_token: 'y', ext: { a: 1 } },
    ],
    ['token_type in capitals', { access_token: 'tok-a', token_type: 'BEARER', expires_in: 60 }],
    ['expires_in as a string', { access_token: 'tok-a', token_type: 'Bearer', expires_in: '3600' }],
    ['no token_type at all (section 5 of the document says Bearer)', { access_token: 'tok-a' }],
  ])('%s: the token is used as a bearer token, nothing judged', async (_name, answer) => {
    const tokens = await tokenEndpoint(serve, {
      override: (_n, res) => {
        json(res, 200, answer);
        return true;
      },
    });
    const api = await target(serve, (t) => t === 'tok-a');
    const transport = transportFor(api.url, tokens.tokenUrl);
    expect((await transport.send(create)).response?.status).toBe(200);
    expect(api.seen[0].headers.authorization).toBe('Bearer tok-a');
  });
});
