/**
 * The creates a reproduction sends first are kept within a bound (issue 33: a --runs 5000 run made
 * 20,000 identities and kept every create's request, 24 MB): the first ones and the latest ones,
 * and a repeat of a create no longer kept is never taken for the first create of its ref_id.
 */
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../../src/core/exchange.ts';
import { CreateLog, reproduction } from '../../../src/report/model/reproduction.ts';

const URL_ = 'http://127.0.0.1:1/v2/identity/identities';

/** A create with `refId`, its request told apart by `n`. */
function create(refId: string, n: number, mode: 'valid' | 'duplicate' = 'valid'): Exchange {
  const body = { ref_id: refId, type: 'PERSON', metadata: { n: String(n) } };
  return {
    testCase: { operation: 'createIdentity', mode, label: `create ${n}`, body },
    request: { method: 'POST', url: URL_, headers: { 'content-type': 'application/json' }, body },
    startedAt: '2026-11-27T00:00:00.000Z',
    durationMs: 1,
    tokenGeneration: n,
  };
}

describe('CreateLog', () => {
  const log = new CreateLog({ first: 2, latest: 2 });
  const creates = ['a', 'b', 'c', 'd', 'e'].map((refId, n) => create(refId, n));
  for (const c of creates) log.observe(c);

  it('keeps the first and the latest creates, with their token generation', () => {
    expect(log.firstWith('a')).toBe(creates[0].request);
    expect(log.firstWith('b')).toBe(creates[1].request);
    expect(log.firstWith('d')).toBe(creates[3].request);
    expect(log.firstWith('e')).toBe(creates[4].request);
    expect(log.generationOf('e')).toBe(4);
  });

  it('forgets the ones in between', () => {
    expect(log.firstWith('c')).toBeUndefined();
    expect(log.generationOf('c')).toBeUndefined();
  });

  it('never takes a repeat of a forgotten create for its first create', () => {
    const repeat = create('c', 9, 'duplicate');
    log.observe(repeat);
    expect(log.firstWith('c')).toBeUndefined();
    // The repeat's reproduction then sends the repeat's own request twice: still a repeat.
    const line = reproduction(repeat, undefined, log);
    expect(line).toContain('a create with this ref_id');
    expect(line.split('curl ').length - 1).toBe(2);
  });

  it('a repeat of a kept create still gets its first create', () => {
    const line = reproduction(create('e', 10, 'duplicate'), undefined, log);
    expect(line).toContain('the first create with this ref_id');
  });
});
