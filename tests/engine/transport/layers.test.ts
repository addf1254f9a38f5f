/**
 * Each transport layer alone, around a fake `next`: what it changes on the way down, what it
 * changes on the way up, and when it calls `next` again or not at all.
 */
import { describe, expect, it, vi } from 'vitest';
import { bearerAuth, INVALID_TOKEN, REDACTED_BEARER, withBearer } from '../../../src/engine/transport/auth.ts';
import { renewOn401 } from '../../../src/engine/transport/renew-on-401.ts';
import { retry429 } from '../../../src/engine/transport/retry-429.ts';
import { counting } from '../../../src/engine/transport/counting.ts';
import { paidFirst } from '../../../src/engine/transport/paid-first.ts';
import { RateLimiter, rate } from '../../../src/engine/transport/rate-limiter.ts';
import { ConcurrencyLimit, concurrency } from '../../../src/engine/transport/concurrency-limit.ts';
import { AuthenticationError, UnreachableError } from '../../../src/core/errors.ts';
import { RunStop } from '../../../src/engine/run-stop.ts';
import type { Layer } from '../../../src/engine/transport/send.ts';
import { fakeSend, request, response } from './fake-send.ts';

describe('bearerAuth', () => {
  it('sends the own token and shows it redacted, also when a layer below resent with another one', async () => {
    const next = fakeSend();
    const outcome = await bearerAuth(async () => 'tok-1')(next)(request());
    expect(next.calls[0].headers.authorization).toBe('Bearer tok-1');
    expect(outcome.request.headers.authorization).toBe(REDACTED_BEARER);

    const resending = vi.fn(async () => ({ request: withBearer(request(), 'tok-2'), response: response(200) }));
    const renewed = await bearerAuth(async () => 'tok-1')(resending)(request());
    expect(JSON.stringify(renewed)).not.toContain('tok-');
  });

  it('sends the made-up token for "invalid" and shows it as it is; nothing for "none" or without an own token', async () => {
    const ownToken = vi.fn(async () => 'tok-1');
    const next = fakeSend();
    const invalid = await bearerAuth(ownToken)(next)(request('invalid'));
    expect(invalid.request.headers.authorization).toBe(`Bearer ${INVALID_TOKEN}`);
    await bearerAuth(ownToken)(next)(request('none'));
    await bearerAuth(undefined)(next)(request());
    expect(next.calls.map((r) => r.headers.authorization)).toEqual([`Bearer ${INVALID_TOKEN}`, undefined, undefined]);
    expect(ownToken).not.toHaveBeenCalled();
  });

  it('stops the run when no token comes (the token endpoint failed mid-run): nothing is sent', async () => {
    const next = fakeSend();
    const unreachable = await bearerAuth(() => Promise.reject(new UnreachableError('cannot reach the token endpoint')))(next)(request()).catch(
      (e: unknown) => e,
    );
    const refused = await bearerAuth(() => Promise.reject(new AuthenticationError('refused')))(next)(request()).catch((e: unknown) => e);
    expect(next.calls).toHaveLength(0);
    expect(unreachable).toBeInstanceOf(RunStop);
    expect(unreachable).toMatchObject({ kind: 'token-endpoint', message: 'cannot reach the token endpoint' });
    expect(refused).toMatchObject({ kind: 'token-endpoint', message: 'refused' });
    // A bug of ours is no token endpoint failure: it keeps its own error.
    const bug = new TypeError('x is undefined');
    await expect(bearerAuth(() => Promise.reject(bug))(next)(request())).rejects.toBe(bug);
  });
});

describe('renewOn401', () => {
  const own = withBearer(request(), 'tok-1');

  it('renews the rejected token once and sends once more with the new one', async () => {
    const renew = vi.fn(async () => 'tok-2');
    const next = fakeSend(401, 200);
    const outcome = await renewOn401(renew)(next)(own);
    expect(renew).toHaveBeenCalledWith('tok-1');
    expect(next.calls.map((r) => r.headers.authorization)).toEqual(['Bearer tok-1', 'Bearer tok-2']);
    expect(outcome.response?.status).toBe(200);
    expect(outcome.request.headers.authorization).toBe('Bearer tok-2');
  });

  it('keeps the 401 before the renewal as an earlier attempt, its token redacted once bearerAuth is above', async () => {
    const next = fakeSend(401, 200);
    const outcome = await renewOn401(async () => 'tok-2')(next)(own);
    expect(outcome.earlier?.map((o) => o.response?.status)).toEqual([401]);
    const renew = vi.fn(async () => 'tok-2');
    const redacted = await bearerAuth(async () => 'tok-1')(renewOn401(renew)(fakeSend(401, 200)))(request());
    expect(redacted.earlier?.map((o) => o.request.headers.authorization)).toEqual([REDACTED_BEARER]);
    expect(JSON.stringify(redacted)).not.toContain('tok-');
  });

  it('does not loop when the new token gets a 401 too', async () => {
    const next = fakeSend(401);
    const outcome = await renewOn401(async () => 'tok-2')(next)(own);
    expect(next.calls).toHaveLength(2);
    expect(outcome.response?.status).toBe(401);
  });

  it('keeps the 401 when renewing would not help, and leaves other answers and other credentials alone', async () => {
    const next = fakeSend(401);
    const kept = await renewOn401(async () => undefined)(next)(own);
    expect(kept.response?.status).toBe(401);
    expect(next.calls).toHaveLength(1);

    const renew = vi.fn(async () => 'tok-2');
    await renewOn401(renew)(fakeSend(401))(withBearer(request('invalid'), INVALID_TOKEN));
    await renewOn401(renew)(fakeSend(401))(request('none'));
    await renewOn401(renew)(fakeSend(403))(own);
    expect(renew).not.toHaveBeenCalled();
  });

  it('renews on a challenge of invalid_token or none (RFC 6750 3.1), not on one that names another error', async () => {
    const challenged = (challenge: string) => ({ response: response(401, { 'www-authenticate': challenge }) });
    for (const challenge of [
      'Bearer realm="api", error="invalid_token", error_description="expired"',
      'bearer error=INVALID_TOKEN',
      'Bearer',
      'Basic realm="x"',
    ]) {
      const renew = vi.fn(async () => 'tok-2');
      await renewOn401(renew)(fakeSend(challenged(challenge), 200))(own);
      expect(renew, challenge).toHaveBeenCalledWith('tok-1');
    }
    for (const challenge of ['Bearer realm="api", error="invalid_request"', 'Basic realm="x", Bearer error="insufficient_scope", scope="write"']) {
      const renew = vi.fn(async () => 'tok-2');
      const next = fakeSend(challenged(challenge));
      const kept = await renewOn401(renew)(next)(own);
      expect(renew, challenge).not.toHaveBeenCalled();
      expect(next.calls).toHaveLength(1);
      expect(kept.response?.status).toBe(401);
    }
  });

  it('stops the run when the token endpoint fails at the renewal', async () => {
    const next = fakeSend(401);
    const stop = await renewOn401(() => Promise.reject(new AuthenticationError('the token endpoint failed: HTTP 503')))(next)(own).catch((e: unknown) => e);
    expect(stop).toMatchObject({ kind: 'token-endpoint', message: 'the token endpoint failed: HTTP 503' });
    expect(next.calls).toHaveLength(1);
  });
});

describe('retry429', () => {
  const tooMany = { response: response(429, { 'retry-after': '0' }) };

  it('sends again after a 429 until another answer comes', async () => {
    const next = fakeSend(tooMany, tooMany, 201);
    const outcome = await retry429(2)(next)(request());
    expect(next.calls).toHaveLength(3);
    expect(outcome.response?.status).toBe(201);
    expect(outcome.error).toBeUndefined();
  });

  it('keeps a 429 still standing after maxRetries and marks it rate-limited', async () => {
    for (const [maxRetries, message] of [
      [1, 'still 429 Too Many Requests after 1 retry'],
      [3, 'still 429 Too Many Requests after 3 retries'],
    ] as const) {
      const next = fakeSend(tooMany);
      const outcome = await retry429(maxRetries)(next)(request());
      expect(next.calls).toHaveLength(maxRetries + 1);
      expect(outcome.response?.status).toBe(429);
      expect(outcome.error).toEqual({ kind: 'rate-limited', message });
    }
  });

  it('does not retry a failure without a response', async () => {
    const next = fakeSend({ error: { kind: 'connection', message: 'ECONNRESET' }, code: 'ECONNRESET' });
    const outcome = await retry429(3)(next)(request());
    expect(next.calls).toHaveLength(1);
    expect(outcome).toMatchObject({ error: { kind: 'connection' }, code: 'ECONNRESET' });
  });
});

describe('counting', () => {
  it('counts every request passed down', async () => {
    let count = 0;
    const send = counting(() => count++)(fakeSend());
    await Promise.all([send(request()), send(request()), send(request())]);
    expect(count).toBe(3);
  });
});

describe('rate and concurrency', () => {
  it('rate: each request waits for its own start slot', async () => {
    // A fake clock: the next layer is called at each slot, whatever the machine's load.
    vi.useFakeTimers({ now: 0 });
    try {
      const calledAt: number[] = [];
      const next = fakeSend();
      const send = rate(new RateLimiter(50))((r) => {
        calledAt.push(Date.now());
        return next(r);
      }); // 20 ms apart
      const all = Promise.all(Array.from({ length: 4 }, () => send(request())));
      await vi.advanceTimersByTimeAsync(59);
      expect(calledAt).toEqual([0, 20, 40]);
      await vi.advanceTimersByTimeAsync(1);
      await all;
      expect(calledAt).toEqual([0, 20, 40, 60]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('concurrency: a request holds its place until its outcome is in', async () => {
    let inFlight = 0;
    let most = 0;
    const slow = async (r: ReturnType<typeof request>) => {
      most = Math.max(most, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight--;
      return { request: r, response: response(200) };
    };
    const send = concurrency(new ConcurrencyLimit(2))(slow);
    await Promise.all(Array.from({ length: 6 }, () => send(request())));
    expect(most).toBe(2);
  });
});

describe('paidFirst', () => {
  it('sends the first request straight out and every later one through the limits', async () => {
    const next = fakeSend();
    let limitedCalls = 0;
    const limits: Layer = (below) => (r) => {
      limitedCalls++;
      return below(r);
    };
    const send = paidFirst(limits)(next);
    await send(request());
    await send(request());
    await send(request());
    expect([next.calls.length, limitedCalls]).toEqual([3, 2]);
    await paidFirst(limits)(next)(request()); // another case: its own first request
    expect([next.calls.length, limitedCalls]).toEqual([4, 2]);
  });
});
