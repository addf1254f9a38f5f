/**
 * How many requests of a run got no usable HTTP answer: a timeout, a dropped or reset connection,
 * an answer that broke HTTP framing (`other`). Each is a finding of an `.answers` convention; the
 * report also weighs them together, since a run judged on the few answers that came through is
 * no proof of conformance. A 429 still standing after the retries is an answer: not counted.
 */
import type { Exchange } from '../core/exchange.ts';

export type UnansweredKind = 'timeout' | 'connection' | 'other';

/** The payload of the run-end event: exchanges judged, and those without a usable answer by kind. */
export interface AnswerCounts {
  exchanges: number;
  unanswered: number;
  byKind: Record<UnansweredKind, number>;
}

export class AnswerTally {
  private readonly counts: AnswerCounts = { exchanges: 0, unanswered: 0, byKind: { timeout: 0, connection: 0, other: 0 } };

  observe(e: Exchange): void {
    this.counts.exchanges++;
    const kind = e.error?.kind;
    if (kind === undefined || kind === 'rate-limited') return;
    this.counts.unanswered++;
    this.counts.byKind[kind]++;
  }

  get(): AnswerCounts {
    return { ...this.counts, byKind: { ...this.counts.byKind } };
  }
}
