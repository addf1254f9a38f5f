/**
 * How the layers work together in createTransport, against local servers: what the record shows
 * after a renewal, a token fetch that fails (the run stops), and a burst whose retries keep to the limits.
 */
import { describe, expect, it } from 'vitest';
import { createTransport, REDACTED_BEARER } from '../../../src/engine/transport/transport.ts';
import type { TestCase } from '../../../src/core/case.ts';
import { RunStop } from '../../../src/engine/run-stop.ts';
import { closedPortUrl, json, localServers } from './local-server.ts';

const create: TestCase = { operation: 'createIdentity', mode: 'valid', label: 'create', body: {} };
const serve = localServers();
const clientCredentials = (tokenUrl: string) => ({ kind: 'client-credentials' as const, tokenUrl, clientId: 'id', clientSecret: 'secret' });
const base = { timeoutMs: 2000, rateLimitPerSecond: null, concurrency: 10, maxRetries: 1 };

describe('the stack', () => {
  it('records the resent request after a renewal, redacted, and counts both sends', async () => {
    let issued = 0;
    const tokens = await serve((_req, res) => json(res, 200, { access_token: `tok-${++issued}` }));
    const api = await serve((req, res) => (req.headers.authorization === 'Bearer tok-2' ? json(res, 200, {}) : json(res, 401, {})));
    const transport = createTransport({ ...base, baseUrl: api.url, auth: clientCredentials(`${tokens.url}/token`) });
    const exchange = await transport.send(create);
    expect(exchange.response?.status).toBe(200);
    expect(exchange.request.headers.authorization).toBe(REDACTED_BEARER);
    expect(JSON.stringify(exchange)).not.toMatch(/tok-\d/);
    expect(transport.requestCount).toBe(2);
  });

  it('stops the run when a case cannot get a token: nothing sent, nothing recorded', async () => {
    const api = await serve((_req, res) => json(res, 200, {}));
    const transport = createTransport({
      ...base,
      baseUrl: api.url,
      auth: clientCredentials(`${await closedPortUrl()}/token`),
      tokenTiming: { sleep: async () => {} },
    });
    const stop = await transport.send(create).catch((e: unknown) => e);
    expect(stop).toBeInstanceOf(RunStop);
    expect(stop).toMatchObject({ kind: 'token-endpoint', message: expect.stringMatching(/^cannot reach the token endpoint .*: ECONNREFUSED \(4 tries\)$/) });
    expect(api.seen).toHaveLength(0);
    expect(transport.requestCount).toBe(0);
  });

  it('sends a burst past the concurrency limit, but its 429 retries queue inside it', async () => {
    let inFlight = 0;
    const mostFor = { first: 0, retry: 0 };
    const api = await serve((req, res) => {
      // Each case has its own body: a body seen before is a retry.
      const round = api.seen.filter((s) => s.body === req.body).length > 1 ? 'retry' : 'first';
      mostFor[round] = Math.max(mostFor[round], ++inFlight);
      setTimeout(() => {
        inFlight--;
        if (round === 'first') res.writeHead(429, { 'retry-after': '0' }).end();
        else json(res, 201, {});
      }, 40);
    });
    const transport = createTransport({ ...base, baseUrl: api.url, auth: { kind: 'none' }, concurrency: 1 });
    const cases = Array.from({ length: 4 }, (_, i): TestCase => ({ ...create, body: { ref_id: `r${i}` } }));
    const exchanges = await transport.sendTogether(cases);
    expect(exchanges.map((e) => e.response?.status)).toEqual([201, 201, 201, 201]);
    expect(mostFor.first).toBe(4);
    expect(mostFor.retry).toBe(1);
    expect(transport.requestCount).toBe(8);
  });
});
