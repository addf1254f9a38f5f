/** Requests without a usable answer are counted by kind; a 429 still standing is an answer. */
import { describe, expect, it } from 'vitest';
import { AnswerTally } from '../../src/engine/answer-tally.ts';
import type { Exchange, TransportError } from '../../src/core/exchange.ts';

const request = { method: 'PUT', url: 'http://127.0.0.1:1/v2/transfer/fiat-accounts/x', headers: {} };
const testCase = { operation: 'updateFiatAccount' as const, mode: 'valid' as const, label: 'x', body: {} };
const response = { status: 200, headers: {}, rawBody: '{}', json: true, body: {} };
const failed = (kind: TransportError['kind']): Exchange => ({
  testCase,
  request,
  startedAt: '2026-01-01T00:00:00Z',
  durationMs: 1,
  error: { kind, message: kind },
  ...(kind === 'rate-limited' ? { response: { ...response, status: 429 } } : {}),
});
const answered: Exchange = { testCase, request, startedAt: '2026-01-01T00:00:00Z', durationMs: 1, response };

describe('AnswerTally', () => {
  it('counts every exchange, and those without a usable answer by kind', () => {
    const tally = new AnswerTally();
    for (const e of [answered, answered, failed('timeout'), failed('connection'), failed('connection'), failed('other'), failed('rate-limited')])
      tally.observe(e);
    expect(tally.get()).toEqual({ exchanges: 7, unanswered: 4, byKind: { timeout: 1, connection: 2, other: 1 } });
  });

  it('hands out a copy: later exchanges do not change a tally already given', () => {
    const tally = new AnswerTally();
    const before = tally.get();
    tally.observe(failed('timeout'));
    expect(before).toEqual({ exchanges: 0, unanswered: 0, byKind: { timeout: 0, connection: 0, other: 0 } });
  });
});
