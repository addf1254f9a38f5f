/**
 * What the configuration cannot judge is said up front and not held against the target (issue
 * 31, point 4): one fiat account rules out the sequences' isolation, a --max-requests budget the
 * rules it leaves below their minimum, each with the smallest fix; a faithful target with one
 * account id is conformant (exit 0), and --strict still asks for every rule (exit 4); `plan`
 * says all of it without credentials.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RULES } from '../../src/core/catalogue.ts';
import { planRun, selectRules } from '../../src/engine/plan.ts';
import { ruledOutByAccounts, ruledOutByBudget, ruledOutByCredentials, ruledOutRules } from '../../src/engine/ruled-out.ts';
import { reservedRequests } from '../../src/run/request-reserve.ts';
import { createReferenceServer, type ReferenceServer } from '../../src/server/server.ts';
import { runConformance } from '../../src/api/index.ts';
import { main } from '../../src/cli/main.ts';
import { testIO } from '../cli/test-io.ts';
import { renderJunit } from '../../src/report/files/junit.ts';

const RUNS = 50;
/** A plan over one fiat account, as a remote run with one --fiat-account-id (and no client credentials) makes it. */
const planOver = (maxRequests?: number, accounts = 1) =>
  planRun({
    fetchesTokens: false,
    seed: 1,
    runs: RUNS,
    concurrency: 8,
    ruleFilter: [],
    accounts,
    ...(maxRequests !== undefined ? { budget: { maxRequests, reserved: reservedRequests(accounts, true) } } : {}),
  });

describe('rules the configuration rules out', () => {
  it('one fiat account rules out the isolation of the sequences, two do not', () => {
    const [isolation, ...others] = ruledOutByAccounts(selectRules(), 1);
    expect(others).toEqual([]);
    expect(isolation).toEqual({ rule: 'fa.sequence.isolation', setting: '--fiat-account-id', fix: 'give a second account id (--fiat-account-id twice)' });
    expect(ruledOutByAccounts(selectRules(), 2)).toEqual([]);
    // A filter that leaves the sequences out leaves nothing to rule out.
    expect(ruledOutByAccounts(selectRules(['id.']), 1)).toEqual([]);
  });

  it('a static token rules out the repeats across tokens (no renewal), fetched tokens do not', () => {
    expect(ruledOutByCredentials(selectRules(), false)).toEqual([
      { rule: 'id.ref-id.across-tokens', setting: '--token', fix: expect.stringContaining('instead of a static --token') },
    ]);
    expect(ruledOutByCredentials(selectRules(), true)).toEqual([]);
    expect(ruledOutByCredentials(selectRules(['fa.']), false)).toEqual([]);
  });

  it('`plan` with a static token names the rule, its fix, and no token request; with client credentials the forced renewal is a token request', async () => {
    const base = ['plan', '--base-url', 'https://sandbox.example.com', '--fiat-account-id', '0f8fad5b-d9cb-469f-a165-70867728950e', '--seed', '1'];
    const withToken = testIO();
    expect(await main([...base, '--token', 'a-static-token', '--json'], withToken.io)).toBe(0);
    const summary = JSON.parse(withToken.out.join('\n'));
    expect(summary.ruledOut).toContainEqual(expect.objectContaining({ rule: 'id.ref-id.across-tokens', setting: '--token' }));
    expect(summary.tokenRequests).toBeUndefined();
    // The scenario sends nothing it cannot judge.
    expect(summary.scenarios.find((s: { rule: string }) => s.rule === 'id.ref-id.across-tokens').requests).toBe(0);
    const credentials = testIO();
    const flags = ['--auth-url', 'https://auth.example.com/token', '--client-id', 'id', '--client-secret', 'not-a-real-secret'];
    expect(await main([...base, ...flags], credentials.io)).toBe(0);
    const text = credentials.out.join('\n');
    expect(text).toContain('token requests: 2 to the token endpoint (the first token, 1 forced renewal for id.ref-id.across-tokens), not in the total');
    expect(text).not.toContain('not-a-real-secret');
    expect(text).not.toMatch(/id\.ref-id\.across-tokens.*--token/);
  });

  it('a budget of 300 names the rules it leaves short and the smallest budget that judges them all', async () => {
    const plan = await planOver(300);
    const short = await ruledOutByBudget(plan, RUNS);
    expect(short.length).toBeGreaterThan(20);
    const concludes = plan.budget!.concludes;
    expect(concludes).toBeGreaterThan(300);
    expect(concludes).toBeLessThan(plan.budget!.wholePlan);
    for (const r of short) expect(r).toMatchObject({ setting: '--max-requests', fix: `--max-requests ${concludes}` });
    // That budget judges every rule; one request less does not.
    expect(await ruledOutByBudget(await planOver(concludes), RUNS)).toEqual([]);
    expect((await ruledOutByBudget(await planOver(concludes - 1), RUNS)).length).toBeGreaterThan(0);
    // Without a budget, nothing is ruled out by one.
    expect(await ruledOutByBudget(await planOver(), RUNS)).toEqual([]);
    expect((await ruledOutRules(plan, 1, RUNS))[0].rule).toBe('fa.sequence.isolation');
  });

  it('`plan --max-requests 300` with one account id and no credentials names every rule it cannot judge and the budget that would', async () => {
    const { io, out, err } = testIO();
    const args = ['plan', '--base-url', 'https://sandbox.example.com', '--fiat-account-id', '0f8fad5b-d9cb-469f-a165-70867728950e', '--max-requests', '300'];
    expect(await main([...args, '--seed', '1'], io)).toBe(0);
    expect(err).toEqual([]);
    const text = out.join('\n');
    const concludes = (await planOver(300)).budget!.concludes;
    expect(text).toMatch(
      new RegExp(`^not judged by this configuration: \\d+ of ${RULES.length} rules \\(not run; they do not block the verdict without --strict\\):$`, 'm'),
    );
    expect(text).toContain('  --fiat-account-id: give a second account id (--fiat-account-id twice) judges it: fa.sequence.isolation');
    expect(text).toMatch(new RegExp(`^  --max-requests: --max-requests ${concludes} judges these \\d+: fa\\.`, 'm'));
    // --json says the same as data.
    const json = testIO();
    expect(await main([...args, '--seed', '1', '--json'], json.io)).toBe(0);
    const summary = JSON.parse(json.out.join('\n'));
    expect(summary.budget.concludes).toBe(concludes);
    expect(summary.ruledOut[0]).toEqual({
      rule: 'fa.sequence.isolation',
      setting: '--fiat-account-id',
      fix: 'give a second account id (--fiat-account-id twice)',
    });
  });

  describe('against a faithful target with one fiat account id', () => {
    let server: ReferenceServer;
    beforeAll(async () => {
      server = await createReferenceServer();
    });
    afterAll(() => server.close());
    const oneAccount = () => ({
      baseUrl: server.baseUrl,
      token: server.staticToken,
      fiatAccountIds: [server.fiatAccountIds[0]],
      profile: 'quick' as const,
      seed: 1,
    });

    it('is conformant, exit 0: isolation is not run, ruled out by --fiat-account-id with its fix', async () => {
      const { report, exitCode } = await runConformance(oneAccount());
      const isolation = report.rules.find((r) => r.id === 'fa.sequence.isolation')!;
      expect(isolation).toMatchObject({
        status: 'inconclusive',
        blocking: false,
        ruledOutBy: { setting: '--fiat-account-id', fix: 'give a second account id (--fiat-account-id twice)' },
      });
      // A static token cannot be renewed: the repeats across tokens are ruled out by --token, with the fix.
      expect(report.rules.filter((r) => r.status !== 'passed').map((r) => r.id)).toEqual(['fa.sequence.isolation', 'id.ref-id.across-tokens']);
      expect(report.rules.find((r) => r.id === 'id.ref-id.across-tokens')).toMatchObject({
        status: 'inconclusive',
        blocking: false,
        ruledOutBy: { setting: '--token', fix: expect.stringMatching(/^give OAuth client credentials \(--auth-url, --client-id, --client-secret\)/) },
      });
      expect(report.summary.verdict).toBe('conformant');
      expect(exitCode).toBe(0);
      // junit.xml: a grey skipped that names the fix, no error.
      const junit = renderJunit(report);
      expect(junit).toMatch(/<testsuites [^>]*failures="0" errors="0"/);
      expect(junit).toContain('<skipped message="not run: ruled out by --fiat-account-id: give a second account id (--fiat-account-id twice)"/>');
    });

    it('a run whose every rule is ruled out judged nothing: inconclusive, exit 4, never a pass', async () => {
      const { report, exitCode } = await runConformance({ ...oneAccount(), rules: ['fa.sequence.isolation'] });
      expect(report.rules.map((r) => [r.id, r.status, r.blocking])).toEqual([['fa.sequence.isolation', 'inconclusive', false]]);
      expect(report.summary.verdict).toBe('inconclusive');
      expect(exitCode).toBe(4);
    });

    it('under --strict the rule blocks: inconclusive, exit 4', async () => {
      const { report, exitCode } = await runConformance({ ...oneAccount(), strict: true, rules: ['fa.sequence'] });
      expect(report.rules.find((r) => r.id === 'fa.sequence.isolation')).toMatchObject({ status: 'inconclusive', blocking: true });
      expect(exitCode).toBe(4);
    });
  });
});
