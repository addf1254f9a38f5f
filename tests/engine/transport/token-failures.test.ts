/**
 * A token endpoint that fails: retried a few times with growing waits (a 429's Retry-After
 * honoured), then its failure remembered so that callers do not each send a token request (a
 * lockout risk at a real identity provider); mid-run, it stops the run (RunStop 'token-endpoint').
 * Waits are recorded, not waited for; an interruption ends them.
 */
import { describe, expect, it } from 'vitest';
import { AuthenticationError } from '../../../src/core/errors.ts';
import { RunInterrupted, RunStop } from '../../../src/engine/run-stop.ts';
import { createTransport } from '../../../src/engine/transport/transport.ts';
import { FAILURE_MEMORY_MS, TOKEN_RETRY_DELAYS_MS, TokenSource } from '../../../src/engine/transport/token-source.ts';
import type { TestCase } from '../../../src/core/case.ts';
import { json, localServers } from './local-server.ts';
import { CLIENT_ID, SECRET, target, tokenEndpoint, type TokenEndpointOptions } from './token-endpoint.ts';

const create: TestCase = { operation: 'createIdentity', mode: 'valid', label: 'create', body: {} };
const serve = localServers();
const RETRIES = TOKEN_RETRY_DELAYS_MS.length;

/** A transport to a target (accepting every token unless told), its clock at `clock.now`, its waits recorded in `waits`. */
async function setup(options: TokenEndpointOptions = {}, accepts = true) {
  const tokens = await tokenEndpoint(serve, options);
  const api = await target(serve, () => accepts);
  const clock = { now: 1_000_000 };
  const waits: number[] = [];
  const transport = createTransport({
    baseUrl: api.url,
    auth: { kind: 'client-credentials', tokenUrl: tokens.tokenUrl, clientId: CLIENT_ID, clientSecret: SECRET },
    timeoutMs: 2000,
    rateLimitPerSecond: null,
    concurrency: 25,
    maxRetries: 1,
    tokenTiming: { now: () => clock.now, sleep: async (ms) => void waits.push(ms) },
  });
  return { tokens, api, clock, waits, transport };
}

/** Answers token request n >= `from` with `status`. */
const failingFrom =
  (from: number, status: number, headers: Record<string, string> = {}) =>
  (n: number, res: Parameters<NonNullable<TokenEndpointOptions['override']>>[1]) =>
    n >= from && Boolean(json(res, status, { error: 'temporarily_unavailable' }, headers));

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e as Error,
  );

describe('a failing token endpoint at connect time', () => {
  it('a 503 is retried after 0.5, 1 and 2 s, then named as the endpoint failing, not as refused credentials', async () => {
    const { tokens, waits, transport } = await setup({ override: failingFrom(0, 503) });
    const error = await failure(transport.authenticate());
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error!.message).toBe(`the token endpoint ${tokens.tokenUrl} failed: HTTP 503 temporarily_unavailable (4 tries)`);
    expect(error!.message).not.toMatch(/refused/);
    expect(waits).toEqual([500, 1000, 2000]);
    expect(tokens.seen).toHaveLength(1 + RETRIES);
    expect(tokens.methods().every((m) => m === 'basic')).toBe(true);
  });

  it('a 500 that passes: the token of the second try', async () => {
    const { tokens, transport } = await setup({ override: (n, res) => n === 0 && Boolean(json(res, 500, {})) });
    await transport.authenticate();
    expect(tokens.seen).toHaveLength(2);
    expect(transport.secrets()).toContain('tok-1');
  });

  it('a 429 waits its Retry-After; one asking for too long is not waited for', async () => {
    const patient = await setup({ override: (n, res) => n === 0 && Boolean(json(res, 429, {}, { 'retry-after': '3' })) });
    await patient.transport.authenticate();
    expect(patient.waits).toEqual([3000]);

    const { tokens, waits, transport } = await setup({ override: failingFrom(0, 429, { 'retry-after': '3600' }) });
    const error = await failure(transport.authenticate());
    expect(error!.message).toBe(`the token endpoint ${tokens.tokenUrl} failed: HTTP 429 temporarily_unavailable (it asked to retry after 3600 s)`);
    expect(waits).toEqual([]);
  });

  it('Basic refused, then the body fails with 503: retried with the body only, and the line names both', async () => {
    const { tokens, transport } = await setup({
      reads: 'body',
      refusal: { status: 400, body: { error: 'invalid_request' } },
      override: (n, res) => n > 0 && Boolean(json(res, 503, {})),
    });
    const error = await failure(transport.authenticate());
    expect(tokens.methods()).toEqual(['basic', 'body', 'body', 'body', 'body']);
    expect(error!.message).toBe(
      `the token endpoint ${tokens.tokenUrl} failed: HTTP 503 (4 tries; HTTP Basic was refused with HTTP 400 invalid_request, then the form body tried)`,
    );
  });

  it('remembers a failure: callers in the next moments get it without a new request', async () => {
    const { tokens, clock, transport } = await setup({ override: failingFrom(0, 503) });
    const first = await failure(transport.authenticate());
    const again = await Promise.all(Array.from({ length: 10 }, () => failure(transport.authenticate())));
    expect(again.every((e) => e === first)).toBe(true);
    expect(tokens.seen).toHaveLength(1 + RETRIES);
    clock.now += FAILURE_MEMORY_MS;
    await failure(transport.authenticate());
    expect(tokens.seen).toHaveLength(2 * (1 + RETRIES));
  });
});

describe('a token endpoint that fails mid-run', () => {
  it('2 tokens with expires_in 1, then HTTP 500: send throws RunStop, after a handful of token requests whatever the number of cases', async () => {
    const { tokens, api, clock, transport } = await setup({ expiresIn: 1, override: failingFrom(2, 500) });
    await transport.authenticate();
    expect((await transport.send(create)).response?.status).toBe(200);
    clock.now += 600; // past half of its life: renewed (tok-2)
    expect((await transport.send(create)).response?.status).toBe(200);
    expect(tokens.seen).toHaveLength(2);
    clock.now += 1100; // tok-2 expired, and no new one comes
    const stops = await Promise.all(Array.from({ length: 20 }, () => failure(transport.send(create))));
    for (let i = 0; i < 50; i++) stops.push(await failure(transport.send(create)));
    expect(stops.every((s) => s instanceof RunStop && s.kind === 'token-endpoint')).toBe(true);
    expect(stops[0]!.message).toBe(`the token endpoint ${tokens.tokenUrl} failed: HTTP 500 temporarily_unavailable (4 tries)`);
    expect(tokens.seen).toHaveLength(2 + 1 + RETRIES);
    expect(api.seen).toHaveLength(2); // no case went out without a token
    expect(transport.requestCount).toBe(2);
  });

  it('sendTogether stops too, after one token attempt for the whole burst', async () => {
    const { tokens, clock, transport } = await setup({ expiresIn: 60, override: failingFrom(1, 502) });
    await transport.authenticate();
    clock.now += 60_000;
    const stop = await failure(transport.sendTogether(Array.from({ length: 5 }, () => create)));
    expect(stop).toBeInstanceOf(RunStop);
    expect(tokens.seen).toHaveLength(1 + 1 + RETRIES);
  });

  it('a renewal after a 401 that finds the endpoint down stops the run', async () => {
    const { transport, tokens } = await setup({ override: failingFrom(1, 503) }, false);
    await transport.authenticate();
    const stop = await failure(transport.send(create));
    expect(stop).toBeInstanceOf(RunStop);
    expect(stop!.message).toMatch(/failed: HTTP 503/);
    expect(tokens.seen).toHaveLength(1 + 1 + RETRIES);
  });

  it('credentials refused mid-run stop the run with the refusal', async () => {
    const { tokens, clock, transport } = await setup({
      expiresIn: 60,
      override: (n, res) => n > 0 && Boolean(json(res, 401, { error: 'invalid_client' })),
    });
    await transport.authenticate();
    clock.now += 60_000;
    const stop = await failure(transport.send(create));
    expect(stop).toBeInstanceOf(RunStop);
    expect(stop!.message).toBe(`the token endpoint ${tokens.tokenUrl} refused the client credentials: HTTP 401 invalid_client (tried HTTP Basic)`);
    expect(tokens.methods()).toEqual(['basic', 'basic']); // Basic worked: it is kept
  });
});

describe('an interruption while the token endpoint is retried', () => {
  it('ends the wait and the retries at once: RunInterrupted, no further token request', async () => {
    const controller = new AbortController();
    const tokens = await tokenEndpoint(serve, {
      override: (_n, res) => {
        controller.abort('SIGINT');
        return Boolean(json(res, 503, {}));
      },
    });
    // A real wait of ten minutes: only the interruption ends it within the test's time.
    const source = new TokenSource({ kind: 'client-credentials', tokenUrl: tokens.tokenUrl, clientId: CLIENT_ID, clientSecret: SECRET }, 2000, {
      retryDelaysMs: [600_000],
      signal: controller.signal,
    });
    const error = await failure(source.token());
    expect(error).toBeInstanceOf(RunInterrupted);
    expect(tokens.seen).toHaveLength(1);
    await expect(source.token()).rejects.toBeInstanceOf(RunInterrupted);
    expect(tokens.seen).toHaveLength(1);
  });
});
