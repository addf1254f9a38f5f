/**
 * Spaces request starts at least 1000/N ms apart, whoever sends them: concurrent sends queue for
 * the next free start slot. A sandbox with a quota is then never hit faster than configured.
 */
import type { Layer } from './send.ts';

/** The layer: each request waits for its start slot. */
export function rate(limiter: RateLimiter): Layer {
  return (next) => async (request) => {
    await limiter.acquire();
    return next(request);
  };
}

export class RateLimiter {
  private readonly intervalMs: number;
  private nextStart = 0;

  /** @param perSecond requests per second; null means no limit. */
  constructor(perSecond: number | null) {
    this.intervalMs = perSecond && perSecond > 0 ? 1000 / perSecond : 0;
  }

  /** Resolves when the caller may start its request. */
  acquire(): Promise<void> {
    return this.acquireBurst(1);
  }

  /**
   * Resolves when the caller may start `count` requests at the same moment. The burst pays for
   * its slots afterwards: the next request waits as if they had been spaced out, so the average
   * rate still holds.
   */
  async acquireBurst(count: number): Promise<void> {
    if (this.intervalMs === 0) return;
    const now = Date.now();
    const start = Math.max(now, this.nextStart);
    // Reserve the slots before sleeping, so concurrent callers line up behind them.
    this.nextStart = start + this.intervalMs * count;
    if (start > now) await new Promise((resolve) => setTimeout(resolve, start - now));
  }
}
