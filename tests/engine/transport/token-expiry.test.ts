/**
 * The token cache against a local token endpoint and an injected clock: a token is renewed before
 * its expires_in runs out (number or numeric string), kept while a renewal fails and it is still
 * valid, and kept for the whole run without expires_in.
 */
import { describe, expect, it } from 'vitest';
import { TokenSource, type TokenSourceOptions } from '../../../src/engine/transport/token-source.ts';
import { json, localServers } from './local-server.ts';
import { CLIENT_ID, SECRET, tokenEndpoint } from './token-endpoint.ts';

const serve = localServers();

const sourceFor = (tokenUrl: string, options: TokenSourceOptions) =>
  new TokenSource({ kind: 'client-credentials', tokenUrl, clientId: CLIENT_ID, clientSecret: SECRET }, 2000, { sleep: async () => {}, ...options });

describe('the token cache', () => {
  it.each([3600, '3600'])('renews a token 30 s before expires_in (%j) runs out, not later', async (expiresIn) => {
    const tokens = await tokenEndpoint(serve, { expiresIn });
    let now = 1_000_000;
    const source = sourceFor(tokens.tokenUrl, { now: () => now });
    expect(await source.token()).toBe('tok-1');
    now += 3569_000;
    expect(await source.token()).toBe('tok-1');
    now += 2_000; // 29 s left
    expect(await source.token()).toBe('tok-2');
    expect(source.requestCount).toBe(2);
  });

  it('renews a short-lived token half-way through its life', async () => {
    const tokens = await tokenEndpoint(serve, { expiresIn: 1 });
    let now = 0;
    const source = sourceFor(tokens.tokenUrl, { now: () => now });
    await source.token();
    now = 499;
    expect(await source.token()).toBe('tok-1');
    now = 500;
    expect(await source.token()).toBe('tok-2');
  });

  it('keeps a token without expires_in (or an unreadable one) for the whole run', async () => {
    for (const expiresIn of [undefined, 'soon', -5]) {
      const tokens = await tokenEndpoint(serve, expiresIn === undefined ? {} : { expiresIn });
      let now = 0;
      const source = sourceFor(tokens.tokenUrl, { now: () => now });
      await source.token();
      now += 86_400_000;
      expect(await source.token()).toBe('tok-1');
      expect(tokens.seen).toHaveLength(1);
    }
  });

  it('while renewals fail, serves the token until it expires, trying again once the failure is old, then throws', async () => {
    let now = 0;
    const tokens = await tokenEndpoint(serve, { expiresIn: 100, override: (n, res) => n > 0 && Boolean(json(res, 503, {})) });
    const source = sourceFor(tokens.tokenUrl, { now: () => now });
    await source.token();
    now = 80_000; // inside the margin (the last 30 s): renewal is due, the token still valid
    expect(await source.token()).toBe('tok-1');
    expect(tokens.seen).toHaveLength(1 + 4); // the first token, then one try and its three retries
    now = 85_000;
    expect(await source.token()).toBe('tok-1'); // the failure is remembered: no new request
    expect(tokens.seen).toHaveLength(5);
    now = 95_000; // the failure is old news: renewal is tried again
    expect(await source.token()).toBe('tok-1');
    expect(tokens.seen).toHaveLength(9);
    now = 100_000; // expired, and the last failure is fresh
    await expect(source.token()).rejects.toThrow(/failed: HTTP 503/);
    expect(tokens.seen).toHaveLength(9);
  });
});
