/**
 * A 401 to the run's own token may mean it was revoked or expired early: renew it once and send
 * once more. Sits below bearerAuth, which redacts whichever token was sent last.
 */
import { bearerToken, withBearer } from './auth.ts';
import type { Layer } from './send.ts';

/** @param renew a token other than the rejected one (TokenSource.renew); throws when none comes. */
export function renewOn401(renew: (rejected: string) => Promise<string>): Layer {
  return (next) => async (request) => {
    const outcome = await next(request);
    // Only our own token: a case sent with none or a made-up one expects the 401.
    const token = request.auth === undefined ? bearerToken(request) : undefined;
    if (outcome.response?.status !== 401 || token === undefined) return outcome;
    let renewed: string;
    try {
      renewed = await renew(token);
    } catch {
      return outcome; // The 401 stays the evidence.
    }
    return next(withBearer(request, renewed));
  };
}
