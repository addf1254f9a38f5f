/**
 * The harness's HTTP transport for requests of one's own: bearer auth (a static token, or OAuth 2
 * client credentials fetched and renewed), the rate limit, requests in flight, 429 retries after
 * Retry-After and a timeout, as in a run. It never throws for what the target does: a timeout, a
 * dropped connection or a broken answer comes back in `exchange.error`, ready for `checkExchange`.
 */
import type { TestCase } from '../core/case.ts';
import { UsageError } from '../core/errors.ts';
import type { Operation } from '../core/operations.ts';
import { createTransport, type Transport } from '../engine/transport/transport.ts';
import { checkUrl, resolveAuth, runConfig } from '../run/run-config.ts';
import { settingsOfOptions, wholeNumberOf } from '../run/given-settings.ts';
import { MAX_TIMER_MS } from '../run/whole-number-flag.ts';

export interface ClientOptions {
  baseUrl: string;
  /** A static bearer token ... */
  token?: string;
  /** ... or OAuth 2 client credentials; neither: requests go without Authorization. */
  clientCredentials?: { tokenUrl: string; clientId: string; clientSecret: string; scope?: string };
  /** Requests per second; unlimited by default. */
  rateLimit?: number;
  /** Requests in flight at most (default 8). */
  concurrency?: number;
  /** Per-request timeout in ms (default 10000). */
  timeoutMs?: number;
  /** Retries of a 429 answer (default 3). */
  maxRetries?: number;
}

/** `send(testCase)` resolves to the exchange: the request as sent (credentials redacted), the response or the error. */
export type Client = Pick<Transport, 'send' | 'sendTogether' | 'authenticate' | 'requestCount'>;

/**
 * A client of the target with the run's defaults. The options are checked by the run's resolver
 * (the same names, ranges and words as runConformance's): throws a UsageError for a bad URL, both
 * kinds of credentials, or a limit that is no whole number in range.
 */
export function createClient(options: ClientOptions): Client {
  const settings = settingsOfOptions(options);
  checkUrl('baseUrl', options.baseUrl, 'give them with token or clientCredentials');
  const defaults = runConfig({ seed: 0 });
  return createTransport({
    baseUrl: options.baseUrl,
    auth: resolveAuth(settings),
    timeoutMs: wholeNumberOf(settings, 'timeout', { min: 1, max: MAX_TIMER_MS }) ?? defaults.timeoutMs,
    rateLimitPerSecond: wholeNumberOf(settings, 'rate-limit') || null,
    concurrency: wholeNumberOf(settings, 'concurrency', { min: 1 }) ?? defaults.concurrency,
    maxRetries: wholeNumberOf(settings, 'max-retries') ?? defaults.maxRetries,
  });
}

/**
 * A valid request to send with `Client.send`: `fiatAccountId` names the account of an update.
 * `label` says what the case is in messages and reports.
 */
export function validRequest(operation: Operation, body: unknown, options: { fiatAccountId?: string; label?: string } = {}): TestCase {
  if (operation === 'updateFiatAccount' && !options.fiatAccountId)
    throw new UsageError('an updateFiatAccount request needs the fiatAccountId of an existing account');
  return {
    operation,
    mode: 'valid',
    label: options.label ?? `valid ${operation} request`,
    body,
    ...(options.fiatAccountId ? { fiatAccountId: options.fiatAccountId } : {}),
  };
}
