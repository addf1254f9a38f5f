/** laterRepeats: the run's oldest ref_ids again later, and under --lifetime once they are that old (an injected clock, no waiting). */
import { describe, expect, it } from 'vitest';
import { laterRepeats, LATER_REPEATS, LIFETIME_REPEATS } from '../../../src/rules/create-identity/later-repeats.ts';
import { CreatedIdentities } from '../../../src/rules/create-identity/created-identities.ts';
import type { ScenarioContext } from '../../../src/rules/scenarios.ts';
import type { TestCase } from '../../../src/core/case.ts';
import type { Exchange } from '../../../src/core/exchange.ts';

const T0 = Date.parse('2026-01-01T00:00:00Z');

const answer = (c: TestCase, body: Record<string, unknown>, at: number): Exchange => ({
  testCase: c,
  request: { method: 'POST', url: 'http://t/v2/identity/identities', headers: {} },
  response: { status: 201, headers: {}, rawBody: '', json: true, body },
  startedAt: new Date(at).toISOString(),
  durationMs: 1,
});

/** A context over a target that answers each ref_id with `answerOf`, three identities created a second apart from T0. */
function contextOf(answerOf: (refId: string, c: TestCase) => Record<string, unknown>, lifetimeMs?: number) {
  let clock = T0 + 5_000;
  const waited: number[] = [];
  const sent: TestCase[] = [];
  const created = new CreatedIdentities();
  for (let i = 0; i < 3; i++) {
    const c: TestCase = { operation: 'createIdentity', mode: 'valid', label: 'create', body: { ref_id: `ref-${i}`, person_details: { first_name: 'Ada' } } };
    created.observe(answer(c, { id: `id-${i}`, ref_id: `ref-${i}`, created_at: '2026-01-01T00:00:00Z', person_details: { first_name: 'Ada' } }, T0 + i * 1000));
  }
  const context = {
    created,
    stamp: (c: TestCase, refId: string) => ({ ...c, body: { ...(c.body as object), ref_id: refId } }),
    exercise: async (c: TestCase) => {
      sent.push(c);
      const refId = (c.body as { ref_id: string }).ref_id;
      return answer(c, answerOf(refId, c), clock);
    },
    wait: async (ms: number) => {
      waited.push(ms);
      clock += ms;
    },
    now: () => clock,
    ...(lifetimeMs ? { lifetimeMs } : {}),
  } as unknown as ScenarioContext;
  return { context, waited, sent };
}

const faithful = (refId: string) => ({ id: `id-${refId.slice(4)}`, ref_id: refId, created_at: '2026-01-01T00:00:00Z', person_details: { first_name: 'Ada' } });

describe('laterRepeats', () => {
  it('repeats the oldest ref_ids with their first bodies at each moment, and waits for nothing without --lifetime', async () => {
    const { context, waited, sent } = contextOf(faithful);
    const after = await laterRepeats.run(context, 'after-random-cases');
    const end = await laterRepeats.run(context, 'at-end');
    expect([...after, ...end].flatMap((o) => o.problems)).toEqual([]);
    expect(sent.map((c) => (c.body as { ref_id: string }).ref_id)).toEqual(['ref-0', 'ref-1', 'ref-0', 'ref-1']);
    expect(sent.every((c) => c.mode === 'duplicate' && c.exercises === 'id.ref-id.sequential-duplicate')).toBe(true);
    expect(waited).toEqual([]);
    expect(laterRepeats.requests({ concurrentDuplicates: 10, runs: 1, seed: 1, accounts: 1 })).toBe(sent.length);
    expect(sent.length).toBe(2 * LATER_REPEATS);
  });

  it('under --lifetime waits at the end until the repeated ref_ids are that old, then repeats them', async () => {
    const { context, waited, sent } = contextOf(faithful, 30_000);
    await laterRepeats.run(context, 'at-end');
    // The younger of the two was created at T0 + 1 s; the clock stood at T0 + 5 s.
    expect(waited).toEqual([26_000]);
    expect(sent.slice(LATER_REPEATS).map((c) => c.label)).toEqual([
      expect.stringMatching(/^lifetime repeat 1\/2 \(30 s or more after its create/),
      expect.stringMatching(/^lifetime repeat 2\/2/),
    ]);
    expect(laterRepeats.requests({ concurrentDuplicates: 10, runs: 1, seed: 1, accounts: 1, lifetimeMs: 30_000 })).toBe(
      LATER_REPEATS + LIFETIME_REPEATS + LATER_REPEATS,
    );
  });

  it('fails an index that forgot: a second identity for an old ref_id', async () => {
    const { context } = contextOf((refId) => ({ ...faithful(refId), id: `new-${refId}` }));
    const [outcome] = await laterRepeats.run(context, 'after-random-cases');
    expect(outcome.problems[0]).toMatchObject({ kind: 'identity-duplicated', params: { refId: 'ref-0', ids: ['id-0', 'new-ref-0'] } });
  });
});
