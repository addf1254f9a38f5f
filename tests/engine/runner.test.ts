/** The runner's promises: one seed regenerates one run, failures are shrunk, ref_ids carry the run tag. */
import { describe, expect, it } from 'vitest';
import { runEmbedded } from '../../src/run/embedded-run.ts';
import type { Exchange } from '../../src/core/exchange.ts';
import { collectExchanges } from './collect-exchanges.ts';
import { runOnce } from '../../src/run/orchestrate-run.ts';
import { runConfig } from '../../src/run/run-config.ts';
import { getRule } from '../../src/core/catalogue.ts';

/** A run of the embedded server, with every exchange it sent. */
async function sentBy(options: Parameters<typeof runEmbedded>[0]): Promise<Exchange[]> {
  const { exchanges, listener } = collectExchanges();
  await runEmbedded({ ...options, listeners: [listener] });
  return exchanges;
}

/** What a run sent, without the parts that must differ between runs (ref_ids, the run tag in identity metadata, the government ids drawn from ref_ids, timestamps). */
const sent = (exchanges: Exchange[]) => {
  // Each embedded server seeds accounts with ids of its own: name them by first appearance.
  const accounts: string[] = [];
  const account = (id: string) => {
    if (!accounts.includes(id)) accounts.push(id);
    return `account-${accounts.indexOf(id)}`;
  };
  return exchanges.map((e) => {
    const path = new URL(e.request.url).pathname.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, account);
    return `${e.request.method} ${path} ${JSON.stringify(e.request.body ?? e.request.rawBody ?? null).replace(/"(ref_id|cip_id|conformance_run)":"[^"]*"/g, '"$1":"*"')}`;
  });
};

describe('runner', () => {
  it('regenerates the same cases from the same seed, and other cases from another', async () => {
    const [a, b, c] = await Promise.all([7, 7, 8].map((seed) => sentBy({ runs: 5, seed, ruleFilter: ['fa.metadata', 'id.valid'] })));
    expect(sent(a)).toEqual(sent(b));
    expect(sent(a)).not.toEqual(sent(c));
  });

  it('tags every ref_id of a run, and no two runs share one', async () => {
    const runs = await Promise.all([1, 1].map((seed) => sentBy({ runs: 3, seed, ruleFilter: ['id.valid'] })));
    const refs = runs.map((r) => r.map((e) => (e.request.body as { ref_id?: string } | undefined)?.ref_id).filter(Boolean) as string[]);
    for (const list of refs) {
      expect(list.length).toBeGreaterThan(0);
      const tag = list[0].replace(/-\d+$/, '');
      expect(list.every((r) => r.startsWith(tag))).toBe(true);
    }
    expect(refs[0].filter((r) => refs[1].includes(r))).toEqual([]);
  });

  it('shrinks a failure found by random cases to a small payload, with the replay path', async () => {
    const { report } = await runEmbedded({ runs: 30, seed: 4, fault: 'fa-owner-both-names-required', ruleFilter: ['fa.valid-accepted'] });
    const rule = report.rules.find((r) => r.id === 'fa.valid-accepted')!;
    expect(rule.status).toBe('failed');
    const evidence = rule.failures[0];
    const names = JSON.stringify((evidence.request.body as Record<string, unknown>).fiat_account_owner ?? {});
    // Shrunk: an owner with one name (or none) is enough to show the fault.
    expect(names.length).toBeLessThan(120);
    expect(evidence.seed).toBe(4);
  });

  it('sends every fixed case and scenario before the first random case, then the clock steps and the repeats of the first ref_ids after them and at the end', async () => {
    const exchanges = await sentBy({ runs: 5, seed: 2 });
    // The restore of the accounts reads them first and last: housekeeping, no case.
    const labels = exchanges.filter((e) => !e.testCase.restore).map((e) => e.testCase.label);
    const firstRandom = labels.findIndex((l) => l.startsWith('random '));
    expect(firstRandom).toBeGreaterThan(100);
    // After it, only random cases, their twins, what shrinking sends, the updated_at clock's last
    // two steps (after the random cases, so its wait overlaps them) and the later repeats of ref_ids.
    const later = labels.slice(firstRandom).filter((l) => !l.startsWith('random '));
    expect(later).toHaveLength(6);
    expect(later.filter((l) => /^updated_at against the Date, step [23]:/.test(l))).toHaveLength(2);
    for (const label of later.filter((l) => !l.startsWith('updated_at')))
      expect(label).toMatch(/^later repeat \d\/2 \((after the random cases|at the end of the run)\)/);
    expect(labels.slice(-2).every((l) => l.includes('at the end of the run'))).toBe(true);
  });

  it('--fail-fast ends the run at the first documented failure: non-conformant, fewer requests, the rest not passed', async () => {
    const config = { seed: 3, profile: 'custom' as const, runs: 10, fault: 'id-starts-approved' };
    const [full, fast] = await Promise.all([runOnce(runConfig(config)), runOnce(runConfig({ ...config, failFast: true }))]);
    expect(full.report.summary.verdict).toBe('non-conformant');
    const { report } = fast;
    expect(report.summary.verdict).toBe('non-conformant');
    expect(report.stopped).toMatchObject({ kind: 'fail-fast', rule: 'id.initial-statuses' });
    expect(report.summary.requests).toBeLessThan(full.report.summary.requests / 2);
    const failed = report.rules.filter((r) => r.status === 'failed');
    expect(failed.map((r) => r.id)).toEqual(['id.initial-statuses']);
    // No shrinking after the stop, and rules it never reached are not "passed".
    expect(report.shrinking?.requests).toBe(0);
    expect(report.rules.find((r) => r.id === 'id.ref-id.concurrent-duplicate')?.status).not.toBe('passed');
  });

  it('--fail-fast passes over convention failures unless --strict', async () => {
    const config = { seed: 3, profile: 'custom' as const, runs: 5, fault: 'fa-unknown-id-400', failFast: true };
    const [plain, strict] = await Promise.all([runOnce(runConfig(config)), runOnce(runConfig({ ...config, strict: true }))]);
    expect(getRule('fa.unknown-id-404').basis).toBe('convention');
    expect(plain.report.stopped).toBeUndefined();
    expect(strict.report.stopped).toMatchObject({ kind: 'fail-fast', rule: 'fa.unknown-id-404' });
  });

  it('shrinks within its budgets, and the report states them, what was spent and which shrinks were cut short', async () => {
    const { report } = await runEmbedded({ runs: 10, seed: 3, fault: 'metadata-counts-bytes' });
    const shrinking = report.shrinking!;
    expect(shrinking).toMatchObject({ perFailure: 50, perRun: 400 });
    const failed = report.rules.filter((r) => r.status === 'failed').map((r) => r.id);
    expect(shrinking.requests).toBeGreaterThan(0);
    expect(shrinking.requests).toBeLessThanOrEqual(Math.min(shrinking.perRun, shrinking.perFailure * failed.length));
    expect(shrinking.cutShort.length).toBeGreaterThan(0);
    for (const rule of shrinking.cutShort) expect(failed).toContain(rule);
    // The faithful server: nothing to shrink.
    expect((await runEmbedded({ runs: 10, seed: 3 })).report.shrinking).toMatchObject({ requests: 0, cutShort: [] });
  });
});
