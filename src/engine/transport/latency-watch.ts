/**
 * How long the target takes to answer, for the grace a request of the cleanup gets after an
 * interrupt: a fixed 2 s cut every write-back short on a target slower than that, and the user's
 * accounts stayed changed. The grace is a few times the slowest recent answer, never below
 * INTERRUPT_GRACE_MS nor above the request timeout.
 */
import type { Layer } from './send.ts';

/** Answers remembered: recent enough to follow a target that slows down. */
const REMEMBERED = 20;
/** The grace is this many times the slowest remembered answer. */
const FACTOR = 3;

export class LatencyWatch {
  private readonly recent: number[] = [];

  constructor(
    private readonly floorMs: number,
    private readonly ceilingMs: number,
  ) {}

  /** Notes the duration of every answered request. */
  readonly layer: Layer = (next) => async (request) => {
    const outcome = await next(request);
    if (outcome.response && outcome.durationMs !== undefined) {
      this.recent.push(outcome.durationMs);
      if (this.recent.length > REMEMBERED) this.recent.shift();
    }
    return outcome;
  };

  /** The grace a cleanup request gets after an interrupt. */
  graceMs(): number {
    const slowest = Math.max(0, ...this.recent);
    return Math.min(this.ceilingMs, Math.max(this.floorMs, FACTOR * slowest));
  }
}
