/**
 * Counts the requests that reach the target (the report's request count): every attempt, retries
 * and resends included. Token requests go through TokenSource, not this stack, so are not counted.
 */
import type { Layer } from './send.ts';

export function counting(count: () => void): Layer {
  return (next) => (request) => {
    count();
    return next(request);
  };
}
