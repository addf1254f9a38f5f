/**
 * Counts the requests that reach the target (the report's request count): every attempt, retries
 * and resends included, and tells the request it went (recording.ts records only what went, so
 * exchanges.har holds as many entries as are counted). Token requests go through TokenSource, not
 * this stack, so are not counted.
 */
import type { Layer } from './send.ts';

export function counting(count: () => void): Layer {
  return (next) => (request) => {
    count();
    request.onWire?.();
    return next(request);
  };
}
