/**
 * The transport as a list (docs/design.md, "The transport, top to bottom"): the layers a request
 * to the base URL goes through, outermost first. recording.ts sits above the first for a case (it
 * turns the case into the request, reachability.ts for the reachability check), the one HTTP call
 * (http-call.ts) below the last. Every stack of the transport is this one list: what a request is
 * sent for changes what some layers do, or leaves a part out, never the order.
 */
import type { RequestBudget } from '../request-budget.ts';
import { bearerAuth, type OwnToken, type TokenGenerationOf } from './auth.ts';
import { type ConcurrencyLimit, concurrency } from './concurrency-limit.ts';
import { counting } from './counting.ts';
import { interruptible, withinGrace } from './interruptible.ts';
import type { LatencyWatch } from './latency-watch.ts';
import { paidFirst } from './paid-first.ts';
import { type RateLimiter, rate } from './rate-limiter.ts';
import { renewOn401 } from './renew-on-401.ts';
import { requestCap } from './request-cap.ts';
import { retry429 } from './retry-429.ts';
import { compose, type Layer } from './send.ts';

/**
 * What a request is sent for: a case; one case of a burst (sendTogether); the run's cleanup (the
 * restore of the pool accounts, sent after an interrupt too); the reachability check (no
 * credential, no retry: any answer will do).
 */
export type Purpose = 'case' | 'burst' | 'cleanup' | 'reachability';

/** A layer and the file it lives in, by which docs/design.md names it. */
export type StackEntry = readonly [file: string, layer: Layer];

/** What the layers of one transport share across all its requests: one token, one set of limits, one count. */
export interface StackParts {
  ownToken: OwnToken;
  /** Which fetched token a sent token is, for the record; absent when the token is not fetched. */
  generationOf?: TokenGenerationOf;
  /** Renews a token the target refused (TokenSource.renew); absent when the token is not fetched. */
  renew: ((rejected: string) => Promise<string | undefined>) | undefined;
  maxRetries: number;
  signal: AbortSignal | undefined;
  slots: ConcurrencyLimit;
  limiter: RateLimiter;
  budget: RequestBudget | undefined;
  /** Counts a request that goes on the wire (Transport.requestCount). */
  count: () => void;
  latency: LatencyWatch;
}

/** The layers of a request sent for `purpose`, outermost first. */
export function stack(purpose: Purpose, parts: StackParts): StackEntry[] {
  const cleanup = purpose === 'cleanup';
  // An interrupt sends nothing more and cuts what is in flight short; the cleanup is still sent,
  // each request within a grace that fits the target's observed latency.
  const interrupt = cleanup ? withinGrace(parts.signal, () => parts.latency.graceMs()) : interruptible(parts.signal);
  // The wait for a place in flight, then for a start slot; an interrupt ends the wait.
  const limits: StackEntry[] = [
    ['interruptible', interrupt],
    ['concurrency-limit', concurrency(parts.slots)],
    ['rate-limiter', rate(parts.limiter)],
  ];
  // A burst's one reservation paid for the first request of each of its cases: that one passes the limits by.
  const burstLimits: StackEntry[] = [['paid-first', paidFirst(compose(layersOf(limits)))]];
  return [
    ...unless(purpose === 'reachability', [
      ['auth', bearerAuth(parts.ownToken, parts.generationOf)],
      ['renew-on-401', renewOn401(parts.renew)],
      ['retry-429', retry429(parts.maxRetries)],
    ]),
    ...(purpose === 'burst' ? burstLimits : limits),
    // Checked again once the limits let the request go: nothing goes on the wire after an interrupt.
    ['interruptible', interrupt],
    // The cleanup takes the budget's reserve first, and is never refused.
    ['request-cap', requestCap(parts.budget, cleanup)],
    ['counting', counting(parts.count)],
    ['latency-watch', parts.latency.layer],
  ];
}

const unless = (skipped: boolean, entries: StackEntry[]): StackEntry[] => (skipped ? [] : entries);

export const layersOf = (entries: readonly StackEntry[]): Layer[] => entries.map(([, layer]) => layer);
