/**
 * The first request of a burst case (sendTogether): its start slot is paid by the burst's one
 * rate-limit reservation, and it must not wait for a place in flight, since the race is what the
 * burst tests. It passes `limits` by; later ones (429 retries, a resend after a renewal) go
 * through them and queue like any request. One instance per case: it remembers its first call.
 */
import type { Layer } from './send.ts';

export function paidFirst(limits: Layer): Layer {
  return (next) => {
    const limited = limits(next);
    let paid = true;
    return (request) => {
      if (!paid) return limited(request);
      paid = false;
      return next(request);
    };
  };
}
