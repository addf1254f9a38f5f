/**
 * The list of layers (stack.ts): its order for each purpose, the same as docs/design.md names it;
 * and how the layers work together in createTransport, against local servers: what the record
 * shows after a renewal, a token fetch that fails (the run stops), and a burst whose retries keep
 * to the limits.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compose, type Layer, type Send } from '../../../src/engine/transport/send.ts';
import { layersOf, type Purpose, stack, type StackParts } from '../../../src/engine/transport/stack.ts';
import { ConcurrencyLimit } from '../../../src/engine/transport/concurrency-limit.ts';
import { RateLimiter } from '../../../src/engine/transport/rate-limiter.ts';
import { LatencyWatch } from '../../../src/engine/transport/latency-watch.ts';
import { fakeSend, request } from './fake-send.ts';
import { createTransport, REDACTED_BEARER } from '../../../src/engine/transport/transport.ts';
import type { TestCase } from '../../../src/core/case.ts';
import { RunStop } from '../../../src/engine/run-stop.ts';
import { RequestBudget } from '../../../src/engine/request-budget.ts';
import { closedPortUrl, json, localServers } from './local-server.ts';

const create: TestCase = { operation: 'createIdentity', mode: 'valid', label: 'create', body: {} };
const serve = localServers();
const clientCredentials = (tokenUrl: string) => ({ kind: 'client-credentials' as const, tokenUrl, clientId: 'id', clientSecret: 'secret' });
const base = { timeoutMs: 2000, rateLimitPerSecond: null, concurrency: 10, maxRetries: 1 };

const parts: StackParts = {
  ownToken: undefined,
  renew: undefined,
  maxRetries: 0,
  signal: undefined,
  slots: new ConcurrencyLimit(1),
  limiter: new RateLimiter(null),
  budget: undefined,
  count: () => undefined,
  latency: new LatencyWatch(1, 1),
};
const files = (purpose: Purpose) => stack(purpose, parts).map(([file]) => file);
const LIMITS = ['interruptible', 'concurrency-limit', 'rate-limiter'];
const WIRE = ['interruptible', 'request-cap', 'counting', 'latency-watch'];

/** The files docs/design.md lists under "The transport, top to bottom", in its order. */
function designList(): string[] {
  const design = readFileSync(new URL('../../../docs/design.md', import.meta.url), 'utf8');
  const section = design.slice(design.indexOf('### The transport, top to bottom'));
  const block = section.slice(section.indexOf('```\n') + 4, section.indexOf('\n```', section.indexOf('```\n') + 4));
  return block.split('\n').map((line) => line.split(/\s+/)[0].replace(/\.ts$/, ''));
}

describe('the list', () => {
  it('composes top to bottom: the first layer is the one a request meets first', async () => {
    const met: string[] = [];
    const meet =
      (name: string): Layer =>
      (next: Send) =>
      (r) => {
        met.push(name);
        return next(r);
      };
    await compose([meet('outer'), meet('middle'), meet('inner')])(fakeSend())(request());
    expect(met).toEqual(['outer', 'middle', 'inner']);
  });

  it('is one list for every purpose: the reachability check leaves out the credential and retries, a burst passes the limits by once', () => {
    const policies = ['auth', 'renew-on-401', 'retry-429'];
    expect(files('case')).toEqual([...policies, ...LIMITS, ...WIRE]);
    expect(files('cleanup')).toEqual(files('case'));
    expect(files('burst')).toEqual([...policies, 'paid-first', ...WIRE]);
    expect(files('reachability')).toEqual([...LIMITS, ...WIRE]);
  });

  it('is the list docs/design.md names, a case on top and the HTTP call at the bottom', () => {
    expect(designList()).toEqual(['recording', ...files('case'), 'http-call']);
  });

  it('sends only the cleanup after an interrupt, and only the cleanup past the budget', async () => {
    const interrupted = new AbortController();
    interrupted.abort();
    // A grace far longer than the fake's answer: the cleanup's answer comes first.
    const after = { ...parts, signal: interrupted.signal, latency: new LatencyWatch(60_000, 60_000) };
    const bottom = fakeSend();
    const send = (purpose: Purpose, p: StackParts) => compose(layersOf(stack(purpose, p)))(bottom)(request());
    expect((await send('case', after)).error?.message).toBe('not sent: the run was interrupted');
    expect(bottom.calls).toHaveLength(0);
    expect((await send('cleanup', after)).response?.status).toBe(200);
    expect(bottom.calls).toHaveLength(1);

    const spent = { ...parts, budget: new RequestBudget(0) };
    await expect(send('case', spent)).rejects.toBeInstanceOf(RunStop);
    expect((await send('cleanup', spent)).response?.status).toBe(200);
    expect(bottom.calls).toHaveLength(2);
  });

  it('names each layer by a file of the transport', () => {
    for (const file of new Set([...files('case'), ...files('burst')])) {
      expect(() => readFileSync(new URL(`../../../src/engine/transport/${file}.ts`, import.meta.url))).not.toThrow();
    }
  });
});

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
    // Counted per round: a retry may start while a late first send is still in flight.
    const inFlight = { first: 0, retry: 0 };
    const mostFor = { first: 0, retry: 0 };
    // The first sends are answered together once all four are in, so a slow machine cannot
    // stagger them; a transport that held them back would never answer (the test times out).
    const heldFirsts: (() => void)[] = [];
    const api = await serve((req, res) => {
      // Each case has its own body: a body seen before is a retry.
      const round = api.seen.filter((s) => s.body === req.body).length > 1 ? 'retry' : 'first';
      mostFor[round] = Math.max(mostFor[round], ++inFlight[round]);
      if (round === 'first') {
        heldFirsts.push(() => {
          inFlight.first--;
          res.writeHead(429, { 'retry-after': '0' }).end();
        });
        if (heldFirsts.length === 4) for (const answer of heldFirsts) answer();
        return;
      }
      setTimeout(() => {
        inFlight.retry--;
        json(res, 201, {});
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
