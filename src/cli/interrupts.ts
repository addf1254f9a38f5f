/**
 * SIGINT, SIGTERM and SIGHUP during a run: the first one aborts the run's signal (its reason is
 * the signal's name), so the run stops sending and writes its reports marked interrupted; a
 * second one exits at once with 128 + the signal's number, as a shell expects.
 */
import { setMaxListeners } from 'node:events';
import { exitCodeOfSignal } from '../core/errors.ts';

export interface Interruption {
  /** Aborted at the first signal; `reason` is its name (SIGINT ...). */
  readonly signal: AbortSignal;
  /** Removes the handlers: signals act as usual again. */
  dispose(): void;
}

const HANDLED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Installs the handlers on this process; `notice` is told of the first signal. */
export function processInterrupts(notice: (name: string) => void): Interruption {
  const controller = new AbortController();
  // Every request in flight, or waiting for its slot, listens until it settles: with --concurrency
  // that is more than the default 10, and no leak.
  setMaxListeners(0, controller.signal);
  const handler = (name: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(exitCodeOfSignal(name));
    notice(name);
    controller.abort(name);
  };
  for (const name of HANDLED) process.on(name, handler);
  return {
    signal: controller.signal,
    dispose: () => {
      for (const name of HANDLED) process.off(name, handler);
    },
  };
}
