/**
 * `conformance run --shard i/n` and `conformance merge`, as a CI matrix runs them: the real binary,
 * one process per shard, then the merge of their report folders.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { conformance, readReport, reportDir } from './binary.ts';
import { RULES } from '../../src/core/catalogue.ts';
import type { ObservedContract } from '../../src/core/open-point.ts';
import { buildReport, toReportRule } from '../../src/report/model/report-builder.ts';
import { SAMPLE_CONTRACT } from '../report/sample-report.ts';

const harEntries = (dir: string): unknown[] => JSON.parse(readFileSync(path.join(dir, 'exchanges.har'), 'utf8')).log.entries;

/** Runs shards 1..count of one run, each into a folder of its own. */
async function runShards(count: number, extra: string[] = []): Promise<{ dirs: string[]; codes: number[]; stdouts: string[] }> {
  const dirs = Array.from({ length: count }, () => reportDir());
  const results = await Promise.all(
    dirs.map((dir, i) => conformance(['run', '--profile', 'quick', '--seed', '21', '--shard', `${i + 1}/${count}`, '--report-dir', dir, ...extra])),
  );
  return { dirs, codes: results.map((r) => r.code), stdouts: results.map((r) => r.stdout) };
}

describe('conformance run --shard and conformance merge', () => {
  it("merge the shards of a run into the unsharded run's verdict, in every format", async () => {
    const { dirs, codes, stdouts } = await runShards(2);
    expect(codes).toEqual([0, 0]);
    expect(stdouts[0]).toMatch(/shard 1\/2: this report judges one share of the cases; merge the shard reports/);
    const out = reportDir();
    const merged = await conformance(['merge', ...dirs.map((d) => path.join(d, 'conformance.json')), '--report-dir', out]);
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stdout).toMatch(/^merged 2 shards of seed 21, profile quick$/m);
    expect(merged.stdout).toMatch(/^verdict: conformant /m);
    expect(readdirSync(out).sort()).toEqual(['conformance.json', 'created-identities.json', 'exchanges.har', 'junit.xml', 'report.html', 'summary.md']);
    const report = readReport(out);
    // Each shard's identities and restored accounts, all of them.
    expect(report.createdIdentities).toEqual(dirs.flatMap((d) => readReport(d).createdIdentities));
    expect(report.restore?.accounts).toEqual(dirs.flatMap((d) => readReport(d).restore!.accounts));
    expect(report.shard).toBeUndefined();
    expect(report.summary.requests).toBe(dirs.reduce((n, d) => n + readReport(d).summary.requests, 0));
    expect(harEntries(out).length).toBe(dirs.reduce((n, d) => n + harEntries(d).length, 0));

    const whole = reportDir();
    const unsharded = await conformance(['run', '--profile', 'quick', '--seed', '21', '--report-dir', whole]);
    expect(unsharded.code).toBe(merged.code);
    expect(report.rules.map((r) => [r.id, r.status, r.cases])).toEqual(readReport(whole).rules.map((r) => [r.id, r.status, r.cases]));
  });

  it('exits 1 when the merged run is non-conformant, though one shard alone was not', async () => {
    const { dirs, codes } = await runShards(2, ['--fault', 'id-tax-absent-accepted']);
    expect([...codes].sort()).toEqual([0, 1]);
    const merged = await conformance(['merge', ...dirs.map((d) => path.join(d, 'conformance.json')), '--report-dir', reportDir()]);
    expect(merged.code).toBe(1);
    expect(merged.stdout).toMatch(/✗ id\.tax\.absent-rejected {2}failed/);
  });

  it('refuses, in one line with exit 2, shards of different runs, a missing shard, a report given twice and a broken file', async () => {
    const { dirs } = await runShards(2, ['--rule', 'id.tax']);
    const [one, two] = dirs.map((d) => path.join(d, 'conformance.json'));
    const other = reportDir();
    await conformance(['run', '--profile', 'quick', '--seed', '22', '--shard', '2/2', '--rule', 'id.tax', '--report-dir', other]);
    const broken = path.join(reportDir(), 'conformance.json');
    writeFileSync(broken, '{"reportVersion": "1.6.0", "rules": [');
    const cases: [string[], RegExp][] = [
      [[one, path.join(other, 'conformance.json')], /differ in seed \(21 vs 22\)/],
      [[one], /shard 2\/2 missing/],
      [[one, one], /are both shard 1\/2/],
      [[one, broken], /conformance\.json/],
      [[], /give the conformance\.json of every shard/],
    ];
    for (const [files, message] of cases) {
      const { code, stderr } = await conformance(['merge', ...files, '--report-dir', reportDir()]);
      expect(code, stderr).toBe(2);
      expect(stderr).toMatch(message);
      expect(stderr.trim().split('\n')).toHaveLength(1);
    }
    // In order, the two good shards still merge.
    expect((await conformance(['merge', two, one, '--report-dir', reportDir()])).code).toBe(0);
  });

  it("joins the shards' observed contracts: conformance.json, summary.md and one line on stdout", async () => {
    const judged = { fixed: 5, random: 10, distinctInputs: 15, minimum: { fixed: 1, random: 1 } };
    const rules = RULES.map((rule) => toReportRule({ rule, cases: 15, findings: [], crashed: false, coverage: judged }, { seed: 31, strict: false }));
    const [city, address, country, dob, firstName, lastName] = SAMPLE_CONTRACT.limits;
    const contracts: ObservedContract[] = [
      { version: 1, limits: [city, address, firstName] },
      {
        version: 1,
        limits: [
          country,
          dob,
          lastName,
          { ...firstName, refused: [{ value: 'arabic', status: 400 }], summary: 'refused arabic; accepted accented latin (é, ñ, ß)' },
        ],
      },
    ];
    const files = contracts.map((observedContract, i) => {
      const dir = reportDir();
      const facts = { baseUrl: 'https://sandbox.example.com', embedded: false, fiatAccountIds: [], seed: 31, profile: 'quick', runs: 10, strict: false };
      const report = buildReport({ ...facts, shard: { index: i + 1, count: 2 } }, rules, {
        startedAt: '2026-01-05T10:00:00.000Z',
        durationMs: 100,
        requests: 50,
        undocumentedFields: [],
        observedContract,
        openCases: { accepted: 10 + i, refused: 3 },
      });
      writeFileSync(path.join(dir, 'conformance.json'), JSON.stringify(report));
      return path.join(dir, 'conformance.json');
    });
    const out = reportDir();
    const merged = await conformance(['merge', ...files, '--report-dir', out]);
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stdout).toMatch(/^observed contract: 4 of 6 open points refused something \(summary\.md lists them\)$/m);
    const report = readReport(out);
    expect(report.summary.openCases).toEqual({ accepted: 21, refused: 6 });
    expect(report.observedContract!.limits.map((l) => l.field)).toEqual(SAMPLE_CONTRACT.limits.map((l) => l.field));
    expect(report.observedContract!.limits.find((l) => l.field === 'person_details.first_name')!.refused.map((r) => r.value)).toEqual([
      'cjk',
      'astral',
      'arabic',
    ]);
    const summary = readFileSync(path.join(out, 'summary.md'), 'utf8');
    expect(summary).toContain(
      '- `person_details.first_name` (createIdentity), alphabet: refused cjk, astral, arabic; accepted accented latin (é, ñ, ß) — 400: first_name must match',
    );
    expect(summary).toContain('21 open cases accepted, 6 refused; 2 other open points accepted everything tried.');
  });

  it('refuses --shard out of range and --shard without --seed (exit 2)', async () => {
    const outOfRange = await conformance(['run', '--seed', '1', '--shard', '3/2', '--report-dir', reportDir()]);
    expect(outOfRange.code).toBe(2);
    expect(outOfRange.stderr).toMatch(/--shard takes i\/n with 1 <= i <= n/);
    const noSeed = await conformance(['run', '--report-dir', reportDir()], { CONFORMANCE_SHARD: '1/2' });
    expect(noSeed.code).toBe(2);
    expect(noSeed.stderr).toMatch(/--shard needs --seed/);
  });
});
