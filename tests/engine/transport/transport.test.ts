/**
 * The transport against small local servers: what goes on the wire, what is recorded, and how
 * every kind of target misbehaviour comes back as data instead of an exception.
 */
import zlib from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { UnreachableError } from '../../../src/core/errors.ts';
import { createTransport, INVALID_TOKEN, REDACTED_BEARER, type TransportOptions } from '../../../src/engine/transport/transport.ts';
import { harEntries, RESENT_COMMENT } from '../../../src/report/files/har.ts';
import { toCurl } from '../../../src/report/model/curl.ts';
import type { TestCase } from '../../../src/core/case.ts';
import { USER_AGENT } from '../../../src/core/version.ts';
import { closedPortUrl, json, localServers, type Handler } from './local-server.ts';

const TOKEN = 'st4tic-t0ken-value';
const update = (body: unknown, fiatAccountId = 'acc-1'): TestCase => ({ operation: 'updateFiatAccount', mode: 'valid', label: 'update', body, fiatAccountId });
const create = (body: unknown): TestCase => ({ operation: 'createIdentity', mode: 'valid', label: 'create', body });

const serve = localServers();
const transportFor = (baseUrl: string, options: Partial<TransportOptions> = {}) =>
  createTransport({ baseUrl, auth: { kind: 'static', token: TOKEN }, timeoutMs: 2000, rateLimitPerSecond: null, concurrency: 10, maxRetries: 2, ...options });
const ok: Handler = (_req, res) => json(res, 200, { id: 'x' });

describe('the request on the wire', () => {
  it('sends the static token, JSON headers and the User-Agent', async () => {
    const server = await serve(ok);
    const exchange = await transportFor(server.url).send(update({ metadata: { k: 'v' } }));
    const [seen] = server.seen;
    expect(seen.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(seen.headers['user-agent']).toBe(USER_AGENT);
    expect(seen.headers['content-type']).toBe('application/json');
    expect(seen.headers.accept).toBe('application/json');
    expect(exchange.response?.status).toBe(200);
  });

  it('puts an update to the encoded account id and posts a create (section 4)', async () => {
    const server = await serve(ok);
    const transport = transportFor(server.url + '/');
    await transport.send(update({ metadata: { a: 'é😀' } }, 'id/with space?'));
    await transport.send(create({ ref_id: 'r1' }));
    expect(server.seen.map((s) => `${s.method} ${s.url}`)).toEqual(['PUT /v2/transfer/fiat-accounts/id%2Fwith%20space%3F', 'POST /v2/identity/identities']);
    expect(JSON.parse(server.seen[0].body)).toEqual({ metadata: { a: 'é😀' } });
    expect(transport.requestCount).toBe(2);
  });

  it('sends rawBody verbatim instead of body', async () => {
    const server = await serve(ok);
    const exchange = await transportFor(server.url).send({ ...create(undefined), rawBody: '{"ref_id": "x",' });
    expect(server.seen[0].body).toBe('{"ref_id": "x",');
    expect(exchange.request.rawBody).toBe('{"ref_id": "x",');
    expect(exchange.request.body).toBeUndefined();
  });

  it('sends no Authorization for auth "none" and a made-up token for "invalid"', async () => {
    const server = await serve(ok);
    const transport = transportFor(server.url);
    const none = await transport.send(create({}), { auth: 'none' });
    const invalid = await transport.send({ ...create({}), auth: 'invalid' });
    expect(server.seen[0].headers.authorization).toBeUndefined();
    expect(none.request.headers.authorization).toBeUndefined();
    expect(server.seen[1].headers.authorization).toBe(`Bearer ${INVALID_TOKEN}`);
    expect(invalid.request.headers.authorization).toBe(`Bearer ${INVALID_TOKEN}`);
    expect(toCurl(none.request)).not.toMatch(/Authorization/);
    expect(toCurl(invalid.request)).toContain(`'Authorization: Bearer ${INVALID_TOKEN}'`);
  });

  it('never records the token: not in the request, the exchange or the curl line', async () => {
    const server = await serve(ok);
    const transport = transportFor(server.url);
    const exchange = await transport.send(update({ metadata: {} }));
    expect(exchange.request.headers.authorization).toBe('Bearer [REDACTED]');
    expect(JSON.stringify(exchange)).not.toContain(TOKEN);
    const curl = toCurl(exchange.request);
    expect(curl).not.toContain(TOKEN);
    expect(curl).toContain('-H "Authorization: Bearer $CONFORMANCE_TOKEN"');
    expect(transport.secrets()).toEqual([TOKEN]);
  });
});

describe('the response as recorded', () => {
  it('keeps status, lower-case headers and the parsed JSON body', async () => {
    const server = await serve((_req, res) => json(res, 201, { id: 'i-1' }, { 'X-Request-Id': 'abc' }));
    const exchange = await transportFor(server.url).send(create({}));
    expect(exchange.response).toMatchObject({ status: 201, json: true, body: { id: 'i-1' }, rawBody: '{"id":"i-1"}' });
    expect(exchange.response?.headers['x-request-id']).toBe('abc');
    expect(exchange.error).toBeUndefined();
    expect(Date.parse(exchange.startedAt)).not.toBeNaN();
    expect(exchange.durationMs).toBeGreaterThanOrEqual(0);
  });

  it.each(['gzip', 'deflate', 'br'])('decodes a %s body and ignores a byte order mark before the JSON', async (coding) => {
    const encode = { gzip: zlib.gzipSync, deflate: zlib.deflateSync, br: zlib.brotliCompressSync }[coding]!;
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding });
      res.end(encode(Buffer.from('\uFEFF{"id":"x"}')));
    });
    const exchange = await transportFor(server.url).send(create({}));
    expect(exchange.response).toMatchObject({ status: 200, json: true, body: { id: 'x' } });
  });

  it('records a non-JSON body as text with json:false', async () => {
    const server = await serve((_req, res) => res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>'));
    const exchange = await transportFor(server.url).send(create({}));
    expect(exchange.response).toMatchObject({ status: 502, json: false, rawBody: '<h1>Bad gateway</h1>' });
    expect(exchange.response?.body).toBeUndefined();
  });

  it('records a timeout when the target never answers', async () => {
    const server = await serve(() => {}); // holds the request open
    const started = Date.now();
    const exchange = await transportFor(server.url, { timeoutMs: 200 }).send(create({}));
    // The kind says the deadline ended it; only a lower bound on the time (an upper one fails on a loaded machine).
    expect(exchange.error?.kind).toBe('timeout');
    expect(exchange.response).toBeUndefined();
    expect(server.seen).toHaveLength(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(180);
  });

  it('records a timeout when the target trickles its answer past the deadline', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{');
      const drip = setInterval(() => res.write(' '), 50); // the socket never idles long
      res.on('close', () => clearInterval(drip));
    });
    const exchange = await transportFor(server.url, { timeoutMs: 300 }).send(create({}));
    expect(exchange.error?.kind).toBe('timeout');
  });

  it('records a dropped connection', async () => {
    const server = await serve((_req, _res, raw) => raw.socket.destroy());
    const exchange = await transportFor(server.url).send(create({}));
    expect(exchange.error?.kind).toBe('connection');
    expect(exchange.response).toBeUndefined();
  });

  it('records a refused connection without throwing', async () => {
    const exchange = await transportFor(await closedPortUrl()).send(create({}));
    expect(exchange.error).toMatchObject({ kind: 'connection' });
    expect(exchange.error?.message).toMatch(/ECONNREFUSED/);
  });

  it('records a body JSON cannot hold as an error instead of throwing', async () => {
    const server = await serve(ok);
    const exchange = await transportFor(server.url).send(create({ n: 1n }));
    expect(exchange.error?.kind).toBe('other');
    expect(server.seen).toHaveLength(0);
  });
});

describe('429 Too Many Requests', () => {
  it('waits Retry-After: 1 and retries until the target answers', async () => {
    const server = await serve((_req, res) => (server.seen.length === 1 ? res.writeHead(429, { 'retry-after': '1' }).end() : json(res, 200, {})));
    const transport = transportFor(server.url);
    const exchange = await transport.send(create({}));
    expect(exchange.response?.status).toBe(200);
    expect(exchange.error).toBeUndefined();
    expect(server.seen).toHaveLength(2);
    expect(server.seen[1].at - server.seen[0].at).toBeGreaterThanOrEqual(900);
    expect(transport.requestCount).toBe(2);
  });

  it('keeps the last 429 and marks it rate-limited after maxRetries', async () => {
    const server = await serve((_req, res) => res.writeHead(429, { 'retry-after': '0' }).end('slow down'));
    const exchange = await transportFor(server.url, { maxRetries: 3 }).send(create({}));
    expect(server.seen).toHaveLength(4);
    expect(exchange.response).toMatchObject({ status: 429, rawBody: 'slow down' });
    expect(exchange.error?.kind).toBe('rate-limited');
  });

  it('records the 429s it waited out beside the exchange, so exchanges.har holds as many entries as requests were counted', async () => {
    const server = await serve((_req, res) => (server.seen.length <= 2 ? res.writeHead(429, { 'retry-after': '0' }).end('wait') : json(res, 200, {})));
    const transport = transportFor(server.url, { maxRetries: 3 });
    const exchange = await transport.send(create({ ref_id: 'r' }));
    expect(exchange.response?.status).toBe(200);
    expect(exchange.resent?.map((a) => a.response?.status)).toEqual([429, 429]);
    expect(exchange.resent?.every((a) => a.request.headers.authorization === REDACTED_BEARER && a.request.body !== undefined)).toBe(true);
    const entries = harEntries(exchange);
    expect(entries).toHaveLength(transport.requestCount);
    expect(entries.map((e) => e.comment)).toEqual([RESENT_COMMENT, RESENT_COMMENT, undefined]);
    expect(entries.at(-1)?._case?.label).toBe('create');
  });
});

describe('limits', () => {
  it('starts requests no closer than 1000/N ms apart (20/s: 10 requests take >= ~450 ms)', async () => {
    const server = await serve(ok);
    const send10 = async (rate: number | null) => {
      const transport = transportFor(server.url, { rateLimitPerSecond: rate, concurrency: 10 });
      const started = Date.now();
      await Promise.all(Array.from({ length: 10 }, () => transport.send(create({}))));
      return Date.now() - started;
    };
    // Only a lower bound: 9 gaps of 50 ms cannot pass sooner, however fast the machine; how the
    // limiter spaces starts (and that unlimited never waits) is shown on a fake clock in limits.test.ts.
    expect(await send10(20)).toBeGreaterThanOrEqual(440); // 450, less timer rounding
    expect(server.seen).toHaveLength(10);
  });

  it('never has more than `concurrency` requests in flight', async () => {
    let inFlight = 0;
    let most = 0;
    // Two requests are answered together once both are in, so a loaded machine cannot finish the
    // first before the second arrives; a transport that sent one at a time would never be answered.
    let waiting: (() => void)[] = [];
    const server = await serve((_req, res) => {
      most = Math.max(most, ++inFlight);
      waiting.push(() => {
        inFlight--;
        json(res, 200, {});
      });
      if (waiting.length === 2) {
        const answers = waiting;
        waiting = [];
        for (const answer of answers) answer();
      }
    });
    const transport = transportFor(server.url, { concurrency: 2 });
    await Promise.all(Array.from({ length: 8 }, () => transport.send(create({}))));
    expect(server.seen).toHaveLength(8);
    expect(most).toBe(2);
  });
});

describe('sendTogether', () => {
  it('sends a burst at one moment past the rate and concurrency limits, and the next request pays for it', async () => {
    let inFlight = 0;
    let most = 0;
    const arrivals: number[] = [];
    // The burst is answered together once all ten are in (a loaded machine cannot stagger them);
    // the request after it is answered at once.
    const held: (() => void)[] = [];
    const server = await serve((_req, res) => {
      arrivals.push(Date.now());
      most = Math.max(most, ++inFlight);
      const answer = () => {
        inFlight--;
        json(res, 200, {});
      };
      if (arrivals.length > 10) return answer();
      held.push(answer);
      if (held.length === 10) for (const release of held) release();
    });
    const transport = transportFor(server.url, { rateLimitPerSecond: 20, concurrency: 2 }); // 50 ms apart
    const burst = await transport.sendTogether(Array.from({ length: 10 }, () => create({})));
    expect(burst.map((e) => e.response?.status)).toEqual(Array(10).fill(200));
    // Counted, not timed: all ten were at the server together, past concurrency 2 (spaced out, at most 2 would be).
    expect(most).toBe(10);
    await transport.send(create({}));
    expect(arrivals.at(-1)! - arrivals[0]).toBeGreaterThanOrEqual(450); // the burst's 10 slots were reserved
  });
});

describe('checkReachable', () => {
  it('accepts any HTTP answer, even a 404', async () => {
    const server = await serve((_req, res) => json(res, 404, { error: 'not found' }));
    await expect(transportFor(server.url).checkReachable()).resolves.toEqual({ roundTripMs: expect.any(Number) });
  });

  it('throws UnreachableError with one line naming the URL and the cause', async () => {
    const url = await closedPortUrl();
    const error = await transportFor(url, { reachabilityDelaysMs: [1, 1] })
      .checkReachable()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnreachableError);
    expect((error as Error).message).toBe(`cannot reach ${url}: ECONNREFUSED (3 attempts)`);
  });
});

describe('silence', () => {
  it('prints nothing, even for failed requests (pactum would log them with their headers)', async () => {
    const dropping = await serve((_req, _res, raw) => raw.socket.destroy());
    const spies = [
      vi.spyOn(process.stdout, 'write'),
      vi.spyOn(process.stderr, 'write'),
      ...(['log', 'info', 'warn', 'error', 'debug'] as const).map((m) => vi.spyOn(console, m)),
    ];
    try {
      await transportFor(dropping.url).send(create({}));
      await transportFor(await closedPortUrl()).send(create({}));
      for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });
});
