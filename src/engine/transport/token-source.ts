/**
 * OAuth 2 client credentials grant (RFC 6749 section 4.4; document section 5): fetches access
 * tokens from the token endpoint, caches them until shortly before they expire, and shares one
 * in-flight token request between concurrent callers.
 */
import type { AuthConfig } from '../../core/auth-config.ts';
import { httpCall, type HttpRequest } from './http-call.ts';
import { AuthenticationError, UnreachableError } from '../../core/errors.ts';
import { displayUrl } from '../../core/url.ts';
import { USER_AGENT } from '../../core/version.ts';

export type ClientCredentials = Extract<AuthConfig, { kind: 'client-credentials' }>;

/** A token is renewed this long before its expires_in runs out, so it never expires in flight. */
export const EXPIRY_MARGIN_MS = 30_000;

interface CachedToken {
  value: string;
  /** ms since the epoch; Infinity when the endpoint gave no expires_in. */
  expiresAt: number;
}

/** An OAuth `error` code is a short ASCII word (RFC 6749 5.2); anything else is not quoted back. */
const ERROR_CODE = /^[\x20\x21\x23-\x5b\x5d-\x7e]{1,64}$/;

export class TokenSource {
  private current: CachedToken | undefined;
  private inFlight: Promise<string> | undefined;
  /** RFC 6749 2.3.1 prefers HTTP Basic; some servers only read the credentials from the body. */
  private credentialsInBody = false;
  private readonly issued = new Set<string>();
  /** Token requests sent so far (tests and diagnostics). */
  requestCount = 0;

  constructor(
    private readonly config: ClientCredentials,
    private readonly timeoutMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** A valid access token: the cached one, or a fresh one. Throws AuthenticationError / UnreachableError. */
  async token(): Promise<string> {
    if (this.current && this.now() < this.current.expiresAt) return this.current.value;
    return this.fetchShared();
  }

  /**
   * A token other than `rejected` (which the target just answered 401 to). Concurrent callers
   * holding the same rejected token share one new token request.
   */
  async renew(rejected: string): Promise<string> {
    if (this.inFlight) return this.inFlight;
    if (this.current && this.current.value !== rejected && this.now() < this.current.expiresAt) return this.current.value;
    this.current = undefined;
    return this.fetchShared();
  }

  /** The client secret and every access token issued so far, for redaction. */
  secrets(): string[] {
    return [this.config.clientSecret, ...this.issued];
  }

  private fetchShared(): Promise<string> {
    this.inFlight ??= this.fetch().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async fetch(): Promise<string> {
    const sentAt = this.now();
    let answer = await this.request(this.credentialsInBody);
    if (!this.credentialsInBody && refusesBasic(answer.status, answer.body)) {
      const retry = await this.request(true);
      if (retry.status >= 200 && retry.status < 300) this.credentialsInBody = true;
      answer = retry;
    }
    const { status, body } = answer;
    const where = `the token endpoint ${displayUrl(this.config.tokenUrl)}`;
    if (status < 200 || status >= 300) {
      const code = errorCode(body, this.config.clientSecret);
      throw new AuthenticationError(`${where} refused the client credentials: HTTP ${status}${code ? ` ${code}` : ''}`);
    }
    const token = body && typeof body === 'object' ? (body as Record<string, unknown>).access_token : undefined;
    if (typeof token !== 'string' || token === '') {
      throw new AuthenticationError(`${where} answered HTTP ${status} without an access_token`);
    }
    this.issued.add(token);
    this.current = { value: token, expiresAt: expiry(sentAt, (body as Record<string, unknown>).expires_in) };
    return token;
  }

  /** One POST to the token endpoint; no answer at all is an UnreachableError. */
  private async request(credentialsInBody: boolean): Promise<{ status: number; body: unknown }> {
    const { tokenUrl, clientId, clientSecret, scope } = this.config;
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    if (scope) form.set('scope', scope);
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
      'user-agent': USER_AGENT,
    };
    if (credentialsInBody) {
      form.set('client_id', clientId);
      form.set('client_secret', clientSecret);
    } else {
      headers.authorization = `Basic ${Buffer.from(`${formEncode(clientId)}:${formEncode(clientSecret)}`, 'utf8').toString('base64')}`;
    }
    const request: HttpRequest = { method: 'POST', url: tokenUrl, headers, body: form.toString() };
    this.requestCount++;
    const outcome = await httpCall(request, this.timeoutMs);
    if ('error' in outcome) {
      throw new UnreachableError(`cannot reach the token endpoint ${displayUrl(tokenUrl)}: ${outcome.code ?? outcome.error.message}`);
    }
    return { status: outcome.response.status, body: outcome.response.json ? outcome.response.body : undefined };
  }
}

/** RFC 6749 2.3.1: id and secret are form-urlencoded before they are joined and base64-encoded. */
function formEncode(value: string): string {
  return new URLSearchParams([['v', value]]).toString().slice(2);
}

/** A 401, or a 400 invalid_client, to HTTP Basic: worth one try with the credentials in the body. */
function refusesBasic(status: number, body: unknown): boolean {
  if (status === 401) return true;
  return status === 400 && errorCode(body, '') === 'invalid_client';
}

/** The OAuth `error` field of a token error response, when it is safe to quote. */
function errorCode(body: unknown, secret: string): string | undefined {
  const code = body && typeof body === 'object' ? (body as Record<string, unknown>).error : undefined;
  if (typeof code !== 'string' || !ERROR_CODE.test(code)) return undefined;
  if (secret && code.includes(secret)) return undefined;
  return code;
}

/** When a token stops being used: EXPIRY_MARGIN_MS before expires_in runs out (half-way for very short lives). */
function expiry(sentAt: number, expiresIn: unknown): number {
  const seconds = typeof expiresIn === 'string' && /^\d+$/.test(expiresIn.trim()) ? Number(expiresIn) : expiresIn;
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0) return Infinity;
  const lifeMs = seconds * 1000;
  return sentAt + lifeMs - Math.min(EXPIRY_MARGIN_MS, lifeMs / 2);
}
