/**
 * What the streaming judge (src/run/har-judge.ts) holds while a refused case waits for its valid
 * twin: a replay holds it until the twin's answer comes back; a re-judge knows every twin's
 * recorded verdict from its first read and holds nothing (issue 33: verify of a --runs 5000 bundle
 * held every exchange between a case and its late twin, 516 MB).
 */
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/core/exchange.ts';
import { StreamingEntryJudge, TWIN_REACH, TwinOrder } from '../../src/run/har-judge.ts';

const ACCOUNT = 'acc-1';

/** An update of the pool's account answered with `status`. */
const exchange = (status: number, label: string): Exchange => ({
  testCase: { operation: 'updateFiatAccount', mode: 'invalid', violates: 'fa.metadata.over-pairs-rejected', label, fiatAccountId: ACCOUNT },
  request: { method: 'PUT', url: `http://target/v2/transfer/fiat-accounts/${ACCOUNT}`, headers: {} },
  response: { status, headers: { 'content-type': 'application/json' }, rawBody: '{}', json: true, body: {} },
  startedAt: '2026-11-27T10:00:00.000Z',
  durationMs: 1,
});

/** A refused case at 0, a case that does not wait at 1..50, its twin (accepted) at 51. */
function feed(order: TwinOrder, judge: StreamingEntryJudge): number[] {
  const held: number[] = [];
  judge.add({ exchange: exchange(400, 'metadata with 7 pairs'), at: 0, judged: true, links: { twin: 'twin-1' } });
  for (let at = 1; at <= 50; at++) {
    judge.add({ exchange: exchange(400, `other ${at}`), at, judged: true, links: {} });
    held.push(judge.held);
  }
  judge.add({ exchange: exchange(200, 'metadata with 6 pairs'), at: 51, judged: true, links: { input: 'twin-1' } });
  held.push(judge.held);
  expect(order.has('twin-1', 51)).toBe(true);
  return held;
}

describe('what the streaming judge holds while a refusal waits for its twin', () => {
  it('a replay (the twin answers later) holds the exchanges queued behind the refusal, then none', () => {
    const order = new TwinOrder();
    order.add('twin-1', 51);
    const held = feed(order, new StreamingEntryJudge([ACCOUNT], order));
    expect(Math.max(...held)).toBe(51);
    expect(held.at(-1)).toBe(0);
  });

  it('a re-judge (the twin recorded as accepted) holds nothing and judges the refusal as the replay does', () => {
    const replayOrder = new TwinOrder();
    replayOrder.add('twin-1', 51);
    const replay = new StreamingEntryJudge([ACCOUNT], replayOrder);
    feed(replayOrder, replay);

    const order = new TwinOrder();
    order.add('twin-1', 51, true);
    const rejudge = new StreamingEntryJudge([ACCOUNT], order);
    expect(Math.max(...feed(order, rejudge))).toBe(0);
    expect(rejudge.finish()).toEqual(replay.finish());
  });

  it('an accepted case with a twin link waits for nothing: the judge asks a twin only of a refusal', () => {
    const order = new TwinOrder();
    order.add('twin-1', 51);
    const judge = new StreamingEntryJudge([ACCOUNT], order);
    judge.add({ exchange: exchange(200, 'metadata with 6 pairs, accepted'), at: 0, judged: true, links: { twin: 'twin-1' } });
    expect(judge.held).toBe(0);
  });

  it("a refusal whose twin was sent before it is decided by that one when the next with its link is beyond reach (another case's twin)", () => {
    const far = TWIN_REACH + 10;
    const order = new TwinOrder();
    order.add('twin-1', 0);
    order.add('twin-1', far);
    const judge = new StreamingEntryJudge([ACCOUNT], order);
    judge.add({ exchange: exchange(200, 'metadata with 6 pairs'), at: 0, judged: true, links: { input: 'twin-1' } });
    judge.add({ exchange: exchange(400, 'metadata with 7 pairs'), at: 1, judged: true, links: { twin: 'twin-1' } });
    expect(judge.held).toBe(0);
    // Within reach, the nearest after decides: the refusal waits for it.
    const near = new TwinOrder();
    near.add('twin-1', 0);
    near.add('twin-1', 5);
    const waits = new StreamingEntryJudge([ACCOUNT], near);
    waits.add({ exchange: exchange(200, 'metadata with 6 pairs'), at: 0, judged: true, links: { input: 'twin-1' } });
    waits.add({ exchange: exchange(400, 'metadata with 7 pairs'), at: 1, judged: true, links: { twin: 'twin-1' } });
    expect(waits.held).toBe(1);
  });
});
