/**
 * The pieces the transport paces itself with: Retry-After reading, start spacing and the
 * in-flight bound, without a network.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_RETRY_WAIT_MS, parseRetryAfter, retryDelayMs } from '../../../src/engine/transport/retry-after.ts';
import { RateLimiter } from '../../../src/engine/transport/rate-limiter.ts';
import { ConcurrencyLimit } from '../../../src/engine/transport/concurrency-limit.ts';

describe('Retry-After', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');

  it('reads seconds and HTTP dates (RFC 9110 10.2.3)', () => {
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0); // in the past
    expect(parseRetryAfter('-1', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  it('caps the wait at 60 s and backs off exponentially from 500 ms without a header', () => {
    expect(retryDelayMs('3600', 0, now)).toBe(MAX_RETRY_WAIT_MS);
    expect([0, 1, 2, 3].map((attempt) => retryDelayMs(undefined, attempt, now))).toEqual([500, 1000, 2000, 4000]);
    expect(retryDelayMs(undefined, 20, now)).toBe(MAX_RETRY_WAIT_MS);
    expect(retryDelayMs('garbage', 1, now)).toBe(1000);
  });
});

describe('RateLimiter', () => {
  // Time is the subject: a fake clock (Date and setTimeout), advanced by hand, so a loaded machine
  // changes nothing.
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** The clock reading at which each of `count` concurrent acquires resolved. */
  async function startsOf(limiter: RateLimiter, count: number, acquire = (l: RateLimiter) => l.acquire()): Promise<number[]> {
    const starts: number[] = [];
    const all = Promise.all(Array.from({ length: count }, () => acquire(limiter).then(() => starts.push(Date.now()))));
    await vi.runAllTimersAsync();
    await all;
    return starts;
  }

  it('spaces concurrent starts 1000/N ms apart, the first at once', async () => {
    expect(await startsOf(new RateLimiter(50), 6)).toEqual([0, 20, 40, 60, 80, 100]);
  });

  it('lets a caller that comes after a quiet spell start at once', async () => {
    const limiter = new RateLimiter(50);
    await startsOf(limiter, 2);
    await vi.advanceTimersByTimeAsync(1000);
    expect(await startsOf(limiter, 1)).toEqual([1020]);
  });

  it('makes the request after a burst wait for the slots the burst took', async () => {
    const limiter = new RateLimiter(50);
    expect(await startsOf(limiter, 1, (l) => l.acquireBurst(5))).toEqual([0]);
    expect(await startsOf(limiter, 1)).toEqual([100]);
  });

  it('does not wait when unlimited: no timer is ever set', async () => {
    const limiter = new RateLimiter(null);
    for (let i = 0; i < 100; i++) await limiter.acquire();
    expect(vi.getTimerCount()).toBe(0);
    expect(Date.now()).toBe(0);
  });
});

describe('ConcurrencyLimit', () => {
  it('runs at most N tasks at once and all of them in the end', async () => {
    const limit = new ConcurrencyLimit(3);
    let running = 0;
    let most = 0;
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        limit.run(async () => {
          most = Math.max(most, ++running);
          await new Promise((r) => setTimeout(r, 5));
          running--;
          return i;
        }),
      ),
    );
    expect(most).toBe(3);
    expect(results).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('frees the place of a task that throws', async () => {
    const limit = new ConcurrencyLimit(1);
    await expect(
      limit.run(async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await expect(limit.run(async () => 'next')).resolves.toBe('next');
  });
});
