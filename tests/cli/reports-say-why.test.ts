/**
 * The reports say why, and count what the target received: a run that could not judge the target
 * (exit 3) puts its reason, in the target's words, first in summary.md, report.html and the
 * console; and every report's request count is the number of entries of exchanges.har (the
 * reachability check among them), on a normal run and on an exit-3 run.
 */
import { REACHABILITY_REQUESTS } from '../../src/engine/request-budget.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { conformance, NO_PATIENCE, readReport, reportDir, targetFlags } from './binary.ts';
import { REACHABILITY_COMMENT, type Har } from '../../src/report/files/har.ts';

const ACCOUNT = '3f2b6a1e-8c4d-4e5f-9a6b-1c2d3e4f5a6b';
const WORDS = 'this sandbox wants a token of the sandbox realm';

const read = (dir: string, file: string) => readFileSync(path.join(dir, file), 'utf8');
const harOf = (dir: string): Har => JSON.parse(read(dir, 'exchanges.har')) as Har;

/** The request count every human report shows: summary.md's line, report.html's banner, the console's verdict line. */
function shownCounts(dir: string): { markdown: number; html: number } {
  const markdown = Number(/· (\d+) requests/.exec(read(dir, 'summary.md'))?.[1]);
  const html = Number(/· (\d+) requests ·/.exec(read(dir, 'report.html'))?.[1]);
  return { markdown, html };
}

describe('a run that could not judge the target (exit 3)', () => {
  let server: http.Server;
  let baseUrl: string;
  beforeAll(async () => {
    // Answers 401 to everything, with a word on which token it wants.
    server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' });
        res.end(JSON.stringify({ code: 16, message: WORDS }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('says why first, with the target words, in summary.md, report.html, conformance.json and the console', async () => {
    const dir = reportDir();
    const { code, stdout, stderr } = await conformance(['run', ...targetFlags({ baseUrl, token: 'a-static-token' }, [ACCOUNT]), '--report-dir', dir]);
    expect(code, stderr).toBe(3);
    const report = readReport(dir);
    expect(report.summary.verdict).toBe('error');
    expect(report.summary.reason).toMatch(/^the target refused the credentials \(HTTP 401 .*\): check --token or the client credentials/);
    expect(report.summary.reason).toContain(`target said: "${WORDS}"`);

    // summary.md: the title, then the reason.
    const lines = read(dir, 'summary.md').split('\n').filter(Boolean);
    expect(lines[0]).toMatch(/^## Conformance: .*Error/);
    expect(lines[1]).toMatch(/^⚠️ \*\*Reason\*\*: the target refused the credentials/);
    expect(lines[1]).toContain(WORDS);

    // report.html: the reason right under the title, before the figures.
    const html = read(dir, 'report.html');
    const title = html.indexOf('<h1>');
    const reason = html.indexOf('id="reason"');
    expect(title).toBeGreaterThan(0);
    expect(reason).toBeGreaterThan(title);
    expect(html.slice(title, reason)).not.toContain('class="lead');
    expect(html.slice(reason, html.indexOf('</p>', reason))).toContain(WORDS);
    // The 56 skipped rules say it once, not once a rule.
    expect(html.match(new RegExp(WORDS, 'g'))?.length).toBeLessThanOrEqual(3);

    // The console: among the last lines, with the target's words; the token never.
    const last = `${stdout}\n${stderr}`.trim().split('\n').slice(-3).join('\n');
    expect(last).toContain(WORDS);
    expect(`${stdout}${stderr}`).not.toContain('a-static-token');
  });

  it('counts what the target received: every report says as many requests as exchanges.har holds', async () => {
    const dir = reportDir();
    const { code, stdout } = await conformance(['run', ...targetFlags({ baseUrl, token: 'a-static-token' }, [ACCOUNT]), '--report-dir', dir, '--json']);
    expect(code).toBe(3);
    const result = JSON.parse(stdout) as { summary: { requests: number }; reason?: string };
    const entries = harOf(dir).log.entries;
    // The reachability check (an answer, then a warm round trip), then the restore's read of the account before the run (answered 401: nothing journaled, nothing else sent).
    expect(entries.map((e) => e.comment ?? e._case?.label)).toEqual([
      ...Array(REACHABILITY_REQUESTS).fill(REACHABILITY_COMMENT),
      'restore: reads the account before the run (journal) (GET)',
    ]);
    expect(readReport(dir).summary.requests).toBe(entries.length);
    expect(result.summary.requests).toBe(entries.length);
    expect(result.reason).toContain(WORDS);
    expect(shownCounts(dir)).toEqual({ markdown: entries.length, html: entries.length });
  });

  it('an unreachable target: each attempt of the reachability check is an entry, and counted', async () => {
    // A port that was free a moment ago: nothing listens there.
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const dir = reportDir();
    const { code } = await conformance(['run', ...targetFlags({ baseUrl: `http://127.0.0.1:${port}`, token: 't' }, [ACCOUNT]), '--report-dir', dir]);
    expect(code).toBe(3);
    const report = readReport(dir);
    expect(report.summary.reason).toMatch(/^cannot reach http:\/\/127\.0\.0\.1:\d+.*ECONNREFUSED/);
    const entries = harOf(dir).log.entries;
    expect(entries.length).toBeGreaterThanOrEqual(1);
    expect(entries.every((e) => e.comment === REACHABILITY_COMMENT && e.response.status === 0)).toBe(true);
    expect(report.summary.requests).toBe(entries.length);
    expect(shownCounts(dir)).toEqual({ markdown: entries.length, html: entries.length });
  });
});

describe('a target that dies mid-run (exit 3, a partial report)', () => {
  it('the requests sent ahead of the stop are in exchanges.har too: as many entries as the report counts', async () => {
    const dir = reportDir();
    const { code } = await conformance(['run', '--profile', 'quick', '--seed', '1', '--report-dir', dir, '--fault', 'dies-mid-run', ...NO_PATIENCE]);
    expect(code).toBe(3);
    const report = readReport(dir);
    const entries = harOf(dir).log.entries;
    expect(report.stopped?.kind).toBe('unreachable');
    expect(report.summary.requests).toBe(entries.length);
    // After the stop, the restore tries to read the accounts again: those requests follow the count at the stop.
    const afterStop = entries.filter((e) => e._case?.restore !== undefined && e._case.restore !== 'start-read').length;
    expect(afterStop).toBeGreaterThan(0);
    expect(report.stopped?.requests).toBe(entries.length - afterStop);
    expect(shownCounts(dir)).toEqual({ markdown: entries.length, html: entries.length });
  });
});

describe('a normal run', () => {
  it('every report says as many requests as exchanges.har holds, the reachability check first and judged by no rule', async () => {
    const dir = reportDir();
    const { code, stdout } = await conformance(['run', '--profile', 'quick', '--seed', '4', '--report-dir', dir]);
    expect(code, stdout).toBe(0);
    const entries = harOf(dir).log.entries;
    const report = readReport(dir);
    expect(report.summary.requests).toBe(entries.length);
    expect(shownCounts(dir)).toEqual({ markdown: entries.length, html: entries.length });
    expect(stdout).toContain(`verdict: conformant (${entries.length} requests in`);
    for (const check of entries.slice(0, REACHABILITY_REQUESTS)) expect([check.comment, check._case]).toEqual([REACHABILITY_COMMENT, undefined]);
    expect(entries.slice(REACHABILITY_REQUESTS).every((e) => e._case !== undefined && e.comment === undefined)).toBe(true);
    // No rule judged it: no failure of any rule is a request to the base URL's root.
    const root = entries[0].request.url;
    expect(report.rules.flatMap((r) => r.failures).some((f) => f.request.url === root)).toBe(false);
  });
});
