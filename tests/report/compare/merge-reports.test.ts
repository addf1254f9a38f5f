/** `conformance merge` as a pure function: which shard reports it refuses, and how it adds them up. */
import { describe, expect, it } from 'vitest';
import { getRule, type RuleId } from '../../../src/core/catalogue.ts';
import { UsageError } from '../../../src/core/errors.ts';
import { buildReport, ruleStatus, type RunFacts } from '../../../src/report/model/report-builder.ts';
import { mergeShardReports, type ShardInput } from '../../../src/report/compare/merge-reports.ts';
import type { ConformanceReport, ReportFailure, ReportRule } from '../../../src/report/model/model.ts';
import { registry } from '../../../src/schema/registry.ts';
import type { ObservedContract } from '../../../src/core/open-point.ts';
import { SAMPLE_CONTRACT } from '../sample-report.ts';

const FACTS: RunFacts = {
  baseUrl: 'https://sandbox.example.com',
  embedded: false,
  fiatAccountIds: ['8d3b1c2e-7f4a-4e0b-9c51-2a6f0d9e1b37'],
  seed: 42,
  profile: 'standard',
  runs: 50,
  strict: false,
};

const failure = (message: string): ReportFailure => ({
  message,
  case: { operation: 'updateFiatAccount', label: 'metadata with 7 pairs', mode: 'invalid' },
  request: { method: 'PUT', url: 'https://sandbox.example.com/v2/transfer/fiat-accounts/8d3b1c2e-7f4a-4e0b-9c51-2a6f0d9e1b37', headers: {}, body: {} },
  response: { status: 200, headers: {}, rawBody: '{}', json: true, body: {} },
  curl: 'curl -X PUT https://sandbox.example.com/v2/transfer/fiat-accounts/8d3b1c2e-7f4a-4e0b-9c51-2a6f0d9e1b37',
  seed: 42,
});

/** A rule as a shard reports it: its counts and failures; the status as the builder decides it, or as given (skipped). */
function rule(id: RuleId, counts: { fixed: number; random: number; minimum?: [number, number] }, extra: Partial<ReportRule> = {}): ReportRule {
  const def = getRule(id);
  const failures = extra.failures ?? [];
  const [minFixed, minRandom] = counts.minimum ?? [2, 10];
  const shortfall =
    counts.fixed < minFixed || counts.random < minRandom
      ? `judged by ${counts.fixed} fixed and ${counts.random} random cases (minimum ${minFixed} and ${minRandom}): 3 of 9 updates were refused; make the target accept valid requests and return the documented fields, then run again`
      : undefined;
  const judged = ruleStatus(def, { crashed: false, failed: failures.length > 0, shortfall }, false);
  return {
    id: def.id,
    operation: def.operation,
    section: def.section,
    basis: def.basis,
    title: def.title,
    ...judged,
    cases: counts.fixed + counts.random,
    coverage: { fixed: counts.fixed, random: counts.random, distinctInputs: counts.fixed + counts.random, minimum: { fixed: minFixed, random: minRandom } },
    failures,
    ...extra,
  };
}

function shard(index: number, count: number, rules: ReportRule[], patch: Partial<ConformanceReport> = {}, facts: Partial<RunFacts> = {}): ShardInput {
  const report = buildReport({ ...FACTS, ...facts, shard: { index, count } }, rules, {
    startedAt: `2026-01-05T10:0${index}:00.000Z`,
    durationMs: 1000 * index,
    requests: 100 + index,
    undocumentedFields: [{ path: '/x_debug', operation: 'updateFiatAccount', count: index }],
    transport: { exchanges: 100 + index, unanswered: index, byKind: { timeout: index, connection: 0, other: 0 } },
    shrinking: { perFailure: 100, perRun: 300, requests: 10 * index, cutShort: index === 1 ? ['fa.metadata.over-pairs-rejected'] : [] },
  });
  return { name: `shard-${index}/conformance.json`, report: { ...report, ...patch } };
}

const refusal = (inputs: ShardInput[]): string => {
  try {
    mergeShardReports(inputs);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('the merge was not refused');
};

describe('merging shard reports', () => {
  const rules = (fixed: number) => [rule('fa.valid-accepted', { fixed, random: 8 }), rule('fa.metadata.over-pairs-rejected', { fixed: 3, random: 20 })];

  it.each([
    ['seed', (s: ShardInput) => ({ ...s, report: { ...s.report, seed: 43 } }), /differ in seed \(42 vs 43\)/],
    ['profile', (s: ShardInput) => ({ ...s, report: { ...s.report, profile: 'deep' } }), /differ in profile/],
    ['runs', (s: ShardInput) => ({ ...s, report: { ...s.report, runs: 400 } }), /differ in random cases per rule/],
    ['strict', (s: ShardInput) => ({ ...s, report: { ...s.report, strict: true } }), /differ in --strict/],
    [
      'target',
      (s: ShardInput) => ({ ...s, report: { ...s.report, target: { ...s.report.target, baseUrl: 'https://other.example.com' } } }),
      /differ in target/,
    ],
    ['tool version', (s: ShardInput) => ({ ...s, report: { ...s.report, tool: { ...s.report.tool, version: '9.9.9' } } }), /differ in tool version/],
    ['schemas', (s: ShardInput) => ({ ...s, report: { ...s.report, schemasHash: '0'.repeat(64) } }), /differ in schemasHash/],
    ['rule filter', (s: ShardInput) => ({ ...s, report: { ...s.report, ruleFilter: ['fa.'] } }), /differ in --rule filter/],
    ['shard count', (s: ShardInput) => ({ ...s, report: { ...s.report, shard: { index: 2, count: 3 } } }), /differ in shard count/],
  ])('refuses shards of different %s, in one line', (_what, change, message) => {
    const text = refusal([shard(1, 2, rules(3)), change(shard(2, 2, rules(3)))]);
    expect(text).toMatch(message);
    expect(text).toContain('shard-1/conformance.json');
    expect(text).not.toContain('\n');
  });

  it('refuses a report that is no shard, a missing shard and a shard given twice', () => {
    const { shard: _none, ...whole } = shard(1, 2, rules(3)).report;
    expect(refusal([{ name: 'whole.json', report: whole }, shard(2, 2, rules(3))])).toMatch(/whole\.json is not the report of a shard/);
    expect(refusal([shard(1, 3, rules(3)), shard(3, 3, rules(3))])).toMatch(/shard 2\/3 missing: give the reports of all 3 shards/);
    expect(refusal([shard(1, 2, rules(3)), { ...shard(1, 2, rules(3)), name: 'again.json' }])).toMatch(
      /shard-1\/conformance\.json and again\.json are both shard 1\/2/,
    );
    expect(refusal([])).toMatch(/give the conformance\.json of every shard/);
  });

  it('merges embedded shards, whose servers listen on ports of their own, but not two faults', () => {
    const embedded = (index: number, port: number, fault: string) =>
      shard(index, 2, rules(3), {}, { embedded: true, baseUrl: `http://127.0.0.1:${port}`, reading: { fault } });
    expect(mergeShardReports([embedded(1, 4001, 'fa-id-missing'), embedded(2, 4002, 'fa-id-missing')]).summary.rules).toBe(2);
    expect(refusal([embedded(1, 4001, 'fa-id-missing'), embedded(2, 4002, 'id-id-missing')])).toMatch(/differ in target/);
  });

  it('adds up each rule: cases and coverage summed, the status decided again from the sums', () => {
    // Below the minimum in each shard (2 fixed, 10 random), enough together.
    const merged = mergeShardReports([
      shard(2, 2, [rule('fa.valid-accepted', { fixed: 1, random: 6 })]),
      shard(1, 2, [rule('fa.valid-accepted', { fixed: 1, random: 5 })]),
    ]);
    const [valid] = merged.rules;
    expect(valid.cases).toBe(13);
    expect(valid.coverage).toEqual({ fixed: 2, random: 11, distinctInputs: 13, minimum: { fixed: 2, random: 10 } });
    expect(valid.status).toBe('passed');
    expect(valid.reason).toBeUndefined();
    expect(merged.summary.verdict).toBe('conformant');
    expect(merged.shard).toBeUndefined();
  });

  it('keeps a rule short of its minimum inconclusive, with the summed counts and the cause a shard gave', () => {
    const merged = mergeShardReports([
      shard(1, 2, [rule('fa.valid-accepted', { fixed: 1, random: 2 })]),
      shard(2, 2, [rule('fa.valid-accepted', { fixed: 0, random: 3 })]),
    ]);
    const [valid] = merged.rules;
    expect(valid.status).toBe('inconclusive');
    expect(valid.blocking).toBe(true);
    expect(valid.reason).toBe(
      'judged by 1 fixed and 5 random cases (minimum 2 and 10): 3 of 9 updates were refused; make the target accept valid requests and return the documented fields, then run again',
    );
    expect(merged.summary.verdict).toBe('inconclusive');
  });

  it('turns a rule one shard skipped and another failed into a failure, its failures within the per-rule cap', () => {
    const failures = (n: number, shardIndex: number) => Array.from({ length: n }, (_, i) => failure(`failure ${i + 1} of shard ${shardIndex}`));
    const skipped = rule(
      'fa.metadata.over-pairs-rejected',
      { fixed: 3, random: 20 },
      {
        status: 'skipped',
        blocking: false,
        reason: 'judged by shard 2/2: merge the shard reports (conformance merge) for its status',
        failures: failures(3, 1),
      },
    );
    const failed = rule('fa.metadata.over-pairs-rejected', { fixed: 4, random: 20 }, { failures: failures(4, 2) });
    const merged = mergeShardReports([shard(1, 2, [skipped]), shard(2, 2, [failed])]);
    const [rule_] = merged.rules;
    expect(rule_.status).toBe('failed');
    expect(rule_.blocking).toBe(true);
    expect(rule_.failures.map((f) => f.message)).toEqual([
      'failure 1 of shard 1',
      'failure 2 of shard 1',
      'failure 3 of shard 1',
      'failure 1 of shard 2',
      'failure 2 of shard 2',
    ]);
    expect(merged.summary.verdict).toBe('non-conformant');
  });

  it('keeps a crashed check an error, and a convention failure non-blocking unless strict', () => {
    const crashed = rule(
      'fa.valid-accepted',
      { fixed: 3, random: 20 },
      { status: 'error', blocking: true, reason: 'a check crashed; see the failures', failures: [failure('TypeError')] },
    );
    const convention = (strict: boolean) =>
      [rule('fa.unknown-id-404', { fixed: 3, random: 20 }, { failures: [failure('400, not 404')] })].map((r) => ({
        ...r,
        ...ruleStatus(r, { crashed: false, failed: true }, strict),
      }));
    expect(mergeShardReports([shard(1, 2, [crashed]), shard(2, 2, [rule('fa.valid-accepted', { fixed: 3, random: 20 })])]).rules[0].status).toBe('error');
    const lenient = mergeShardReports([shard(1, 2, convention(false)), shard(2, 2, convention(false))]);
    expect([lenient.rules[0].status, lenient.rules[0].blocking, lenient.summary.verdict]).toEqual(['failed', false, 'conformant']);
    const strict = mergeShardReports([shard(1, 2, convention(true), {}, { strict: true }), shard(2, 2, convention(true), {}, { strict: true })]);
    expect([strict.rules[0].blocking, strict.summary.verdict]).toEqual([true, 'non-conformant']);
  });

  it('sums the summary, the transport, the undocumented fields and shrinking; takes the earliest start, the longest shard, any stop', () => {
    const stop = { kind: 'unreachable' as const, message: 'the target stopped answering', requests: 77 };
    const merged = mergeShardReports([shard(1, 3, rules(3)), shard(2, 3, rules(3), { stopped: stop }), shard(3, 3, rules(3))]);
    expect(merged.summary.requests).toBe(101 + 102 + 103);
    expect(merged.transport).toEqual({ exchanges: 306, unanswered: 6, byKind: { timeout: 6, connection: 0, other: 0 }, limit: merged.transport!.limit });
    expect(merged.undocumentedFields).toEqual([{ path: '/x_debug', operation: 'updateFiatAccount', count: 6 }]);
    expect(merged.shrinking).toEqual({ perFailure: 100, perRun: 300, requests: 60, cutShort: ['fa.metadata.over-pairs-rejected'] });
    expect(merged.startedAt).toBe('2026-01-05T10:01:00.000Z');
    expect(merged.durationMs).toBe(3000);
    expect(merged.stopped).toEqual(stop);
    expect(merged.summary.verdict).toBe('error');
  });

  it('joins the observed contracts per open point and sums the open cases', () => {
    const [city, address, country, dob, firstName, lastName] = structuredClone(SAMPLE_CONTRACT).limits;
    const one: ObservedContract = { version: 1, limits: [address, firstName, city] };
    // Shard 2 saw another refused country and a narrower range of dates.
    const two: ObservedContract = {
      version: 1,
      limits: [
        {
          ...country,
          accepted: ['GBR'],
          refused: [{ value: 'USA', status: 400, said: 'country must be one of GBR | DEU | FRA' }],
          summary: 'refused USA; accepted GBR',
        },
        { ...dob, accepted: ['1960-01-01'], earliestAccepted: '1960-01-01', latestAccepted: '1960-01-01', summary: 'refused 1899-12-31; accepted 1960-01-01' },
        lastName,
      ],
    };
    const withContract = (input: ShardInput, contract: ObservedContract, accepted: number, refused: number): ShardInput => ({
      ...input,
      report: { ...input.report, observedContract: contract, summary: { ...input.report.summary, openCases: { accepted, refused } } },
    });
    const merged = mergeShardReports([withContract(shard(2, 2, rules(3)), two, 5, 1), withContract(shard(1, 2, rules(3)), one, 7, 4)]);
    expect(merged.summary.openCases).toEqual({ accepted: 12, refused: 5 });
    expect(merged.observedContract!.limits.map((l) => l.field)).toEqual(SAMPLE_CONTRACT.limits.map((l) => l.field));
    const mergedCountry = merged.observedContract!.limits.find((l) => l.kind === 'code')!;
    expect(mergedCountry.refused.map((r) => r.value)).toEqual(['USA']);
    expect(mergedCountry.summary).toBe('refused USA; accepted GBR');
    expect(merged.observedContract!.limits.find((l) => l.kind === 'date')).toMatchObject({
      accepted: ['1960-01-01'],
      earliestAccepted: '1960-01-01',
      summary: 'refused 1899-12-31; accepted 1960-01-01',
    });
    // Alone in one shard, a point comes back as it was.
    expect(merged.observedContract!.limits.find((l) => l.field === 'person_details.first_name')).toEqual(firstName);
    expect(registry().validate('conformance-report', merged)).toEqual([]);
  });

  it('joins a point both shards tried, and reads shards without a contract (before 1.7.0) as having tried nothing', () => {
    const [, address] = structuredClone(SAMPLE_CONTRACT).limits;
    const wider = { ...address, accepted: ['50 characters'], refused: [{ value: '51 characters', status: 422 }], longestAccepted: 50, shortestRefused: 51 };
    const merged = mergeShardReports([
      shard(1, 2, rules(3), { observedContract: { version: 1, limits: [address] } }),
      shard(2, 2, rules(3), { observedContract: { version: 1, limits: [wider] } }),
    ]);
    const [joined] = merged.observedContract!.limits;
    expect([joined.longestAccepted, joined.shortestRefused]).toEqual([50, 36]);
    expect(joined.refused.map((r) => r.value)).toEqual(['36 characters', '200 characters', '51 characters']);
    expect(joined.summary).toBe('refused 36 characters, 200 characters, 51 characters; accepted up to 50 characters');
    const bare = (input: ShardInput): ShardInput => {
      const { observedContract: _none, ...report } = input.report;
      const { openCases: _uncounted, ...summary } = report.summary;
      return { ...input, report: { ...report, reportVersion: '1.6.0', summary } };
    };
    const old = mergeShardReports([bare(shard(1, 2, rules(3))), bare(shard(2, 2, rules(3)))]);
    expect(old.observedContract).toEqual({ version: 1, limits: [] });
    expect(old.summary.openCases).toEqual({ accepted: 0, refused: 0 });
  });

  it('keeps what a shard left changed, with every journal and repair command; all shards with restore off: off', () => {
    const left = {
      enabled: true,
      note: 'fiat accounts: 1 not restored',
      requests: 3,
      journal: 'shard-1/restore-journal.json',
      repair: 'conformance restore shard-1/restore-journal.json',
      accounts: [{ id: 'a1', outcome: 'not-restored' as const, restored: [], notRestored: [{ field: 'metadata.k1', reason: 'refused' }] }],
    };
    const asFound = {
      enabled: true,
      note: 'fiat accounts: 1 restored',
      requests: 4,
      journal: 'shard-2/restore-journal.json',
      repair: 'conformance restore shard-2/restore-journal.json',
      accounts: [{ id: 'a2', outcome: 'restored' as const, restored: ['metadata.k1'], notRestored: [] }],
    };
    const off = { enabled: false, note: 'restore was off', requests: 0, accounts: [] };
    const merged = mergeShardReports([shard(1, 2, rules(3), { restore: left }), shard(2, 2, rules(3), { restore: asFound })]);
    expect(merged.restore?.accounts.map((a) => a.id)).toEqual(['a1', 'a2']);
    expect(merged.restore?.journal).toBe('shard-1/restore-journal.json, shard-2/restore-journal.json');
    expect(merged.restore?.repair).toBe('conformance restore shard-1/restore-journal.json && conformance restore shard-2/restore-journal.json');
    expect(registry().validate('conformance-report', merged)).toEqual([]);
    // One shard without restore hides nothing the other left changed.
    expect(mergeShardReports([shard(1, 2, rules(3), { restore: left }), shard(2, 2, rules(3), { restore: off })]).restore?.accounts).toHaveLength(1);
    expect(mergeShardReports([shard(1, 2, rules(3), { restore: off }), shard(2, 2, rules(3), { restore: off })]).restore?.enabled).toBe(false);
  });

  it("writes a report valid against its schema, without the shards' reason", () => {
    const merged = mergeShardReports([shard(1, 2, rules(3)), shard(2, 2, rules(3))]);
    expect(registry().validate('conformance-report', merged)).toEqual([]);
    expect(merged.summary.reason).toBeUndefined();
    expect(shard(1, 2, rules(3)).report.summary.reason).toMatch(/^shard 1\/2: .*merge the shard reports/);
  });
});
