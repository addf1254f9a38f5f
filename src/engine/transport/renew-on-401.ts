/**
 * A 401 to the run's own token may mean it was revoked or expired early: renew it once and send
 * once more, unless its Bearer challenge names another error than invalid_token (RFC 6750 3.1:
 * invalid_request, insufficient_scope): a new token would be refused alike. Sits below
 * bearerAuth, which redacts whichever token was sent last. A token endpoint that fails at that
 * moment stops the run (tokenFailureMidRun).
 */
import { bearerToken, tokenFailureMidRun, withBearer } from './auth.ts';
import { renewalMayHelp } from './bearer-error.ts';
import { afterAttempts, type Layer } from './send.ts';

/**
 * @param renew a token other than the rejected one (TokenSource.renew), undefined when renewing
 * would not help; absent when the run's token is not fetched (a static token that gets a 401 keeps it).
 */
export function renewOn401(renew: ((rejected: string) => Promise<string | undefined>) | undefined): Layer {
  if (!renew) return (next) => next;
  return (next) => async (request) => {
    const outcome = await next(request);
    // Only our own token: a case sent with none or a made-up one expects the 401.
    const token = request.auth === undefined ? bearerToken(request) : undefined;
    if (outcome.response?.status !== 401 || token === undefined) return outcome;
    if (!renewalMayHelp(outcome.response.headers['www-authenticate'])) return outcome;
    let renewed: string | undefined;
    try {
      renewed = await renew(token);
    } catch (error) {
      throw tokenFailureMidRun(error);
    }
    // No newer token: the 401 stays the evidence; else it is an attempt before the one judged.
    return renewed === undefined ? outcome : afterAttempts(await next(withBearer(request, renewed)), [outcome]);
  };
}
