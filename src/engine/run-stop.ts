/**
 * An error that ends a run early but still leaves a report: the runner catches it wherever it is
 * thrown (inside a fast-check property too), records what was judged until then, and the report
 * says why it stopped (`report.stopped`). Anything else thrown mid-run is a bug and keeps its stack.
 */
import type { Stop } from './events.ts';

export class RunStop extends Error {
  constructor(
    readonly kind: Stop['kind'],
    message: string,
    readonly signal?: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The user interrupted the run (SIGINT, SIGTERM, SIGHUP): stop sending, report what was judged. */
export class RunInterrupted extends RunStop {
  constructor(signal: string) {
    super('interrupted', `interrupted by ${signal}`, signal);
  }
}

/** `work`, or RunInterrupted as soon as `signal` aborts (for waits that no request check covers: connecting). */
export function untilInterrupted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  const interrupted = () => new RunInterrupted(String(signal.reason));
  if (signal.aborted) return Promise.reject(interrupted());
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(interrupted());
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([work, aborted]).finally(() => signal.removeEventListener('abort', onAbort!));
}
