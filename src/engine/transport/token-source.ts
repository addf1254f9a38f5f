/**
 * OAuth 2 client credentials grant (RFC 6749 section 4.4; document section 5), for token
 * endpoints as they are: HTTP Basic first, the form body when Basic is refused (and only the body
 * once it worked); tokens cached until shortly before expires_in runs out; one token request in
 * flight at a time; a failing endpoint retried a few times with growing waits, then its failure
 * remembered, so that a broken endpoint never gets one request per case (a lockout risk).
 */
import { AuthenticationError, UnreachableError, type ConformanceError } from '../../core/errors.ts';
import { displayUrl } from '../../core/url.ts';
import type { TokenRenewal } from '../../core/token-renewal.ts';
import { RunInterrupted } from '../run-stop.ts';
import { MAX_RETRY_WAIT_MS, parseRetryAfter } from './retry-after.ts';
import type { Route } from './proxy-route.ts';
import { requestToken, type ClientAuthMethod, type ClientCredentials, type TokenAnswer } from './token-request.ts';
import { abortableWait } from '../../core/abortable-wait.ts';

export type { ClientCredentials } from './token-request.ts';

/** A token is renewed this long before its expires_in runs out, so it never expires in flight. */
export const EXPIRY_MARGIN_MS = 30_000;
/** The waits before each retry of a failed token request; its length is the number of retries. */
export const TOKEN_RETRY_DELAYS_MS: readonly number[] = [500, 1_000, 2_000];
/** A failed token request answers every caller for this long without a new request. */
export const FAILURE_MEMORY_MS = 10_000;
/** A token from a renewal that the target refuses within this time is not renewed again (the target refuses more than the token). */
export const RENEWAL_COOLDOWN_MS = 10_000;

export interface TokenSourceOptions {
  /** The clock, ms since the epoch. */
  now?: () => number;
  /** Waits between tries, cut short when `signal` aborts; tests resolve at once. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  retryDelaysMs?: readonly number[];
  /** The run's interruption: no further try after it (RunInterrupted). */
  signal?: AbortSignal;
  /** Through the environment's proxy (the default) or directly (proxy-route.ts). */
  route?: Route;
}

interface CachedToken {
  value: string;
  /** ms since the epoch; Infinity when the endpoint gave no expires_in. */
  renewAt: number;
  expiresAt: number;
  issuedAt: number;
  /** It came from a renewal after the target answered 401. */
  renewed: boolean;
}

const LABEL: Record<ClientAuthMethod, string> = { basic: 'HTTP Basic', body: 'the form body' };

export class TokenSource {
  private current: CachedToken | undefined;
  private inFlight: Promise<string> | undefined;
  /** The method that worked, kept for the rest of the run; undefined: Basic, then the body. */
  private method: ClientAuthMethod | undefined;
  private failure: { error: ConformanceError; at: number } | undefined;
  private readonly issued = new Set<string>();
  /** Each distinct token issued, numbered from 1 in the order it came (the record shows the number, never the token). */
  private readonly generations = new Map<string, number>();
  private readonly now: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly retryDelaysMs: readonly number[];
  private readonly signal: AbortSignal | undefined;
  private readonly route: Route;
  /** Token requests sent so far (tests and diagnostics). */
  requestCount = 0;

  constructor(
    private readonly config: ClientCredentials,
    private readonly timeoutMs: number,
    options: TokenSourceOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? abortableWait;
    this.retryDelaysMs = options.retryDelaysMs ?? TOKEN_RETRY_DELAYS_MS;
    this.signal = options.signal;
    this.route = options.route ?? 'environment';
  }

  /** A valid access token: the cached one, or a fresh one. Throws AuthenticationError / UnreachableError. */
  async token(): Promise<string> {
    const current = this.current;
    if (current && this.now() < current.renewAt) return current.value;
    if (!current || this.now() >= current.expiresAt) return this.fetchShared(false);
    // Renewing early: while the renewal fails, the current token serves until it expires.
    try {
      return await this.fetchShared(false);
    } catch (error) {
      if (this.now() < current.expiresAt) return current.value;
      throw error;
    }
  }

  /**
   * A token other than `rejected` (which the target just answered 401 to). Concurrent callers
   * holding the same rejected token share one new token request. Undefined when renewing would
   * not help: the rejected token came from a renewal moments ago.
   */
  async renew(rejected: string): Promise<string | undefined> {
    if (this.inFlight) return this.inFlight;
    const current = this.current;
    if (current && current.value !== rejected && this.now() < current.expiresAt) return current.value;
    if (current?.value === rejected && current.renewed && this.now() - current.issuedAt < RENEWAL_COOLDOWN_MS) return undefined;
    this.current = undefined;
    return this.fetchShared(true);
  }

  /**
   * A new token now, whatever the cache holds (a scenario that must see requests on two tokens,
   * docs/design.md "ref_ids across access tokens"): one token request. The endpoint may
   * hand back the token the run holds (`same-token`); a failure leaves the current token serving.
   */
  async forceRenewal(): Promise<TokenRenewal> {
    const before = this.current?.value;
    try {
      const token = await this.fetchShared(false);
      const generation = this.generations.get(token) ?? 0;
      return token === before ? { kind: 'same-token', generation } : { kind: 'renewed', generation };
    } catch (error) {
      if (error instanceof RunInterrupted) throw error;
      return { kind: 'failed', what: error instanceof Error ? error.message : String(error) };
    }
  }

  /** Which issued token this is (1 the first); undefined for a token this source did not issue. */
  generationOf(token: string): number | undefined {
    return this.generations.get(token);
  }

  /** The client secret and every access token issued so far, for redaction. */
  secrets(): string[] {
    return [this.config.clientSecret, ...this.issued];
  }

  private fetchShared(renewed: boolean): Promise<string> {
    if (this.inFlight) return this.inFlight;
    if (this.signal?.aborted) return Promise.reject(new RunInterrupted(String(this.signal.reason)));
    // A failure moments ago answers for the endpoint: no new request.
    if (this.failure && this.now() - this.failure.at < FAILURE_MEMORY_MS) return Promise.reject(this.failure.error);
    this.inFlight = this.fetch(renewed).finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async fetch(renewed: boolean): Promise<string> {
    let basicRefused: string | undefined;
    for (let retry = 0; ; retry++) {
      let method: ClientAuthMethod = this.method ?? (basicRefused ? 'body' : 'basic');
      let sentAt = this.now();
      let answer = await this.send(method);
      // RFC 6749 2.3.1 wants Basic accepted, but many endpoints read only the body.
      if (answer.kind === 'refused' && method === 'basic' && !this.method) {
        basicRefused = answer.what;
        method = 'body';
        sentAt = this.now();
        answer = await this.send(method);
      }
      if (answer.kind === 'token') {
        this.method = method;
        this.failure = undefined;
        this.issued.add(answer.token);
        if (!this.generations.has(answer.token)) this.generations.set(answer.token, this.generations.size + 1);
        this.current = { value: answer.token, ...lifetime(sentAt, answer.expiresIn), issuedAt: sentAt, renewed };
        return answer.token;
      }
      const wait = this.retryWait(answer, retry);
      if (typeof wait !== 'number') {
        const error = this.failureError(answer, method, retry + 1, basicRefused, wait.note);
        this.failure = { error, at: this.now() };
        throw error;
      }
      await this.sleep(wait, this.signal);
      if (this.signal?.aborted) throw new RunInterrupted(String(this.signal.reason));
    }
  }

  private send(method: ClientAuthMethod): Promise<TokenAnswer> {
    this.requestCount++;
    return requestToken(this.config, method, this.timeoutMs, this.route);
  }

  /** How long to wait before the next try, or why there is none. */
  private retryWait(answer: Exclude<TokenAnswer, { kind: 'token' }>, retry: number): number | { note?: string } {
    if (answer.kind === 'refused' || (answer.kind === 'failed' && !answer.retryable)) return {};
    if (retry >= this.retryDelaysMs.length) return {};
    const asked = answer.kind === 'failed' ? parseRetryAfter(answer.retryAfter, this.now()) : undefined;
    if (asked !== undefined && asked > MAX_RETRY_WAIT_MS) return { note: `it asked to retry after ${Math.round(asked / 1000)} s` };
    return Math.max(asked ?? 0, this.retryDelaysMs[retry]);
  }

  private failureError(
    answer: Exclude<TokenAnswer, { kind: 'token' }>,
    method: ClientAuthMethod,
    tries: number,
    basicRefused: string | undefined,
    note?: string,
  ): ConformanceError {
    const where = `the token endpoint ${displayUrl(this.config.tokenUrl, true)}`;
    if (answer.kind === 'refused') {
      const tried = !basicRefused
        ? `tried ${LABEL[method]}`
        : basicRefused === answer.what
          ? 'tried HTTP Basic and the form body'
          : `tried HTTP Basic, refused with ${basicRefused}, then the form body`;
      return new AuthenticationError(`${where} refused the client credentials: ${answer.what} (${tried})`);
    }
    const notes = [
      ...(tries > 1 ? [`${tries} tries`] : []),
      ...(basicRefused ? [`HTTP Basic was refused with ${basicRefused}, then the form body tried`] : []),
      ...(note ? [note] : []),
    ];
    const suffix = notes.length ? ` (${notes.join('; ')})` : '';
    if (answer.kind === 'unreachable') return new UnreachableError(`cannot reach ${where}: ${answer.what}${suffix}`);
    return new AuthenticationError(`${where} failed: ${answer.what}${suffix}`);
  }
}

/**
 * When a token is renewed and when it expires: renewal EXPIRY_MARGIN_MS before expires_in runs
 * out (half-way for very short lives); never, without a readable expires_in (a 401 renews it).
 */
function lifetime(sentAt: number, expiresIn: unknown): { renewAt: number; expiresAt: number } {
  const seconds = typeof expiresIn === 'string' && /^\d+(?:\.\d+)?$/.test(expiresIn.trim()) ? Number(expiresIn) : expiresIn;
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0) return { renewAt: Infinity, expiresAt: Infinity };
  const lifeMs = seconds * 1000;
  return { renewAt: sentAt + lifeMs - Math.min(EXPIRY_MARGIN_MS, lifeMs / 2), expiresAt: sentAt + lifeMs };
}
