/**
 * A run split into shards and merged is the unsharded run: the same rules, statuses and verdict
 * for the same seed, against the faithful embedded server and against an injected fault.
 */
import { describe, expect, it } from 'vitest';
import { runConfig, type RunConfig } from '../../src/run/run-config.ts';
import { runOnce } from '../../src/run/orchestrate-run.ts';
import { mergeShardReports } from '../../src/report/compare/merge-reports.ts';
import { exitCodeOf, type ConformanceReport } from '../../src/report/model/model.ts';
import { registry } from '../../src/schema/registry.ts';
import { FAULTS } from '../../src/server/faults.ts';
import { planRequests } from '../../src/engine/plan.ts';
import type { Shard } from '../../src/engine/shard.ts';
import { MIN_ACCOUNTS } from '../../src/server/seeded-accounts.ts';

const RUNS = 10;
/** The fiat accounts of the embedded server. */
const EMBEDDED_ACCOUNTS = MIN_ACCOUNTS;

async function sharded(config: Partial<RunConfig> & { seed: number }, count: number) {
  const base = { profile: 'custom' as const, runs: RUNS, ...config };
  const whole = (await runOnce(runConfig(base))).report;
  const shards: ConformanceReport[] = [];
  for (let index = 1; index <= count; index++) shards.push((await runOnce(runConfig({ ...base, shard: { index, count } }))).report);
  const merged = mergeShardReports(shards.map((report) => ({ name: `shard ${report.shard!.index}`, report })));
  return { whole, shards, merged };
}

const statuses = (r: ConformanceReport) => r.rules.map((rule) => [rule.id, rule.status]);
const counts = (r: ConformanceReport) => r.rules.map((rule) => [rule.id, rule.cases, rule.coverage?.fixed, rule.coverage?.random]);
/** The reads of the accounts (an empty update each, two to tell replace from merge): every shard sends them. */
const accountReads = (r: ConformanceReport) => r.rules.find((rule) => rule.id === 'fa.answers')!;

describe('a sharded run, merged', () => {
  it.each([
    [2, 11],
    [3, 5],
  ])('equals the unsharded run against the faithful server (%i shards, seed %i): rules, statuses, verdict and case counts', async (count, seed) => {
    const { whole, shards, merged } = await sharded({ seed }, count);
    expect(whole.summary.verdict).toBe('conformant');
    expect(statuses(merged)).toEqual(statuses(whole));
    expect(counts(merged)).toEqual(counts(whole));
    expect(merged.summary.verdict).toBe(whole.summary.verdict);
    expect(exitCodeOf(merged)).toBe(exitCodeOf(whole));
    // The shards send the unsharded run's requests, plus what each repeats as planned: the account
    // reads, and a valid twin that families of two shards share.
    const plan = (shard?: Shard) => planRequests({ runs: RUNS, accounts: EMBEDDED_ACCOUNTS, seed, concurrency: 8, ...(shard ? { shard } : {}) });
    const repeated = (await Promise.all(shards.map((s) => plan(s.shard!)))).reduce((n, p) => n + p.total, 0) - (await plan()).total;
    expect(repeated).toBeGreaterThanOrEqual((count - 1) * (EMBEDDED_ACCOUNTS + 2));
    const shardRequests = shards.reduce((n, s) => n + s.summary.requests, 0);
    // Each shard puts back the accounts it changed: planned apart, like shrinking.
    const restored = (r: ConformanceReport) => r.restore!.requests;
    expect(shardRequests - shards.reduce((n, s) => n + restored(s), 0) - repeated).toBe(whole.summary.requests - restored(whole));
    expect(merged.summary.requests).toBe(shardRequests);
    expect(accountReads(merged).cases).toBe(accountReads(whole).cases);
    // The rules over the open space go with the scenarios' shard: judged there as in the whole run.
    expect(merged.openSpace).toEqual(whole.openSpace);
    expect(registry().validate('conformance-report', merged)).toEqual([]);
  });

  it('finds an injected fault that only one shard sees, and the same failing rule as the unsharded run', async () => {
    const fault = FAULTS.find((f) => f.name === 'metadata-over-pairs-accepted')!;
    const { whole, shards, merged } = await sharded({ seed: 7, fault: fault.name }, 2);
    const failing = (r: ConformanceReport) => r.rules.filter((rule) => rule.status === 'failed').map((rule) => rule.id);
    expect(failing(whole)).toContain(fault.ruleId);
    expect(failing(merged)).toEqual(failing(whole));
    expect(statuses(merged)).toEqual(statuses(whole));
    expect(merged.summary.verdict).toBe('non-conformant');
    expect(merged.summary.verdict).toBe(whole.summary.verdict);
    // One shard alone says nothing of the fault: it is no verdict for the API.
    const blind = shards.find((s) => !failing(s).includes(fault.ruleId))!;
    expect(blind.summary.reason).toMatch(new RegExp(`^shard ${blind.shard!.index}/2: .*merge the shard reports`));
    const other = blind.shard!.index === 1 ? 2 : 1;
    expect(blind.rules.find((r) => r.id === fault.ruleId)).toMatchObject({
      status: 'skipped',
      blocking: false,
      reason: expect.stringContaining(`judged by shard ${other}/2`),
    });
  });

  it('reports, in a shard, no rule as passed that the shard did not judge', async () => {
    const { shards } = await sharded({ seed: 3, ruleFilter: ['id.'] }, 3);
    for (const report of shards) {
      expect(report.shard).toEqual({ index: report.shard!.index, count: 3 });
      expect(registry().validate('conformance-report', report)).toEqual([]);
      for (const rule of report.rules) if (rule.cases === 0) expect(rule.status, `${rule.id} in shard ${report.shard!.index}`).not.toBe('passed');
      expect(report.rules.some((r) => r.status === 'skipped')).toBe(true);
    }
  });
});
