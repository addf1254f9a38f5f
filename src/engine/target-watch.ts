/**
 * Notices a target that stopped answering mid-run (a crashed process, a dropped network), so the
 * run ends with exit 3 and a partial report instead of "judging" hundreds of dead requests.
 */
import type { Exchange } from '../core/exchange.ts';
import { RunStop } from './run-stop.ts';

/**
 * Answerless exchanges in a row before the target is asked once more. One defect can drop a few
 * connections in a row (a body the server chokes on, shrunk by fast-check): the probe, a request
 * that worked at the start of the run, tells such a defect from a dead target.
 */
export const ANSWERLESS_STREAK = 5;

/** The target gave no answer to several requests in a row, nor to the probe after them. */
export class TargetLost extends RunStop {
  constructor(readonly last: Exchange) {
    super(
      'unreachable',
      `the target stopped answering: ${last.error?.kind ?? 'no answer'}: ${last.error?.message ?? ''} (${last.request.method} ${last.request.url})`,
    );
  }
}

const answerless = (e: Exchange): boolean => !e.response && (e.error?.kind === 'connection' || e.error?.kind === 'timeout');

export class TargetWatch {
  private streak = 0;

  /** `probe` sends a request known to work (an empty update of a pool account). */
  constructor(private readonly probe: () => Promise<Exchange>) {}

  /** Throws TargetLost once the streak is long and the probe gets no answer either. */
  async observe(e: Exchange): Promise<void> {
    if (!answerless(e)) {
      this.streak = 0;
      return;
    }
    if (++this.streak < ANSWERLESS_STREAK) return;
    const probe = await this.probe();
    if (answerless(probe)) throw new TargetLost(probe);
    this.streak = 0;
  }
}
