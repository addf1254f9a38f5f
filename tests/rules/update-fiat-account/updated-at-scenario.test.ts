/** The clock scenario against targets with an injected clock: it waits only when needed, and its rejudge agrees with it. */
import { describe, expect, it } from 'vitest';
import type { TestCase } from '../../../src/core/case.ts';
import type { Exchange } from '../../../src/core/exchange.ts';
import type { ScenarioContext, ScenarioResult } from '../../../src/rules/scenarios.ts';
import { ClockPacing, updatedAtClock } from '../../../src/rules/update-fiat-account/updated-at-scenario.ts';
import { fiatAccountBody } from '../exchange-builders.ts';

const START = Date.parse('2026-11-27T06:00:00.250Z');

interface FakeTarget {
  /** The target's updated_at after an update at `now` (ms). */
  stamp(now: number, previous: number): number;
  /** The Date header at `now`, or none. */
  date?(now: number): string;
}

const imfDate = (at: number) => new Date(Math.floor(at / 1000) * 1000).toUTCString();
const FAITHFUL: FakeTarget = { stamp: (now) => now, date: imfDate };

/** A context whose target answers from a clock that moves 20 ms per request and as long as the scenario sleeps. */
function contextFor(target: FakeTarget) {
  let now = START;
  let firstName = 'Ada';
  let updatedAt = START;
  const sent: Exchange[] = [];
  const slept: number[] = [];
  const exercise = async (c: TestCase): Promise<Exchange> => {
    now += 20;
    const sentName = (c.body as { fiat_account_owner: { person_details: { first_name: string } } }).fiat_account_owner.person_details.first_name;
    if (sentName !== firstName) updatedAt = target.stamp(now, updatedAt);
    firstName = sentName;
    const body = fiatAccountBody({
      updated_at: new Date(updatedAt).toISOString(),
      fiat_account_owner: { person_details: { first_name: firstName, last_name: 'Lovelace' } },
    });
    const headers: Record<string, string> = { 'content-type': 'application/json', ...(target.date ? { date: target.date(now) } : {}) };
    const exchange: Exchange = {
      testCase: c,
      request: { method: 'PUT', url: `http://127.0.0.1:1/v2/transfer/fiat-accounts/${c.fiatAccountId}`, headers: {}, body: c.body },
      response: { status: 200, headers, rawBody: JSON.stringify(body), json: true, body },
      startedAt: new Date(now).toISOString(),
      durationMs: 1,
    };
    sent.push(exchange);
    return exchange;
  };
  const sleep = async (ms: number) => {
    slept.push(ms);
    now += ms;
  };
  const context = { exercise, wait: sleep, now: () => now, carried: new Map(), fiatAccountIds: ['acc-1'] } as unknown as ScenarioContext;
  /** The rest of the run going on between the scenario and its later part: time passes. */
  const pass = (ms: number) => {
    now += ms;
  };
  return { context, sent, slept, pass };
}

/** Step 1 in the scenarios phase, steps 2 and 3 after the random cases, as a run sends them. */
async function runWhole(context: ScenarioContext, between = () => {}): Promise<ScenarioResult> {
  const first = await updatedAtClock.run(context);
  if (first.notJudged) return first;
  between();
  const later = await updatedAtClock.later!.run(context, 'after-random-cases');
  return { outcomes: [...first.outcomes, ...later] };
}

const failures = (result: ScenarioResult) => result.outcomes.flatMap((o) => o.problems.map((p) => p.message));

function rejudged(sent: readonly Exchange[]) {
  const rejudge = updatedAtClock.judgesItsRule ? updatedAtClock.rejudge({} as never) : undefined;
  return sent.flatMap((e, at) => rejudge?.observe(e, at) ?? []).map((o) => o.problems.length);
}

describe('the updated_at clock scenario', () => {
  it('passes a faithful target after waiting once for its Date to pass the first updated_at', async () => {
    const { context, sent, slept } = contextFor(FAITHFUL);
    const result = await runWhole(context);
    expect(failures(result)).toEqual([]);
    expect(result.outcomes).toHaveLength(2);
    expect(sent).toHaveLength(updatedAtClock.requests({ accounts: 1, runs: 10, seed: 1, concurrentDuplicates: 3 }));
    expect(slept).toHaveLength(1);
    expect(slept[0]).toBeGreaterThan(1000);
    expect(slept[0]).toBeLessThanOrEqual(2000);
    expect(rejudged(sent)).toEqual([0, 0]);
  });

  it('fails a target whose updated_at never moves, on accounts made a moment before the run', async () => {
    const { context, sent } = contextFor({ stamp: (_now, previous) => previous, date: imfDate });
    const result = await runWhole(context);
    expect(failures(result)).toHaveLength(1);
    expect(failures(result)[0]).toMatch(/^updated_at 2026-11-27T06:00:00.250Z of an update that changed first_name to "Mary" is before the request/);
    expect(rejudged(sent)).toEqual([0, 1]);
  });

  it('waits only what the rest of the run did not already take, and still fails a frozen updated_at', async () => {
    const { context, slept, pass } = contextFor({ stamp: (_now, previous) => previous, date: imfDate });
    const result = await runWhole(context, () => pass(1500));
    expect(slept).toHaveLength(1);
    expect(slept[0]).toBeLessThanOrEqual(500);
    expect(failures(result)).toHaveLength(1);
    const { context: longer, slept: none, pass: passLonger } = contextFor({ stamp: (_now, previous) => previous, date: imfDate });
    expect(failures(await runWhole(longer, () => passLonger(5000)))).toHaveLength(1);
    expect(none).toEqual([]);
  });

  it('passes a target behind a front proxy whose Date runs a second behind', async () => {
    const { context } = contextFor({ stamp: (now) => now, date: (now) => imfDate(now - 1000) });
    expect(failures(await runWhole(context))).toEqual([]);
  });

  it('says why it judged nothing when the answers carry no Date header, and does not wait', async () => {
    const { context, slept } = contextFor({ stamp: (now) => now });
    const result = await runWhole(context);
    expect(result.outcomes).toEqual([]);
    expect(result.notJudged).toBe("the target's answers carry no Date header: nothing tells what its clock read");
    expect(slept).toEqual([]);
  });
});

describe('the pacing of a replay of the scenario', () => {
  it('holds step 2 back as the run did after step 1, and nothing else', async () => {
    const { context, sent } = contextFor(FAITHFUL);
    await runWhole(context);
    const pacing = new ClockPacing();
    const other = { operation: 'updateFiatAccount' as const, label: 'another update' };
    expect(pacing.waitBefore(sent[1].testCase, 0)).toBe(0);
    pacing.sent(sent[0], 10_000);
    expect(pacing.waitBefore(sent[1].testCase, 10_000)).toBe(2000);
    expect(pacing.waitBefore(sent[1].testCase, 11_500)).toBe(500);
    expect(pacing.waitBefore(other, 10_000)).toBe(0);
    expect(pacing.waitBefore(sent[2].testCase, 10_000)).toBe(0);
  });
});
