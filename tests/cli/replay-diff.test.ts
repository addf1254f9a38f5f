/**
 * `conformance replay` and `conformance diff` through the real binary, against implementations
 * this project's server code did not write: a release with a defect, then the fixed release.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { startForeignServer, type ForeignServer } from '../foreign/foreign-server.ts';
import { conformance, readReport, reportDir } from './binary.ts';

const runAgainst = async (server: ForeignServer) => {
  const dir = reportDir();
  const args = ['run', '--base-url', server.baseUrl, '--profile', 'quick', '--seed', '5', '--report-dir', dir];
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
    expect(after.code).toBe(0);
    expect(readReport(before.dir).rules.find((r) => r.id === 'fa.status.enum')?.status).toBe('failed');
  });

  it('replay against the same target: still fails, exit 1', async () => {
    const { code, stdout } = await conformance(['replay', before.file, '--token', faulty.token]);
    expect(code, stdout).toBe(1);
    expect(stdout).toMatch(/✗ fa\.status\.enum\s+still fails/);
    expect(stdout.trim().split('\n').at(-1)).toBe('0 passed, 1 failed');
  });

  it('replay against the fixed release, with its own accounts: passes now, exit 0', async () => {
    const args = ['replay', before.file, '--base-url', fixed.baseUrl, '--token', fixed.token];
    for (const id of fixed.accountIds) args.push('--fiat-account-id', id);
    const { code, stdout } = await conformance(args);
    expect(code, stdout).toBe(0);
    expect(stdout).toMatch(/✓ fa\.status\.enum\s+passes now/);
  });

  it("replay against the fixed release without its accounts: not judged, which is no pass", async () => {
    const { code, stdout } = await conformance(['replay', before.file, '--base-url', fixed.baseUrl, '--token', fixed.token]);
    expect(code, stdout).toBe(1);
    expect(stdout).toMatch(/\? fa\.status\.enum\s+not judged: the target answered HTTP 404; .*--fiat-account-id/);
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
