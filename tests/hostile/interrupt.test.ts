/**
 * Interruption (issue 9): each signal the README lists (SIGINT, SIGTERM, SIGHUP) mid-run stops the
 * run, every file of the report folder is written marked interrupted, and the exit code is 128 +
 * the signal's number; a second signal quits at once.
 */
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPORT_FOLDER, readReport, reportDir, targetFlags } from '../cli/binary.ts';
import { startHostileTarget } from './hostile-target.ts';
import { start } from './child.ts';

const started: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((t) => t.close()));
});

/**
 * Every file of a report folder written (created-identities.json and the restore journal among
 * them), and each JSON one complete even though the run was cut short. A run stopped before its
 * first request has read no account: it has no journal to write.
 */
function expectAllReports(dir: string, { journal = true } = {}): void {
  const expected = REPORT_FOLDER.filter((f) => journal || f !== 'restore-journal.json');
  expect(readdirSync(dir).sort()).toEqual([...expected].sort());
  for (const file of expected.filter((f) => /\.(json|har)$/.test(f))) expect(() => JSON.parse(readFileSync(path.join(dir, file), 'utf8')), file).not.toThrow();
}

describe('interruption', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)('%s mid-run: every report written, verdict interrupted, exit %i', async (signal, exitCode) => {
    const dir = reportDir();
    const child = start(['run', '--runs', '3000', '--seed', '3', '--report-dir', dir]);
    // The first rule's line: the run is under way.
    await child.waitFor(/running \d+ rules/);
    child.kill(signal);
    const { code, stderr } = await child.exited;
    expect(stderr).toContain(`${signal}: stopping`);
    expect(stderr).not.toMatch(/^\s+at /m);
    expect(code).toBe(exitCode);
    expectAllReports(dir);
    const report = readReport(dir);
    expect(report.summary.verdict).toBe('interrupted');
    expect(report.stopped).toMatchObject({ kind: 'interrupted', signal });
    expect(report.stopped!.requests).toBeGreaterThan(0);
    expect(readFileSync(path.join(dir, 'summary.md'), 'utf8')).toContain('Interrupted');
  });

  it('a request the target never answers is given up after the grace, and the reports are written', async () => {
    const target = await startHostileTarget({ misbehaviour: 'hang', when: (n) => n > 30 });
    started.push(target);
    const dir = reportDir();
    // The request timeout is far longer than the test: only the grace can end the hung request.
    const child = start(['run', ...targetFlags(target, target.accountIds), '--timeout', '600000', '--report-dir', dir]);
    while (target.misbehaved === 0) await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGINT');
    const { code } = await child.exited;
    expect(code).toBe(130);
    expectAllReports(dir);
    expect(readReport(dir).stopped?.kind).toBe('interrupted');
  });

  it('a second signal quits at once', async () => {
    const target = await startHostileTarget({ misbehaviour: 'hang', when: (n) => n > 30 });
    started.push(target);
    const child = start(['run', ...targetFlags(target, target.accountIds), '--timeout', '600000', '--report-dir', reportDir()]);
    while (target.misbehaved === 0) await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGINT');
    await child.waitFor('SIGINT: stopping');
    child.kill('SIGINT');
    const { code } = await child.exited;
    expect(code).toBe(130);
  });

  it('interrupted while fetching the first token: a report with every rule skipped, exit 130', async () => {
    // A token endpoint that never answers.
    const tokenServer = http.createServer(() => {});
    const sockets = new Set<import('node:net').Socket>();
    tokenServer.on('connection', (s) => sockets.add(s));
    await new Promise<void>((resolve) => tokenServer.listen(0, '127.0.0.1', resolve));
    started.push({
      close: () =>
        new Promise<void>((resolve) => {
          for (const s of sockets) s.destroy();
          tokenServer.close(() => resolve());
        }),
    });
    const target = await startHostileTarget({ misbehaviour: 'hang', when: () => false });
    started.push(target);
    const dir = reportDir();
    const child = start([
      'run',
      '--base-url',
      target.baseUrl,
      '--auth-url',
      `http://127.0.0.1:${(tokenServer.address() as AddressInfo).port}/token`,
      '--client-id',
      'c',
      '--client-secret',
      's3cr3t-value',
      '--fiat-account-id',
      target.accountIds[0],
      '--timeout',
      '600000',
      '--report-dir',
      dir,
    ]);
    while (sockets.size === 0) await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGINT');
    const { code, stdout, stderr } = await child.exited;
    expect(code).toBe(130);
    expect(stdout + stderr).not.toContain('s3cr3t-value');
    expectAllReports(dir, { journal: false });
    const report = readReport(dir);
    expect(report.summary.verdict).toBe('interrupted');
    expect(report.rules.every((r) => r.status === 'skipped')).toBe(true);
  });
});
