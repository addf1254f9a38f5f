/** GitHub Actions workflow commands: escaped, bounded to what GitHub shows, errors apart from warnings. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createReferenceServer, type ReferenceServer } from '../../../src/server/server.ts';
import { ANNOTATIONS_SHOWN, githubAnnotations } from '../../../src/report/terminal/github-annotations.ts';
import { sampleReport, stoppedReport } from '../sample-report.ts';
import { conformance, reportDir } from '../../cli/binary.ts';

describe('githubAnnotations', () => {
  it('gives an error per blocking failure and a warning per convention failure outside --strict', () => {
    const report = sampleReport();
    const lines = githubAnnotations(report, 'reports/summary.md');
    const blocking = report.rules.filter((r) => r.blocking && ['failed', 'error', 'inconclusive'].includes(r.status));
    expect(lines.filter((l) => l.startsWith('::error file=reports/summary.md,title='))).toHaveLength(blocking.length);
    expect(lines.find((l) => l.startsWith('::warning '))).toMatch(
      /^::warning file=reports\/summary\.md,title=id\.answers failed \(§1%2C convention%2C fatal only with --strict\)::/,
    );
    // Under --strict the convention rule blocks too.
    expect(githubAnnotations(sampleReport({ strict: true }), 'x').filter((l) => l.startsWith('::warning'))).toEqual([]);
  });

  it('escapes what would end a command: %, CR and LF in the message, also : and , in properties', () => {
    const report = sampleReport();
    const rule = report.rules.find((r) => r.status === 'failed' && r.blocking)!;
    rule.failures[0]!.message = '100% broken\r\nsecond line';
    const line = githubAnnotations(report, 'dir,with:odd/summary.md').find((l) => l.includes(rule.id))!;
    expect(line).toContain('file=dir%2Cwith%3Aodd/summary.md,');
    expect(line).toContain('100%25 broken second line');
    expect(line).not.toMatch(/[\r\n]/);
    expect(line).toContain('%0Acase: ');
  });

  it('stays within what GitHub shows: past 10, one line says how many more', () => {
    const report = sampleReport();
    const failed = report.rules.find((r) => r.status === 'failed' && r.blocking)!;
    report.rules = Array.from({ length: 15 }, (_, i) => ({ ...failed, id: `${failed.id}-${i}` }));
    const errors = githubAnnotations(report, 's.md').filter((l) => l.startsWith('::error'));
    expect(errors).toHaveLength(ANNOTATIONS_SHOWN);
    expect(errors.at(-1)).toContain('::6 more in s.md');
  });

  it('says where a stopped run stopped', () => {
    expect(githubAnnotations(stoppedReport(), 's.md')[0]).toMatch(/^::error file=s\.md,title=conformance run stopped early::stopped after/);
  });
});

describe('conformance run under GitHub Actions', () => {
  it('prints the annotations on stderr and appends summary.md to the step summary; none outside Actions', async () => {
    const dir = reportDir();
    const summary = path.join(dir, 'step-summary.md');
    const args = ['run', '--profile', 'quick', '--rule', 'fa.metadata', '--fault', 'metadata-exact-pairs-rejected', '--report-dir', dir];
    const run = await conformance(args, { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary, GITHUB_WORKSPACE: dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^::error file=summary\.md,title=fa\.metadata\.max-pairs-accepted failed \(§8%2C documented\)::/m);
    expect(run.stdout).not.toContain('::error');
    expect(readFileSync(summary, 'utf8')).toBe(readFileSync(path.join(dir, 'summary.md'), 'utf8'));
    const outside = await conformance(args, {});
    expect(outside.stderr + outside.stdout).not.toContain('::error');
  });
});

/**
 * A target that refuses every valid request with the caller's bearer token in its words: the rules
 * that need an acceptance cannot be judged (inconclusive, blocking), and their annotations quote
 * what the target said.
 */
function tokenEchoingProxy(upstream: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const forward = http.request(`${upstream}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        const status = answer.statusCode ?? 502;
        if (req.url?.startsWith('/oauth') || status >= 300) return res.writeHead(status, answer.headers).end(Buffer.concat(chunks));
        const body = JSON.stringify({ message: `refused for ${req.headers.authorization ?? 'nobody'}` });
        res.writeHead(422, { 'content-type': 'application/json' }).end(body);
      });
    });
    req.pipe(forward);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((r) => server.close(() => r())) }),
    ),
  );
}

describe('annotations hold no secret', () => {
  let server: ReferenceServer;
  let proxy: { url: string; close: () => Promise<void> };
  beforeAll(async () => {
    server = await createReferenceServer({});
    proxy = await tokenEchoingProxy(server.baseUrl);
  });
  afterAll(async () => {
    await proxy.close();
    await server.close();
  });

  it('a target that echoes the bearer token: the annotations quote it redacted', async () => {
    const dir = reportDir();
    const accounts = server.fiatAccountIds.flatMap((id) => ['--fiat-account-id', id]);
    const args = ['run', '--base-url', proxy.url, ...accounts, '--profile', 'quick', '--seed', '4', '--rule', 'fa.metadata', '--report-dir', dir];
    const run = await conformance(args, { GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: dir, CONFORMANCE_TOKEN: server.staticToken });
    // Every read of an account is refused: nothing can be journaled, so nothing is written (exit 3).
    expect(run.code, run.stderr).toBe(3);
    const annotations = run.stderr.split('\n').filter((l) => l.startsWith('::error '));
    expect(annotations.length).toBeGreaterThan(0);
    // The target's words reached an annotation (so the check below can fail), with the token replaced.
    expect(annotations.some((l) => l.includes('refused for') && l.includes('[REDACTED]'))).toBe(true);
    expect(run.stderr + run.stdout).not.toContain(server.staticToken);
  });
});
