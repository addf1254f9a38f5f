/**
 * The transport: turns a test case into an HTTP request to the target (document section 4),
 * authenticates it (section 5), keeps to the rate and concurrency limits, retries 429s, and
 * records the exchange. The target's misbehaviour is data for the checks, never an exception.
 */
import type { TestCase } from '../../core/case.ts';
import { OPERATIONS, operationUrl } from '../../core/operations.ts';
import type { Exchange, RecordedRequest, RecordedResponse, TransportError } from '../../core/exchange.ts';
import type { AuthConfig } from '../../core/auth-config.ts';
import { httpCall, type HttpOutcome } from './http-call.ts';
import { TokenSource } from './token-source.ts';
import { RateLimiter } from './rate-limiter.ts';
import { ConcurrencyLimit } from './concurrency-limit.ts';
import { retryDelayMs } from './retry-after.ts';
import { UnreachableError } from '../../core/errors.ts';
import { displayUrl } from '../../core/url.ts';
import { REDACTED } from '../../core/redaction.ts';
import { USER_AGENT } from '../../core/version.ts';

export { UnreachableError, AuthenticationError } from '../../core/errors.ts';

export interface TransportOptions {
  baseUrl: string;
  auth: AuthConfig;
  /** Per request, ms: no complete answer by then is a timeout. */
  timeoutMs: number;
  /** Request starts per second across all sends; null = unlimited. */
  rateLimitPerSecond: number | null;
  /** Requests in flight at most. */
  concurrency: number;
  /** Retries of a 429 before the exchange is recorded as rate-limited. */
  maxRetries: number;
}

export interface Transport {
  /** Sends one case; never throws for target misbehaviour: errors come back in Exchange.error. */
  send(testCase: TestCase, options?: { auth?: 'none' | 'invalid' }): Promise<Exchange>;
  /**
   * Sends the cases at one moment (a race is what they test): one rate-limit reservation for all
   * of them, and past the concurrency limit, which would otherwise send them one by one.
   */
  sendTogether(testCases: TestCase[]): Promise<Exchange[]>;
  /** Client credentials: fetches the first token (static/none: nothing). Throws AuthenticationError / UnreachableError. */
  authenticate(): Promise<void>;
  /** Any HTTP answer from the base URL counts; no answer -> UnreachableError. */
  checkReachable(): Promise<void>;
  /** Requests sent to the target so far (retries included, token requests not). */
  readonly requestCount: number;
  /** Every credential seen so far (static token, client secret, issued access tokens), for redaction. */
  secrets(): string[];
}

/**
 * The bearer token sent for `auth: 'invalid'` cases. Made up and not a secret: it is recorded
 * and shown in curl lines as it is, so the case can be reproduced exactly.
 */
export const INVALID_TOKEN = 'conformance-invalid-token-0000';

/** What the recorded request shows instead of the real bearer token. */
export const REDACTED_BEARER = `Bearer ${REDACTED}`;

export function createTransport(options: TransportOptions): Transport {
  return new HttpTransport(options);
}

/** The Authorization a request carries: a credential of the run, a deliberate wrong one, or none. */
type Credential = { kind: 'configured'; token: string } | { kind: 'invalid' } | { kind: 'none' };

class HttpTransport implements Transport {
  private sent = 0;
  private readonly baseUrl: string;
  private readonly tokens: TokenSource | undefined;
  private readonly limiter: RateLimiter;
  private readonly inFlight: ConcurrencyLimit;

  constructor(private readonly options: TransportOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.tokens = options.auth.kind === 'client-credentials' ? new TokenSource(options.auth, options.timeoutMs) : undefined;
    this.limiter = new RateLimiter(options.rateLimitPerSecond);
    this.inFlight = new ConcurrencyLimit(options.concurrency);
  }

  get requestCount(): number {
    return this.sent;
  }

  secrets(): string[] {
    const auth = this.options.auth;
    if (auth.kind === 'static') return [auth.token];
    return this.tokens?.secrets() ?? [];
  }

  async authenticate(): Promise<void> {
    await this.tokens?.token();
  }

  async checkReachable(): Promise<void> {
    const outcome = await this.attempt({ method: 'GET', url: `${this.baseUrl}/`, headers: { accept: 'application/json', 'user-agent': USER_AGENT } });
    if ('error' in outcome) throw new UnreachableError(`cannot reach ${displayUrl(this.baseUrl)}: ${outcome.code ?? outcome.error.message}`);
  }

  send(testCase: TestCase, options?: { auth?: 'none' | 'invalid' }): Promise<Exchange> {
    return this.sendCase(testCase, options, false);
  }

  async sendTogether(testCases: TestCase[]): Promise<Exchange[]> {
    // Tokens first, so that no case of the burst waits for the token endpoint on its own.
    await Promise.all(testCases.map((c) => this.credentialFor(c.auth).catch(() => undefined)));
    await this.limiter.acquireBurst(testCases.length);
    return Promise.all(testCases.map((c) => this.sendCase(c, undefined, true)));
  }

  private async sendCase(testCase: TestCase, options: { auth?: 'none' | 'invalid' } | undefined, burst: boolean): Promise<Exchange> {
    const started = Date.now();
    const startedAt = new Date(started).toISOString();
    let request: RecordedRequest = { method: OPERATIONS[testCase.operation].method, url: operationUrl(this.baseUrl, testCase), headers: {} };
    const finish = (result: { response?: RecordedResponse; error?: TransportError }): Exchange => ({
      testCase,
      request,
      ...(result.response ? { response: result.response } : {}),
      ...(result.error ? { error: result.error } : {}),
      startedAt,
      durationMs: Date.now() - started,
    });
    try {
      const wanted = options?.auth ?? testCase.auth;
      let credential: Credential;
      try {
        credential = await this.credentialFor(wanted);
      } catch (error) {
        // The token endpoint failed mid-run: the case cannot be sent, the run goes on.
        request = this.build(testCase, { kind: 'none' }).recorded;
        request.headers.authorization = REDACTED_BEARER;
        return finish({ error: { kind: error instanceof UnreachableError ? 'connection' : 'other', message: `no access token: ${(error as Error).message}` } });
      }
      let built = this.build(testCase, credential);
      request = built.recorded;
      let result = await this.sendWithRetries(built.wire, burst);
      // A 401 to our own token may mean it was revoked or expired early: renew once, resend once.
      if (result.response?.status === 401 && credential.kind === 'configured' && this.tokens) {
        let renewed: string | undefined;
        try {
          renewed = await this.tokens.renew(credential.token);
        } catch {
          renewed = undefined; // The 401 stays the evidence.
        }
        if (renewed !== undefined) {
          built = this.build(testCase, { kind: 'configured', token: renewed });
          request = built.recorded;
          result = await this.sendWithRetries(built.wire);
        }
      }
      return finish(result);
    } catch (error) {
      // A bug of ours or a body JSON cannot hold (a BigInt): recorded, not thrown.
      return finish({ error: { kind: 'other', message: `the request could not be sent: ${(error as Error).message}` } });
    }
  }

  private async credentialFor(wanted: 'none' | 'invalid' | undefined): Promise<Credential> {
    if (wanted === 'none') return { kind: 'none' };
    if (wanted === 'invalid') return { kind: 'invalid' };
    const auth = this.options.auth;
    if (auth.kind === 'static') return { kind: 'configured', token: auth.token };
    if (this.tokens) return { kind: 'configured', token: await this.tokens.token() };
    return { kind: 'none' };
  }

  /** The request on the wire (real token) and as recorded (token redacted). */
  private build(testCase: TestCase, credential: Credential): { wire: WireRequest; recorded: RecordedRequest } {
    const url = operationUrl(this.baseUrl, testCase);
    const method = OPERATIONS[testCase.operation].method;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
      'user-agent': USER_AGENT,
    };
    const wireHeaders = { ...headers };
    if (credential.kind === 'configured') {
      wireHeaders.authorization = `Bearer ${credential.token}`;
      headers.authorization = REDACTED_BEARER;
    } else if (credential.kind === 'invalid') {
      wireHeaders.authorization = headers.authorization = `Bearer ${INVALID_TOKEN}`;
    }
    const body = testCase.rawBody !== undefined ? testCase.rawBody : testCase.body !== undefined ? JSON.stringify(testCase.body) : undefined;
    const recorded: RecordedRequest = {
      method,
      url,
      headers,
      ...(testCase.rawBody !== undefined ? { rawBody: testCase.rawBody } : testCase.body !== undefined ? { body: testCase.body } : {}),
    };
    return { wire: { method, url, headers: wireHeaders, ...(body !== undefined ? { body } : {}) }, recorded };
  }

  /** Sends, waiting out 429s (Retry-After, else backoff) up to maxRetries times. */
  private async sendWithRetries(wire: WireRequest, burst = false): Promise<{ response?: RecordedResponse; error?: TransportError }> {
    for (let retry = 0; ; retry++) {
      // A burst's slots are paid already; its retries queue like any request.
      const outcome = burst && retry === 0 ? await this.call(wire) : await this.attempt(wire);
      if ('error' in outcome) return { error: outcome.error };
      const { response } = outcome;
      if (response.status !== 429) return { response };
      if (retry >= this.options.maxRetries) {
        return {
          response,
          error: { kind: 'rate-limited', message: `still 429 Too Many Requests after ${this.options.maxRetries} ${this.options.maxRetries === 1 ? 'retry' : 'retries'}` },
        };
      }
      await sleep(retryDelayMs(response.headers['retry-after'], retry));
    }
  }

  /** One request to the target, inside the concurrency and rate limits. */
  private attempt(wire: WireRequest): Promise<HttpOutcome> {
    return this.inFlight.run(async () => {
      await this.limiter.acquire();
      return this.call(wire);
    });
  }

  private call(wire: WireRequest): Promise<HttpOutcome> {
    this.sent++;
    return httpCall(wire, this.options.timeoutMs);
  }
}

interface WireRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
