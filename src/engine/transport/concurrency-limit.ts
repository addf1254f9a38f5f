/**
 * At most N tasks at once; the others wait in arrival order. `mapWithConcurrency` bounds one
 * array; this bounds every send of a transport, wherever the calls come from (scenarios send
 * concurrent duplicates on their own).
 */
import type { Layer } from './send.ts';

/** The layer: each request holds a place in flight until its outcome is in. */
export function concurrency(limit: ConcurrencyLimit): Layer {
  return (next) => (request) => limit.run(() => next(request));
}

export class ConcurrencyLimit {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly limit: number;

  constructor(limit: number) {
    this.limit = Math.max(1, Math.floor(limit) || 1);
  }

  /** Runs `task` once a place is free and frees the place when it settles. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // The place passes straight to the next waiter, so `active` never drops and rises again.
      if (next) next();
      else this.active--;
    }
  }
}
