/**
 * One POST to the token endpoint (RFC 6749 4.4.2; document section 5), read into what it means
 * for the harness: a token, a refusal of the credentials (400/401), or a failure of the endpoint
 * (no answer, 5xx, 429, an unreadable answer). Never throws; never quotes the secret or a token.
 */
import type { AuthConfig } from '../../core/auth-config.ts';
import { USER_AGENT } from '../../core/version.ts';
import { httpCall, noAnswerReason } from './http-call.ts';
import type { Route } from './proxy-route.ts';

export type ClientCredentials = Extract<AuthConfig, { kind: 'client-credentials' }>;

/** Where the client credentials go (RFC 6749 2.3.1): HTTP Basic, or the form body. */
export type ClientAuthMethod = 'basic' | 'body';

export type TokenAnswer =
  | { kind: 'token'; token: string; expiresIn: unknown }
  /** 400 or 401: the endpoint read the request and refused the client. */
  | { kind: 'refused'; what: string }
  /** The endpoint did not issue a token for another reason; `retryable` when it may pass. */
  | { kind: 'failed'; what: string; retryable: boolean; retryAfter?: string }
  /** No HTTP answer at all (refused connection, timeout ...): worth another try. */
  | { kind: 'unreachable'; what: string };

/** An OAuth `error` code is a short ASCII word (RFC 6749 5.2); anything else is not quoted back. */
const ERROR_CODE = /^[\x20\x21\x23-\x5b\x5d-\x7e]{1,64}$/;

/** `route`: through the proxy the environment names for the token URL, or directly (the embedded server's endpoint). */
export async function requestToken(config: ClientCredentials, method: ClientAuthMethod, timeoutMs: number, route: Route = 'environment'): Promise<TokenAnswer> {
  const { tokenUrl, clientId, clientSecret, scope } = config;
  const form = new URLSearchParams({ grant_type: 'client_credentials' });
  if (scope) form.set('scope', scope);
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
    'user-agent': USER_AGENT,
  };
  if (method === 'body') {
    form.set('client_id', clientId);
    form.set('client_secret', clientSecret);
  } else {
    headers.authorization = `Basic ${Buffer.from(`${formEncode(clientId)}:${formEncode(clientSecret)}`, 'utf8').toString('base64')}`;
  }
  const outcome = await httpCall({ method: 'POST', url: tokenUrl, headers, body: form.toString() }, timeoutMs, route);
  if ('error' in outcome) return { kind: 'unreachable', what: noAnswerReason(outcome) };
  const { status, headers: answerHeaders } = outcome.response;
  const body = outcome.response.json ? outcome.response.body : undefined;
  const code = errorCode(body, clientSecret);
  const what = `HTTP ${status}${code ? ` ${code}` : ''}`;
  if (status === 400 || status === 401) return { kind: 'refused', what };
  if (status < 200 || status >= 300) {
    const retryable = status >= 500 || status === 429 || status === 408;
    const retryAfter = answerHeaders['retry-after'];
    return { kind: 'failed', what, retryable, ...(retryAfter !== undefined ? { retryAfter } : {}) };
  }
  if (!body || typeof body !== 'object') return { kind: 'failed', what: `${what} without a JSON body`, retryable: false };
  const token = (body as Record<string, unknown>).access_token;
  if (typeof token !== 'string' || token === '') return { kind: 'failed', what: `${what} without an access_token`, retryable: false };
  return { kind: 'token', token, expiresIn: (body as Record<string, unknown>).expires_in };
}

/** RFC 6749 2.3.1: id and secret are form-urlencoded before they are joined and base64-encoded. */
function formEncode(value: string): string {
  return new URLSearchParams([['v', value]]).toString().slice(2);
}

/** The OAuth `error` field of a token error response, when it is safe to quote. */
function errorCode(body: unknown, secret: string): string | undefined {
  const code = body && typeof body === 'object' ? (body as Record<string, unknown>).error : undefined;
  if (typeof code !== 'string' || !ERROR_CODE.test(code)) return undefined;
  if (secret && code.includes(secret)) return undefined;
  return code;
}
