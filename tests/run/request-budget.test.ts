/**
 * --max-requests end to end: a counting proxy in front of the embedded server sees no more than
 * the budget on any profile (shrinking and a target that makes the run send more than planned
 * included), rules left short say why, `conformance plan` sends nothing and counts per phase
 * what a run sends, and a budget that cannot hold the probe is a usage error.
 */
import { afterEach, describe, expect, it } from 'vitest';
import http from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { main } from '../../src/cli/main.ts';
import type { CliIO } from '../../src/cli/io.ts';
import { UsageError } from '../../src/core/errors.ts';
import type { PhaseName } from '../../src/engine/events.ts';
import { runEngine } from '../../src/engine/runner.ts';
import { orchestrateRun } from '../../src/run/orchestrate-run.ts';
import { prepareRun } from '../../src/run/prepare-run.ts';
import { planSummary } from '../../src/run/plan-summary.ts';
import { resolveRunConfig, resolveSettings, type RunConfig } from '../../src/run/run-config.ts';
import { settingsOfOptions } from '../../src/run/given-settings.ts';
import type { ConformanceOptions } from '../../src/api/run-conformance.ts';
import { registry } from '../../src/schema/registry.ts';
import type { FaultName } from '../../src/server/faults.ts';
import { createReferenceServer } from '../../src/server/server.ts';
import { startLatencyProxy } from '../../scripts/latency-proxy.ts';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** The library's options resolved with seed 1 when they give none. */
const resolveOptions = (options: ConformanceOptions) => resolveSettings(settingsOfOptions(options, options.env), () => 1);
const PROFILE_NAMES = ['quick', 'standard', 'deep'] as const;

/** A run of the embedded server (a fault, the strict variant) through a proxy that counts what reaches it. */
async function runThroughCounter(options: ConformanceOptions, server: { fault?: FaultName; strict?: boolean } = {}) {
  const target = await createReferenceServer({ ...(server.fault ? { fault: server.fault } : {}), strict: server.strict ?? false });
  closers.push(() => target.close());
  const proxy = await startLatencyProxy(target.baseUrl, 0);
  closers.push(() => proxy.close());
  const config = resolveOptions({ ...options, baseUrl: proxy.url, token: target.staticToken, fiatAccountIds: target.fiatAccountIds });
  const outcome = await orchestrateRun(config, { reports: false });
  return { ...outcome, counted: proxy.requests() };
}

const shortOfMinimum = (rule: { coverage?: { fixed: number; random: number; minimum: { fixed: number; random: number } } }) =>
  rule.coverage !== undefined && (rule.coverage.fixed < rule.coverage.minimum.fixed || rule.coverage.random < rule.coverage.minimum.random);

describe('--max-requests', () => {
  it.each(PROFILE_NAMES)(
    '200 is never exceeded on profile %s; the rules left short are ruled out by the budget, say why and the budget that judges them, and do not block',
    async (profile) => {
      const { report, counted, exitCode } = await runThroughCounter({ profile, seed: 1, maxRequests: 200 });
      expect(counted).toBeGreaterThan(100);
      expect(counted).toBeLessThanOrEqual(200);
      // Restoring the three accounts keeps 4 requests each out of the phases' reach.
      expect(report.budget).toMatchObject({ maxRequests: 200, reserved: 12, used: counted, refused: 0 });
      expect(report.restore!.requests).toBeGreaterThan(0);
      expect(report.budget!.trimmed[0]).toMatch(/^random cases: \d+ per rule instead of \d+$/);
      expect(report.summary.requests).toBe(counted);
      const inconclusive = report.rules.filter((r) => r.status === 'inconclusive');
      expect(inconclusive.length).toBeGreaterThan(0);
      for (const rule of inconclusive) expect(rule.reason, rule.id).toMatch(/the request budget \(--max-requests 200\) (left|was spent)/);
      // Ruled out by the configuration, with the smallest budget whose plan meets every minimum: not run, not blocking.
      for (const rule of inconclusive)
        expect(rule.ruledOutBy, rule.id).toEqual({ setting: '--max-requests', fix: expect.stringMatching(/^--max-requests \d+$/) });
      expect(Number(inconclusive[0].ruledOutBy!.fix.split(' ')[1])).toBeGreaterThan(200);
      expect(inconclusive.some((r) => r.blocking)).toBe(false);
      for (const rule of report.rules.filter((r) => r.status === 'passed')) expect(shortOfMinimum(rule), rule.id).toBe(false);
      expect(report.summary.verdict).toBe('conformant');
      expect(exitCode).toBe(0);
      expect(registry().validate('conformance-report', report)).toEqual([]);
    },
  );

  it('holds with a fault injected: shrinking spends only what the budget left', async () => {
    // 370 since issue 32's scenarios: at 330 the plan keeps no random case, so nothing is shrunk.
    const { report, counted } = await runThroughCounter({ profile: 'quick', seed: 1, maxRequests: 370 }, { fault: 'metadata-over-pairs-accepted' });
    expect(report.summary.verdict).toBe('non-conformant');
    expect(report.shrinking!.requests).toBeGreaterThan(0);
    expect(counted).toBeLessThanOrEqual(370);
    expect(report.budget!.used).toBe(counted);
  });

  it('refuses at the transport what a target makes the run send beyond the plan: not sent, the run stops with the rules verdict', async () => {
    // The plan counts for a faithful target; the strict variant refuses open cases, each then asks its twin.
    // A budget whose plan keeps some random cases: the strict server's refused open cases then ask more twins than fit.
    // (360 since issue 32's scenarios all run: at 340 the plan keeps no random case.)
    const max = 360;
    const { report, counted, exitCode } = await runThroughCounter({ profile: 'quick', seed: 1, maxRequests: max }, { strict: true });
    // 12 are kept for restoring the three accounts: their 3 start reads take from it, the phases stop at
    // max - 9, and the restore spends the rest after.
    expect(counted).toBeLessThanOrEqual(max);
    // Every request in flight when the budget ran out is refused, none sent.
    expect(report.budget).toMatchObject({ used: counted, refused: expect.any(Number) });
    expect(report.budget!.refused).toBeGreaterThanOrEqual(1);
    expect(report.stopped).toMatchObject({ kind: 'budget', requests: max - 9 });
    expect(report.stopped!.message).toMatch(
      new RegExp(`^the request budget \\(--max-requests ${max}\\) was spent after ${max - 9} requests: \\w+ /\\S+ was not sent$`),
    );
    expect(report.restore!.requests).toBe(counted - (max - 12));
    expect(report.summary.verdict).toBe('inconclusive');
    expect(exitCode).toBe(4);
    for (const rule of report.rules.filter((r) => r.status === 'passed')) expect(shortOfMinimum(rule), rule.id).toBe(false);
    expect(registry().validate('conformance-report', report)).toEqual([]);
  });

  it('conformance run says at its start what the budget left out, and conformance.json records it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'conformance-budget-'));
    closers.push(async () => rmSync(dir, { recursive: true, force: true }));
    const { io, out } = testIO();
    // The rules it leaves short are ruled out by the configuration: the faithful server is conformant (exit 0); --strict asks for every rule.
    expect(await main(['run', '--profile', 'quick', '--seed', '1', '--max-requests', '250', '--report-dir', dir], io)).toBe(0);
    expect(out.join('\n')).toMatch(
      /^not judged by this configuration \(not run, does not block the verdict without --strict\): \d+ rules .*\(--max-requests\): --max-requests \d+$/m,
    );
    expect(await main(['run', '--profile', 'quick', '--seed', '1', '--max-requests', '250', '--strict', '--report-dir', dir], testIO().io)).toBe(4);
    expect(out.join('\n')).toMatch(
      /^the request budget \(--max-requests 250\) left out: random cases: 0 per rule instead of 10; the scenario of id\.ref-id\.concurrent-duplicate \(30 requests\)(; the scenario of [^;()]+ \(\d+ requests\))* \(the whole plan needs --max-requests \d+\)$/m,
    );
    const report = JSON.parse(readFileSync(path.join(dir, 'conformance.json'), 'utf8'));
    expect(report.budget).toMatchObject({ maxRequests: 250, used: report.summary.requests, refused: 0 });
    expect(report.summary.requests).toBeLessThanOrEqual(250);
  });

  it('too small for the probe is a usage error before anything is sent, naming the smallest budget', async () => {
    expect(() => resolveRunConfig(['--max-requests', '5'], {}, () => 1)).toThrow(
      new UsageError(
        '--max-requests 5 is too small: a run needs at least 19 requests (2 to check the target answers and time a round trip, 5 to read the 3 fiat accounts and tell replace from merge, 12 kept for restoring the accounts at the end); give --max-requests 19 or more',
      ),
    );
    // Each caller hears the setting under the name it gave it: an environment variable, an option.
    expect(() => resolveOptions({ env: { CONFORMANCE_MAX_REQUESTS: '5' } })).toThrow(/give CONFORMANCE_MAX_REQUESTS 19 or more/);
    expect(() => resolveOptions({ maxRequests: 5 })).toThrow(/^maxRequests 5 is too small: .*; give maxRequests 19 or more$/);
    expect(resolveOptions({ maxRequests: 7, noRestore: true }).maxRequests).toBe(7);
    const oneAccount = { baseUrl: 'http://127.0.0.1:9', token: 't', fiatAccountIds: ['0f8fad5b-d9cb-469f-a165-70867728950e'] };
    expect(() => resolveOptions({ ...oneAccount, maxRequests: 8 })).toThrow(/give maxRequests 9 or more/);
    expect(resolveOptions({ ...oneAccount, maxRequests: 9 }).maxRequests).toBe(9);
    expect(() => resolveOptions({ maxRequests: 0 })).toThrow(/^maxRequests must be a whole number >= 1, got 0$/);
    expect(() => resolveRunConfig(['--max-requests', '0'], {}, () => 1)).toThrow(/^--max-requests must be a whole number >= 1/);
    const counter = await countingServer();
    for (const command of ['run', 'plan']) {
      const { io, err } = testIO();
      expect(await main([command, '--max-requests', '3', ...counter.flags], io)).toBe(2);
      expect(err.join('\n')).toMatch(/too small: a run needs at least 9 requests.*give --max-requests 9 or more/);
    }
    expect(counter.seen()).toEqual({ requests: 0, connections: 0 });
  });
});

describe('conformance plan', () => {
  it('sends nothing: no reachability check, no probe, no token request', async () => {
    const counter = await countingServer();
    const { io, out } = testIO();
    expect(await main(['plan', '--profile', 'quick', '--seed', '1', ...counter.flags], io)).toBe(0);
    const text = out.join('\n');
    expect(text).toMatch(/^plan: http:\/\/127\.0\.0\.1:\d+, seed 1, profile quick/);
    expect(text).toMatch(/fiat accounts it would change: 0f8fad5b-d9cb-469f-a165-70867728950e/);
    expect(text).toMatch(/identities it would create: \d+/);
    // One account: read before the run, then read, written back and read again after it.
    expect(text).toMatch(/^ {2}restore +<= 4 {2}at most: each account read before the run/m);
    // A scenario that waits for the target's clock (updated_at) adds its longest wait to the time.
    expect(text).toMatch(/^time: about .+ at 10 requests a second(, plus at most .+ waiting for the target's clock \(\S+\))?$|^time: no rate limit/m);
    expect(text).not.toContain('s3cret');

    const json = testIO();
    expect(await main(['plan', '--profile', 'quick', '--seed', '1', '--max-requests', '250', '--json', ...counter.flags], json.io)).toBe(0);
    const summary = JSON.parse(json.out.join('\n'));
    expect(summary.phases.total).toBeLessThanOrEqual(250);
    expect(summary.budget).toMatchObject({ maxRequests: 250, reserved: 4 });
    expect(summary.phases.restoreAtMost).toBe(4);
    const off = testIO();
    expect(await main(['plan', '--profile', 'quick', '--seed', '1', '--no-restore', '--json', ...counter.flags], off.io)).toBe(0);
    expect(JSON.parse(off.out.join('\n')).phases.restoreAtMost).toBe(0);
    expect(counter.seen()).toEqual({ requests: 0, connections: 0 });
  });

  it.each([
    [{ profile: 'quick', seed: 1 }],
    [{ profile: 'quick', seed: 5, rules: ['id.'] }],
    [{ profile: 'quick', seed: 2, maxRequests: 300 }],
    [{ profile: 'standard', seed: 3, rules: ['fa.sequence', 'fa.auth'], maxRequests: 40 }],
    [{ profile: 'quick', seed: 4, maxRequests: 120 }],
    // --lifetime adds its repeats at the end (1 ms: no wait worth the name).
    [{ profile: 'quick', seed: 6, rules: ['id.ref-id'], lifetime: '1ms' }],
  ] as ConformanceOptions[][])('counts per phase what run sends to the faithful embedded server (%o)', async (options) => {
    const config = resolveOptions(options);
    const planned = await planSummary(config);
    const { identities, ...sent } = await sentByPhase(config);
    expect(identities).toBe(planned.identities);
    expect(sent).toEqual({
      probe: planned.phases.probe,
      'fixed-cases': planned.phases.fixedCases,
      scenarios: planned.phases.scenarios,
      'random-cases': planned.phases.randomCases,
      shrinking: 0,
      total: planned.phases.total,
      // What the scenarios send later (the plan counts both moments together): after the random
      // cases (repeats, the clock's last steps) and at the end (repeats, the --lifetime ones).
      'scenarios-after-random-cases': sent['scenarios-after-random-cases'],
      'scenarios-at-end': sent['scenarios-at-end'],
    });
    expect(sent['scenarios-after-random-cases'] + sent['scenarios-at-end']).toBe(planned.phases.laterRepeats);
  });
});

/** Requests a run sends in each phase (the reachability check counts in the probe's), and the identities its creates got. */
async function sentByPhase(config: RunConfig): Promise<Record<PhaseName | 'total' | 'identities', number>> {
  const run = await prepareRun(config);
  closers.push(() => run.close());
  await run.connect();
  const sent = {
    probe: 0,
    'fixed-cases': 0,
    scenarios: 0,
    'random-cases': 0,
    'scenarios-after-random-cases': 0,
    shrinking: 0,
    'scenarios-at-end': 0,
    total: 0,
  };
  // The reachability check counts in the probe's phase; the restore of the accounts is planned apart.
  const beforeEngine = run.transport.requestCount;
  let start = 0;
  let restore = 0;
  const identityIds = new Set<string>();
  await runEngine(run.transport, run.settings, [
    (event) => {
      const { response, testCase } = event.type === 'exchange' ? event.exchange : {};
      const body = response?.body as { id?: unknown } | undefined;
      if (testCase?.operation === 'createIdentity' && response && response.status < 300 && typeof body?.id === 'string') identityIds.add(body.id);
      if (event.type === 'phase-start') start = run.transport.requestCount - (event.phase === 'probe' ? beforeEngine : 0);
      if (event.type === 'run-end') restore = event.restore?.requests ?? 0;
      if (event.type === 'phase-end') sent[event.phase] = run.transport.requestCount - start;
    },
  ]);
  sent.total = run.transport.requestCount - restore;
  return { ...sent, identities: identityIds.size };
}

/** A server that counts every connection and request, as a target and a token endpoint of a plan. */
async function countingServer() {
  let requests = 0;
  let connections = 0;
  const server = http.createServer((_, res) => {
    requests++;
    res.writeHead(500).end();
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const flags = [
    ...['--base-url', url, '--auth-url', `${url}/oauth/token`, '--client-id', 'harness', '--client-secret', 's3cret'],
    ...['--fiat-account-id', '0f8fad5b-d9cb-469f-a165-70867728950e', '--rate-limit', '10'],
  ];
  return { flags, seen: () => ({ requests, connections }) };
}

function testIO() {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = { out: (l) => out.push(l), err: (l) => err.push(l), env: {}, isTTY: false, readStdin: async () => '' };
  return { io, out, err };
}
