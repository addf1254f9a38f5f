/**
 * The pieces the transport paces itself with: Retry-After reading, start spacing and the
 * in-flight bound, without a network.
 */
import { describe, expect, it } from 'vitest';
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
  it('spaces concurrent starts 1000/N ms apart', async () => {
    const limiter = new RateLimiter(50); // 20 ms apart
    const starts: number[] = [];
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        await limiter.acquire();
        starts.push(Date.now());
      }),
    );
    expect(starts.at(-1)! - starts[0]).toBeGreaterThanOrEqual(90); // 5 gaps of 20 ms, with timer slack
  });

  it('does not wait when unlimited', async () => {
    const limiter = new RateLimiter(null);
    const started = Date.now();
    for (let i = 0; i < 100; i++) await limiter.acquire();
    expect(Date.now() - started).toBeLessThan(50);
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
