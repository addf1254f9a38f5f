/** A dead target is told from a defect that drops a few connections in a row. */
import { describe, expect, it } from 'vitest';
import { ANSWERLESS_STREAK, TargetLost, TargetWatch } from '../../src/engine/target-watch.ts';
import type { Exchange } from '../../src/core/exchange.ts';

const request = { method: 'PUT', url: 'http://127.0.0.1:1/v2/transfer/fiat-accounts/x', headers: {} };
const testCase = { operation: 'updateFiatAccount' as const, mode: 'valid' as const, label: 'x', body: {} };
const dropped: Exchange = { testCase, request, startedAt: '2026-01-01T00:00:00Z', durationMs: 1, error: { kind: 'connection', message: 'ECONNREFUSED' } };
const answered: Exchange = {
  testCase,
  request,
  startedAt: '2026-01-01T00:00:00Z',
  durationMs: 1,
  response: { status: 200, headers: {}, rawBody: '{}', json: true, body: {} },
};

describe('TargetWatch', () => {
  it('stops the run when a streak of dropped requests is followed by an unanswered probe', async () => {
    let probes = 0;
    const watch = new TargetWatch(async () => (probes++, dropped));
    for (let i = 1; i < ANSWERLESS_STREAK; i++) await watch.observe(dropped);
    expect(probes).toBe(0);
    await expect(watch.observe(dropped)).rejects.toBeInstanceOf(TargetLost);
    expect(probes).toBe(1);
  });

  it('goes on when the probe is answered (a defect that drops some bodies), and after any answer', async () => {
    const watch = new TargetWatch(async () => answered);
    for (let i = 0; i < ANSWERLESS_STREAK * 3; i++) await watch.observe(dropped);
    const strict = new TargetWatch(async () => dropped);
    for (let i = 0; i < ANSWERLESS_STREAK * 3; i++) await strict.observe(i % ANSWERLESS_STREAK === 0 ? answered : dropped);
  });

  it('stops the run when every request times out (a target that accepts connections and never answers)', async () => {
    const silent: Exchange = { ...dropped, error: { kind: 'timeout', message: 'no answer within 100 ms' } };
    const watch = new TargetWatch(async () => silent);
    for (let i = 1; i < ANSWERLESS_STREAK; i++) await watch.observe(silent);
    await expect(watch.observe(silent)).rejects.toThrow(/the target stopped answering: timeout: no answer within 100 ms/);
  });

  it('does not stop for answers that break HTTP framing: a server is there, each is a finding', async () => {
    const broken: Exchange = { ...dropped, error: { kind: 'other', message: 'HPE_HEADER_OVERFLOW: Parse Error: Header overflow' } };
    const watch = new TargetWatch(async () => broken);
    for (let i = 0; i < ANSWERLESS_STREAK * 3; i++) await watch.observe(broken);
  });

  it('does not count a 429 that never ended as a dead target', async () => {
    const watch = new TargetWatch(async () => dropped);
    const limited: Exchange = { ...answered, error: { kind: 'rate-limited', message: 'still 429' } };
    for (let i = 0; i < ANSWERLESS_STREAK * 2; i++) await watch.observe(limited);
  });
});
