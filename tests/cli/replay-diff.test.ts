/**
 * `conformance replay` and `conformance diff` through the real binary, against implementations
 * this project's server code did not write: a release with a defect, then the fixed release.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { writeFileSync } from 'node:fs';
import { replayClosingLine, replayExitCode } from '../../src/cli/replay.ts';
import { startForeignServer, type ForeignServer } from '../foreign/foreign-server.ts';
import { conformance, conformantExit, readReport, reportDir } from './binary.ts';

/** The flags that point a replay at a server: replay sends only to a base URL and accounts it is given. */
const targetOf = (server: ForeignServer) => [
  '--base-url',
  server.baseUrl,
  '--token',
  server.token,
  ...server.accountIds.flatMap((id) => ['--fiat-account-id', id]),
];

/** Writes an edited report beside the original and replays it against the given server. */
const replayEdited = (report: ReturnType<typeof readReport>, file: string, server: ForeignServer) => {
  writeFileSync(file, JSON.stringify(report));
  return conformance(['replay', file, ...targetOf(server)]);
};

const runAgainst = async (server: ForeignServer) => {
  const dir = reportDir();
  // Only the rules of the defect under test: replay and diff are about it, not about the rest of the catalogue.
  const args = ['run', '--base-url', server.baseUrl, '--profile', 'quick', '--seed', '5', '--rule', 'fa.status', '--report-dir', dir];
  for (const id of server.accountIds) args.push('--fiat-account-id', id);
  const result = await conformance(args, { CONFORMANCE_TOKEN: server.token });
  return { ...result, dir, file: path.join(dir, 'conformance.json') };
};

describe('replay and diff between two releases', () => {
  let faulty: ForeignServer;
  let fixed: ForeignServer;
  let before: Awaited<ReturnType<typeof runAgainst>>;
  let after: Awaited<ReturnType<typeof runAgainst>>;

  beforeAll(async () => {
    [faulty, fixed] = await Promise.all([startForeignServer('lowercase-status'), startForeignServer('none')]);
    [before, after] = await Promise.all([runAgainst(faulty), runAgainst(fixed)]);
  });
  afterAll(async () => Promise.all([faulty, fixed].map((s) => s?.close())));

  it('the runs differ where the releases do', () => {
    expect(before.code).toBe(1);
    // The fixed release merges metadata: 0, or 5 for the keys the run added, and only for them.
    const expected = conformantExit(readReport(after.dir));
    expect(expected.leftOtherwise).toEqual([]);
    expect(after.code).toBe(expected.code);
    expect(readReport(before.dir).rules.find((r) => r.id === 'fa.status.enum')?.status).toBe('failed');
  });

  it('replay without --base-url: the report names a target that is not the embedded server, so it asks for one and sends nothing (exit 2)', async () => {
    const { code, stdout, stderr } = await conformance(['replay', before.file], { CONFORMANCE_TOKEN: faulty.token });
    expect(code, stdout + stderr).toBe(2);
    expect(stderr.trim().split('\n')).toEqual([
      `conformance replay: the report's target is ${faulty.baseUrl}; replay sends credentials only to a base URL you give it: add --base-url ${faulty.baseUrl} (or CONFORMANCE_BASE_URL) with its --fiat-account-id`,
    ]);
  });

  it('replay against the same target: still fails, exit 1', async () => {
    const { code, stdout } = await conformance(['replay', before.file, ...targetOf(faulty)]);
    expect(code, stdout).toBe(1);
    expect(stdout).toMatch(/✗ fa\.status\.enum\s+still fails/);
    expect(stdout.trim().split('\n').at(-1)).toBe('0 passed, 1 failed');
  });

  it('replay against the fixed release, with its own accounts: passes now, exit 0', async () => {
    const { code, stdout } = await conformance(['replay', before.file, ...targetOf(fixed)]);
    expect(code, stdout).toBe(0);
    expect(stdout).toMatch(/✓ fa\.status\.enum\s+passes now/);
  });

  it('replay against the fixed release without its accounts: not judged, which is no pass: inconclusive, exit 4', async () => {
    const { code, stdout } = await conformance(['replay', before.file, '--base-url', fixed.baseUrl, '--token', fixed.token]);
    expect(code, stdout).toBe(4);
    expect(stdout).toMatch(
      /\? fa\.status\.enum\s+not judged: no fiat account of the target named \(replay writes only accounts you name\); .*--fiat-account-id/,
    );
    expect(stdout.trim().split('\n').at(-1)).toBe('0 passed, 0 failed, 1 inconclusive');
  });

  it('replay of a 1.3.0 report whose run stopped early: says so, and replays the failures it recorded', async () => {
    const report = readReport(before.dir);
    report.stopped = { kind: 'unreachable', message: 'connect ECONNREFUSED 127.0.0.1:1', requests: 40, rule: 'id.answers' };
    report.summary.verdict = 'error';
    const { code, stdout } = await replayEdited(report, path.join(before.dir, 'stopped.json'), faulty);
    expect(code, stdout).toBe(1);
    expect(stdout).toContain("note: the report's run stopped after 40 requests (connect ECONNREFUSED 127.0.0.1:1); only the failures it recorded are replayed");
    expect(stdout).toMatch(/✗ fa\.status\.enum\s+still fails/);
  });

  it('replay of a report with no failing rule but a blocking inconclusive one: nothing to send, exit 4', async () => {
    const report = readReport(after.dir);
    for (const r of report.rules) Object.assign(r, { status: 'passed', blocking: false, failures: [] });
    const rule = report.rules.find((r) => r.id === 'fa.status.present')!;
    Object.assign(rule, { status: 'inconclusive', blocking: true, reason: 'judged by 1 fixed and 0 random cases (minimum 2 and 25)' });
    report.summary.verdict = 'inconclusive';
    const file = path.join(after.dir, 'inconclusive.json');
    const { code, stdout } = await replayEdited(report, file, fixed);
    expect(code, stdout).toBe(4);
    expect(stdout).toContain('note: 1 rule(s) of the report were inconclusive; replay cannot judge them (no failing case recorded)');
    expect(stdout).toContain('the report has no failing rule: nothing to replay; 1 inconclusive rule(s) need a full `conformance run`');
    // Without it, nothing to replay is exit 0, as before.
    Object.assign(rule, { status: 'passed', blocking: false });
    delete rule.reason;
    report.summary.verdict = 'conformant';
    const clean = await replayEdited(report, file, fixed);
    expect(clean.code, clean.stdout).toBe(0);
    expect(clean.stdout.trim()).toBe('the report has no failing rule: nothing to replay');
  });

  it('diff old new: the fix is newly passing, nothing regressed, exit 0', async () => {
    const { code, stdout } = await conformance(['diff', before.file, after.file]);
    expect(code, stdout).toBe(0);
    expect(stdout).toMatch(/newly passing[\s\S]*fa\.status\.enum/i);
  });

  it('diff new old: the defect is a regression, exit 1', async () => {
    const { code, stdout } = await conformance(['diff', after.file, before.file]);
    expect(code, stdout).toBe(1);
    expect(stdout).toMatch(/newly failing[\s\S]*fa\.status\.enum/i);
  });

  it('replay exits 3 with one line when the target is gone', async () => {
    const { code, stderr } = await conformance(['replay', before.file, '--base-url', 'http://127.0.0.1:9', '--token', 'x']);
    expect(code).toBe(3);
    expect(stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('replay outcome', () => {
  it('exit 1 when any case still fails, 4 when none fails but one judged nothing, 0 when all pass', () => {
    expect(replayExitCode(1, 3)).toBe(1);
    expect(replayExitCode(0, 1)).toBe(4);
    expect(replayExitCode(0, 0)).toBe(0);
    expect(replayClosingLine(2, 1, 0)).toBe('2 passed, 1 failed');
    expect(replayClosingLine(0, 0, 2)).toBe('0 passed, 0 failed, 2 inconclusive');
  });
});
