/**
 * Waits out 429 Too Many Requests (Retry-After, else backoff: retry-after.ts) and sends again, up
 * to maxRetries times; a 429 still standing then is kept and marked rate-limited.
 */
import { retryDelayMs } from './retry-after.ts';
import type { Layer } from './send.ts';

export function retry429(maxRetries: number): Layer {
  return (next) => async (request) => {
    for (let retry = 0; ; retry++) {
      const outcome = await next(request);
      const { response } = outcome;
      if (response?.status !== 429) return outcome;
      if (retry >= maxRetries) {
        const retries = `${maxRetries} ${maxRetries === 1 ? 'retry' : 'retries'}`;
        return { ...outcome, error: { kind: 'rate-limited', message: `still 429 Too Many Requests after ${retries}` } };
      }
      await sleep(retryDelayMs(response.headers['retry-after'], retry));
    }
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
