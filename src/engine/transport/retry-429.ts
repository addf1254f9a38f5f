/**
 * Waits out 429 Too Many Requests (Retry-After, else backoff: retry-after.ts) and sends again, up
 * to maxRetries times; a 429 still standing then is kept and marked rate-limited.
 */
import { retryDelayMs } from './retry-after.ts';
import { afterAttempts, type Layer, type Outcome } from './send.ts';

export function retry429(maxRetries: number): Layer {
  return (next) => async (request) => {
    // The 429s waited out: the exchange keeps them (exchanges.har records every request sent).
    const waitedOut: Outcome[] = [];
    for (let retry = 0; ; retry++) {
      const outcome = await next(request);
      const { response } = outcome;
      if (response?.status !== 429) return afterAttempts(outcome, waitedOut);
      if (retry >= maxRetries) {
        const retries = `${maxRetries} ${maxRetries === 1 ? 'retry' : 'retries'}`;
        return afterAttempts({ ...outcome, error: { kind: 'rate-limited', message: `still 429 Too Many Requests after ${retries}` } }, waitedOut);
      }
      waitedOut.push(outcome);
      await sleep(retryDelayMs(response.headers['retry-after'], retry));
    }
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
