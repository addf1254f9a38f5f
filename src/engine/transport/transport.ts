/**
 * The transport: turns a test case into an HTTP request to the target (document section 4),
 * authenticates it (section 5), keeps to the rate and concurrency limits, retries 429s, and
 * records the exchange. The target's misbehaviour is data for the checks, never an exception.
 *
 * Each policy is one layer; the layers a request goes through are one list that reads top to
 * bottom (stack.ts) around the one HTTP call (http-call.ts). This file only holds what the
 * layers share and picks the list's purpose for each kind of send.
 */
import type { TestCase, UnauthenticatedKind } from '../../core/case.ts';
import type { Exchange, SentRecorder } from '../../core/exchange.ts';
import type { AuthConfig } from '../../core/auth-config.ts';
import { compose, type Send } from './send.ts';
import { httpSend } from './http-call.ts';
import { proxySecrets, type Route } from './proxy-route.ts';
import { recording, type SendCase } from './recording.ts';
import type { OwnToken } from './auth.ts';
import { ConcurrencyLimit } from './concurrency-limit.ts';
import { RateLimiter } from './rate-limiter.ts';
import { TokenSource, type TokenSourceOptions } from './token-source.ts';
import { checkReachable } from './reachability.ts';
import { INTERRUPT_GRACE_MS } from './interruptible.ts';
import { LatencyWatch } from './latency-watch.ts';
import { layersOf, type Purpose, stack, type StackParts } from './stack.ts';
import type { RequestBudget } from '../request-budget.ts';
import type { TokenRenewal } from '../../core/token-renewal.ts';

export { INVALID_TOKEN, REDACTED_BEARER } from './auth.ts';

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
  /** The token source's clock and waits between retries (tests); real time by default. */
  tokenTiming?: TokenSourceOptions;
  /** Aborted when the user interrupts the run: nothing more is sent, requests in flight get a short grace. */
  signal?: AbortSignal;
  /** Pauses between reachability attempts (default REACHABILITY_DELAYS_MS: three attempts); tests pass shorter ones. */
  reachabilityDelaysMs?: readonly number[];
  /** --max-requests: no request past it is sent (RunStop 'budget'). */
  budget?: RequestBudget;
  /** The target and its token endpoint through the environment's proxy (default), or directly: the embedded server (proxy-route.ts). */
  route?: Route;
}

export interface Transport {
  /**
   * Sends one case; never throws for target misbehaviour: errors come back in Exchange.error.
   * Throws RunStop('token-endpoint') when no token can be had mid-run.
   */
  send(testCase: TestCase, options?: { auth?: UnauthenticatedKind }): Promise<Exchange>;
  /**
   * Sends the cases at one moment (a race is what they test): one rate-limit reservation for all
   * of them, and past the concurrency limit, which would otherwise send them one by one.
   */
  sendTogether(testCases: TestCase[]): Promise<Exchange[]>;
  /**
   * Sends a request of the run's own cleanup (the restore of the pool accounts): within the same
   * limits and counted like any other, but also once the run was interrupted, each request then
   * given INTERRUPT_GRACE_MS. Throws RunStop('interrupted') when a token would have to be fetched
   * after the interrupt.
   */
  sendCleanup(testCase: TestCase): Promise<Exchange>;
  /**
   * Client credentials only (absent for a static token or none): asks the token endpoint for a
   * new token now; the requests after it carry it (Exchange.tokenGeneration). One token request.
   */
  renewToken?(): Promise<TokenRenewal>;
  /** Client credentials: fetches the first token (static/none: nothing). Throws AuthenticationError / UnreachableError. */
  authenticate(): Promise<void>;
  /** Any HTTP answer from the base URL counts, a broken one too; no answer after the retries -> UnreachableError. Gives the round trip of a warm request. */
  checkReachable(): Promise<{ roundTripMs: number }>;
  /**
   * Hears every request that goes to the target from now on, judged or not (the reachability
   * check, each case, each attempt sent again): exchanges.har is written from it, so it holds as
   * many entries as `requestCount` counts.
   */
  recordSent(recorder: SentRecorder): void;
  /** Requests sent to the target so far (the reachability check and retries included, token requests not). */
  readonly requestCount: number;
  /** The run's request budget, when it has one (--max-requests). */
  readonly budget?: RequestBudget;
  /** Every credential seen so far (static token, client secret, issued access tokens, a proxy URL's password), for redaction. */
  secrets(): string[];
}

export function createTransport(options: TransportOptions): Transport {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const { auth } = options;
  const tokens =
    auth.kind === 'client-credentials'
      ? new TokenSource(auth, options.timeoutMs, {
          ...options.tokenTiming,
          ...(options.signal ? { signal: options.signal } : {}),
          ...(options.route ? { route: options.route } : {}),
        })
      : undefined;
  const ownToken: OwnToken = auth.kind === 'static' ? async () => auth.token : tokens ? () => tokens.token() : undefined;
  let sent = 0;
  const recorders: SentRecorder[] = [];
  const record: SentRecorder = (request) => {
    for (const recorder of recorders) recorder(request);
  };
  const parts: StackParts = {
    ownToken,
    ...(tokens ? { generationOf: (token: string) => tokens.generationOf(token) } : {}),
    // Only fetched tokens can be renewed; a static token that gets a 401 keeps it.
    renew: tokens ? (rejected) => tokens.renew(rejected) : undefined,
    maxRetries: options.maxRetries,
    signal: options.signal,
    slots: new ConcurrencyLimit(options.concurrency),
    limiter: new RateLimiter(options.rateLimitPerSecond),
    budget: options.budget,
    count: () => sent++,
    latency: new LatencyWatch(INTERRUPT_GRACE_MS, options.timeoutMs),
  };
  /** The list for `purpose` around the one HTTP call. */
  const sendFor = (purpose: Purpose): Send => compose(layersOf(stack(purpose, parts)))(httpSend(options.timeoutMs, options.route));
  /** A case on top: turned into the request, what came back recorded. */
  const caseFor = (purpose: Purpose): SendCase => recording(baseUrl, record)(sendFor(purpose));
  const sendCase = caseFor('case');
  const sendCleanup = caseFor('cleanup');
  const reachability = sendFor('reachability');

  return {
    send: sendCase,
    async sendTogether(testCases: TestCase[]): Promise<Exchange[]> {
      // Tokens first, so that no case of the burst waits for the token endpoint on its own.
      if (tokens && testCases.some((c) => c.auth === undefined)) await tokens.token().catch(() => undefined);
      await parts.limiter.acquireBurst(testCases.length);
      // One stack per case: the burst's reservation paid for its first request.
      return Promise.all(testCases.map((c) => caseFor('burst')(c)));
    },
    sendCleanup,
    ...(tokens ? { renewToken: () => tokens.forceRenewal() } : {}),
    async authenticate(): Promise<void> {
      await tokens?.token();
    },
    checkReachable: () => checkReachable(reachability, baseUrl, options.reachabilityDelaysMs, undefined, record),
    recordSent(recorder: SentRecorder): void {
      recorders.push(recorder);
    },
    get requestCount(): number {
      return sent;
    },
    ...(options.budget ? { budget: options.budget } : {}),
    secrets(): string[] {
      // A proxy's password is redacted like the target's credentials.
      if (auth.kind === 'static') return [auth.token, ...proxySecrets()];
      return [...(tokens?.secrets() ?? []), ...proxySecrets()];
    },
  };
}
