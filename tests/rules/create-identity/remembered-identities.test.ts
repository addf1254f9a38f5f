/** judgeRemembered: earlier runs' ref_ids back as their identities pass, some new is a failure, all new is a reset (not judged). */
import { describe, expect, it } from 'vitest';
import { judgeRemembered, rememberedPicks, REMEMBERED_REPEATS, type RememberedIdentity } from '../../../src/rules/create-identity/remembered-identities.ts';
import type { Exchange } from '../../../src/core/exchange.ts';

const remembered = (i: number): RememberedIdentity => ({
  refId: `ref-${i}`,
  id: `id-${i}`,
  key: `id-${i}`,
  body: { ref_id: `ref-${i}` },
  data: { '/person_details/first_name': 'Ada' },
  createdAt: '2026-01-01T00:00:00Z',
  runStartedAt: '2026-01-01T00:00:00.000Z',
});

const answer = (status: number, id?: string): Exchange => ({
  testCase: { operation: 'createIdentity', mode: 'duplicate', label: 'repeat', body: {} },
  request: { method: 'POST', url: 'http://t/v2/identity/identities', headers: {} },
  response: {
    status,
    headers: {},
    rawBody: '',
    json: true,
    body: id ? { id, created_at: '2026-01-01T00:00:00Z', person_details: { first_name: 'Ada' } } : { error: 'x' },
  },
  startedAt: '2026-02-01T00:00:00Z',
  durationMs: 1,
});

describe('remembered identities', () => {
  it('picks a few by seed, the same for the same seed', () => {
    const all = Array.from({ length: 20 }, (_, i) => remembered(i));
    expect(rememberedPicks(all, 7)).toHaveLength(REMEMBERED_REPEATS);
    expect(rememberedPicks(all, 7)).toEqual(rememberedPicks([...all].reverse(), 7));
    expect(rememberedPicks(all, 7)).not.toEqual(rememberedPicks(all, 8));
  });

  it('judges each repeat when the target remembers, and fails a new identity among remembered ones', () => {
    const forgotten: string[] = [];
    const memory = { forgotten: (note: string) => forgotten.push(note) };
    const kept = judgeRemembered(
      [
        { original: remembered(1), again: answer(201, 'id-1') },
        { original: remembered(2), again: answer(409) },
      ],
      memory,
    );
    expect(kept.flatMap((o) => o.problems)).toEqual([]);
    expect(kept).toHaveLength(2);
    const mixed = judgeRemembered(
      [
        { original: remembered(1), again: answer(201, 'id-1') },
        { original: remembered(2), again: answer(201, 'new-2') },
      ],
      memory,
    );
    expect(mixed.flatMap((o) => o.problems)).toEqual([expect.objectContaining({ kind: 'identity-duplicated' })]);
    expect(forgotten).toEqual([]);
  });

  it('says a reset when every repeat is a new identity, and judges nothing', () => {
    const forgotten: string[] = [];
    const outcomes = judgeRemembered(
      [
        { original: remembered(1), again: answer(201, 'new-1') },
        { original: remembered(2), again: answer(201, 'new-2') },
      ],
      { forgotten: (note) => forgotten.push(note) },
    );
    expect(outcomes).toEqual([]);
    expect(forgotten).toEqual([expect.stringMatching(/^the target forgot every identity of the run of 2026-01-01T00:00:00.000Z that this run repeated \(2\)/)]);
  });
});
