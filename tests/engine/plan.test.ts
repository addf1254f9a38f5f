/** The planned requests of a run: what `run --help` and the start of a remote run say it costs. */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { planRequests } from '../../src/engine/plan.ts';
import { GENERATE_PLANNED_COMMAND, committedPlannedRequests, generatePlannedRequests } from '../../scripts/generate-planned-requests.ts';
import { PLANNED_REQUESTS, PROFILES, REMOTE_REQUEST_BUDGET, defaultProfile, type Profile } from '../../src/engine/profiles.ts';
import { runEmbedded } from '../../src/run/embedded-run.ts';
import { estimateMs } from '../../src/run/planned-run.ts';

const plan = (runs: number, seed = 1, ruleFilter: string[] = []) => planRequests({ runs, accounts: 3, seed, ruleFilter });

describe('the planned requests', () => {
  it('of every profile are what plan.ts computes today (src/engine/planned-requests.ts is generated, not kept by hand)', async () => {
    expect(committedPlannedRequests(), `src/engine/planned-requests.ts has drifted: run \`${GENERATE_PLANNED_COMMAND}\``).toBe(await generatePlannedRequests());
    for (const profile of Object.keys(PROFILES) as Profile[]) expect((await plan(PROFILES[profile])).total).toBe(PLANNED_REQUESTS[profile]);
  });

  it("of every profile are the README's figures, to the nearest ten", () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    const stated = /about ([\d,]+) \/ ([\d,]+) \/ ([\d,]+) requests/.exec(readme);
    expect(stated, 'README states the requests of the three profiles').not.toBeNull();
    const figures = stated!.slice(1).map((n) => Number(n.replace(/,/g, '')));
    expect(figures).toEqual((['quick', 'standard', 'deep'] as const).map((p) => Math.round(PLANNED_REQUESTS[p] / 10) * 10));
  });

  it('are what a run against the faithful server sends, exactly, at any seed and rule filter', async () => {
    for (const [seed, ruleFilter] of [
      [1, []],
      [9, []],
      [4, ['fa.metadata']],
      [5, ['id.']],
    ] as const) {
      const planned = await plan(PROFILES.quick, seed, [...ruleFilter]);
      const { report } = await runEmbedded({ runs: PROFILES.quick, seed, ruleFilter: [...ruleFilter] });
      // Putting the accounts back is planned apart (at most restoreAtMost), like shrinking.
      const restore = report.restore!.requests;
      expect(restore).toBeLessThanOrEqual(planned.restoreAtMost);
      expect(report.summary.requests - restore, `seed ${seed} ${ruleFilter}`).toBe(planned.total);
    }
  });

  it('choose the default profile of a remote target: the deepest within the request budget', () => {
    expect(defaultProfile(true)).toBe('standard');
    expect(PLANNED_REQUESTS.standard).toBeLessThanOrEqual(REMOTE_REQUEST_BUDGET);
    expect(PLANNED_REQUESTS.deep).toBeGreaterThan(REMOTE_REQUEST_BUDGET);
    expect(defaultProfile(false)).toBe('standard');
  });
});

describe('the estimated time of a plan', () => {
  const plan = { total: 800, updates: 400 };
  it('is requests / rate when the rate limit is the bound', () => {
    expect(estimateMs(plan, { rateLimitPerSecond: 10, concurrency: 8, accounts: 8, roundTripMs: 150 })).toBe(80_000);
  });

  it('is round trips over what may be in flight otherwise, the updates one at a time per account', () => {
    expect(estimateMs(plan, { rateLimitPerSecond: null, concurrency: 8, accounts: 8, roundTripMs: 100 })).toBe(10_000);
    // One account: its 400 updates go one by one, the other 400 requests 8 at a time.
    expect(estimateMs(plan, { rateLimitPerSecond: null, concurrency: 8, accounts: 1, roundTripMs: 100 })).toBe(45_000);
    expect(estimateMs(plan, { rateLimitPerSecond: null, concurrency: 1, accounts: 3, roundTripMs: 100 })).toBe(80_000);
  });

  it('adds the longest the scenarios wait for the clock of the target', () => {
    expect(estimateMs({ ...plan, waitsAtMostMs: 3000 }, { rateLimitPerSecond: 10, concurrency: 8, accounts: 8, roundTripMs: 150 })).toBe(83_000);
  });
});
