/**
 * The first request of a burst case (sendTogether): its start slot is paid by the burst's one
 * rate-limit reservation, and it must not wait for a place in flight, since the race is what the
 * burst tests. It goes straight to `direct`; later ones (429 retries, a resend after a renewal)
 * go to `next` and queue like any request. One instance per case: it remembers its first call.
 */
import type { Layer, Send } from './send.ts';

export function paidFirst(direct: Send): Layer {
  return (next) => {
    let paid = true;
    return (request) => {
      if (!paid) return next(request);
      paid = false;
      return direct(request);
    };
  };
}
