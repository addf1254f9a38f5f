/**
 * Interruption (SIGINT, SIGTERM): once the run's signal is aborted no request is sent any more,
 * and a request in flight gets `graceMs` to finish before it is given up, so the reports are
 * written promptly even when the target hangs. What comes back is an error the runner does not
 * judge: it stops at the next case (src/engine/run-stop.ts RunInterrupted).
 */
import type { Layer, Outcome, Request } from './send.ts';

/** How long requests in flight may still take once the user interrupted the run. */
export const INTERRUPT_GRACE_MS = 2_000;

export function interruptible(signal: AbortSignal | undefined, graceMs = INTERRUPT_GRACE_MS): Layer {
  if (!signal) return (next) => next;
  return (next) => async (request) => {
    if (signal.aborted) return notSent(request);
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const givenUp = new Promise<Outcome>((resolve) => {
      onAbort = () => {
        timer = setTimeout(() => resolve(cut(request, graceMs)), graceMs);
      };
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([next(request), givenUp]);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort!);
    }
  };
}

const notSent = (request: Request): Outcome => ({ request, error: { kind: 'other', message: 'not sent: the run was interrupted' } });

const cut = (request: Request, graceMs: number): Outcome => ({
  request,
  error: { kind: 'other', message: `given up ${graceMs} ms after the run was interrupted` },
});
