/**
 * Bearer authentication (document section 5): puts the credential a request asks for into its
 * Authorization header, and keeps the run's own token out of the record. No token for a case
 * mid-run stops the run (RunStop 'token-endpoint').
 */
import { ConformanceError } from '../../core/errors.ts';
import { RunStop } from '../run-stop.ts';
import { REDACTED } from '../../core/redaction.ts';
import { withHeader, type Layer, type Outcome, type Request } from './send.ts';

/**
 * The bearer token sent for `auth: 'invalid'` cases. Made up and not a secret: it is recorded
 * and shown in curl lines as it is, so the case can be reproduced exactly.
 */
export const INVALID_TOKEN = 'conformance-invalid-token-0000';

/** The Authorization value of `auth: 'wrong-scheme'` cases: Basic credentials "conformance:invalid", made up. */
export const WRONG_SCHEME_AUTHORIZATION = 'Basic Y29uZm9ybWFuY2U6aW52YWxpZA==';

/** What the recorded request shows instead of the real bearer token. */
export const REDACTED_BEARER = `Bearer ${REDACTED}`;

/** The run's own token (static, or from the token endpoint); undefined when the run sends none. */
export type OwnToken = (() => Promise<string>) | undefined;

export const withBearer = (request: Request, token: string): Request => withHeader(request, 'authorization', `Bearer ${token}`);

/** The bearer token a request carries, if any. */
export function bearerToken(request: Request): string | undefined {
  const value = request.headers.authorization;
  return value?.startsWith('Bearer ') ? value.slice('Bearer '.length) : undefined;
}

/**
 * A token endpoint that fails mid-run (the first token came before the run) stops it: every case
 * after it would go out without a token and judge nothing. A bug of ours keeps its own error.
 */
export function tokenFailureMidRun(error: unknown): unknown {
  return error instanceof ConformanceError ? new RunStop('token-endpoint', error.message) : error;
}

/** Which fetched token a token is (TokenSource.generationOf); absent when the run's token is not fetched. */
export type TokenGenerationOf = ((token: string) => number | undefined) | undefined;

export function bearerAuth(ownToken: OwnToken, generationOf?: TokenGenerationOf): Layer {
  return (next) => async (request) => {
    if (request.auth === 'none') return next(request);
    if (request.auth === 'invalid') return next(withBearer(request, INVALID_TOKEN));
    if (request.auth === 'empty') return next(withHeader(request, 'authorization', 'Bearer '));
    if (request.auth === 'wrong-scheme') return next(withHeader(request, 'authorization', WRONG_SCHEME_AUTHORIZATION));
    if (!ownToken) return next(request);
    let token: string;
    try {
      token = await ownToken();
    } catch (error) {
      throw tokenFailureMidRun(error);
    }
    const outcome = await next(withBearer(request, token));
    // Redacted here, where the token is known to be ours: also a renewed one sent further down,
    // and in the attempts sent again.
    // The record keeps which token generation went instead (a 401's attempt and its renewal differ).
    const redacted = (o: Outcome): Outcome => {
      const sent = bearerToken(o.request);
      const generation = sent !== undefined ? generationOf?.(sent) : undefined;
      return { ...o, request: withHeader(o.request, 'authorization', REDACTED_BEARER), ...(generation !== undefined ? { tokenGeneration: generation } : {}) };
    };
    return { ...redacted(outcome), ...(outcome.earlier ? { earlier: outcome.earlier.map(redacted) } : {}) };
  };
}
