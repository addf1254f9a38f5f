/**
 * Interruption (SIGINT, SIGTERM): once the run's signal is aborted no request is sent any more,
 * and a request in flight gets `graceMs` to finish before it is given up, so the reports are
 * written promptly even when the target hangs. What comes back is an error the runner does not
 * judge: it stops at the next case (src/engine/run-stop.ts RunInterrupted).
 *
 * The run's cleanup (putting the pool accounts back, src/engine/restore/) is still sent after the
 * interrupt, each request within the grace: the user asked the run to stop, not to leave the
 * sandbox changed.
 */
import type { Layer, Outcome, Request } from './send.ts';

/** How long requests in flight may still take once the user interrupted the run. */
export const INTERRUPT_GRACE_MS = 2_000;

export function interruptible(signal: AbortSignal | undefined, graceMs = INTERRUPT_GRACE_MS): Layer {
  if (!signal) return (next) => next;
  const graced = withinGrace(signal, graceMs);
  return (next) => {
    const send = graced(next);
    return async (request) => (signal.aborted ? notSent(request) : send(request));
  };
}

/**
 * Sends whether or not the run was interrupted; once it was, the request is given up `graceMs`
 * later (a function: the cleanup's grace follows the target's observed latency, latency-watch.ts).
 */
export function withinGrace(signal: AbortSignal | undefined, grace: number | (() => number) = INTERRUPT_GRACE_MS): Layer {
  if (!signal) return (next) => next;
  return (next) => async (request) => {
    const graceMs = typeof grace === 'number' ? grace : grace();
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const givenUp = new Promise<Outcome>((resolve) => {
      onAbort = () => {
        timer = setTimeout(() => resolve(cut(request, graceMs)), graceMs);
      };
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
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
