/**
 * A misconfiguration is not a non-conformant API (issue 31, point 3): a base URL that serves no
 * API (a static file server: HTML pages, 501 to PUT and POST) and a fiat account id the target
 * does not know (a JSON 404 to the update only) each stop the run within a few requests, exit 2,
 * with what to check; the reports say the run could not judge (JUnit: an <error>), how long it
 * took, and --quiet still prints the verdict line.
 */
import http from 'node:http';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformance, readReport, reportDir } from '../cli/binary.ts';
import { listenOnLoopback, type Listening } from './loopback-listen.ts';

const ACCOUNT = '0f8fad5b-d9cb-469f-a165-70867728950e';
/** The ceiling: a misconfigured run stops within this many requests, all counted. */
const FEW = 20;

/** As `python3 -m http.server` answers: an HTML 404 to a GET of a missing file, an HTML 501 to PUT and POST. */
function staticFileServer(): http.Server {
  return http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const get = req.method === 'GET' || req.method === 'HEAD';
      const status = get ? (req.url === '/' ? 200 : 404) : 501;
      res.writeHead(status, { 'content-type': 'text/html;charset=utf-8' });
      res.end(`<!DOCTYPE HTML><html><body><h1>Error response</h1><p>Error code: ${status}</p></body></html>`);
    });
  });
}

/** An API that knows no fiat account: a JSON 404 to every account path, a JSON 400 to an empty create. */
function apiWithoutTheAccount(): http.Server {
  return http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.url?.startsWith('/v2/transfer/fiat-accounts/')) return json(404, { error: 'fiat account not found' });
      if (req.url === '/v2/identity/identities' && req.method === 'POST') return json(400, { error: 'tax_details is required' });
      return json(404, { error: 'no route' });
    });
  });
}

const harEntries = (dir: string): number =>
  (JSON.parse(readFileSync(path.join(dir, 'exchanges.har'), 'utf8')) as { log: { entries: unknown[] } }).log.entries.length;

async function runAgainst(url: string, extra: string[] = []) {
  const dir = reportDir();
  const result = await conformance(['run', '--base-url', url, '--token', 't', '--fiat-account-id', ACCOUNT, '--report-dir', dir, '--seed', '1', ...extra]);
  return { ...result, dir, report: readReport(dir) };
}

describe('a base URL that serves no API: a static file server', () => {
  let server: Listening;
  beforeAll(async () => {
    server = await listenOnLoopback(staticFileServer());
  });
  afterAll(() => server.close());

  it.each([
    ['reading the accounts with GET (restore on)', [] as string[]],
    ['reading them with an empty update (--no-restore)', ['--no-restore']],
  ])('stops within 20 requests, exit 2, and says what to check (%s)', async (_how, extra) => {
    const { code, stdout, stderr, report, dir } = await runAgainst(server.url, extra);
    expect(code).toBe(2);
    expect(report.summary.requests).toBeLessThanOrEqual(FEW);
    expect(harEntries(dir)).toBe(report.summary.requests);
    expect(stderr).toMatch(/the base URL does not serve the API: .* answered HTTP (404|501), an HTML page/);
    expect(stderr).toContain(`POST ${server.url}/v2/identity/identities answered HTTP 501`);
    expect(stderr).toMatch(/check --base-url/);
    // Nothing judged, nothing called non-conformant.
    expect(report.summary.verdict).toBe('error');
    expect(report.rules.every((r) => r.status === 'skipped')).toBe(true);
    expect(stdout).toMatch(/^verdict: error \(\d+ requests in \d+\.\d s\)$/m);
  });

  it('a base URL with /v2 inside its path is told that /v2 belongs to the paths', async () => {
    const { code, stderr } = await runAgainst(`${server.url}/v2/transfer`);
    expect(code).toBe(2);
    expect(stderr).toMatch(/\/v2 is part of the document's paths: give the host only \(http:\/\/127\.0\.0\.1:\d+\)/);
  });

  it('junit.xml has an <error> for the run, the reports a real duration, and --quiet the verdict line', async () => {
    const { stdout, report, dir } = await runAgainst(server.url, ['--quiet']);
    const junit = readFileSync(path.join(dir, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<testsuites [^>]*errors="1"/);
    expect(junit).toMatch(/<testcase classname="run" [^>]*>\s*<error message="the base URL does not serve the API/);
    expect(report.durationMs).toBeGreaterThan(0);
    expect(junit).not.toMatch(/<testsuites [^>]*time="0\.000"/);
    expect(stdout.trim().split('\n').at(-1)).toMatch(/^verdict: error \(\d+ requests in/);
  });
});

describe('a fiat account id the target does not know: a JSON 404 to the update only', () => {
  let server: Listening;
  beforeAll(async () => {
    server = await listenOnLoopback(apiWithoutTheAccount());
  });
  afterAll(() => server.close());

  it.each([
    ['restore on', [] as string[]],
    ['--no-restore', ['--no-restore']],
  ])('is configuration (%s): exit 2 naming the id and --fiat-account-id, no rule judged', async (_how, extra) => {
    const { code, stderr, report } = await runAgainst(server.url, extra);
    expect(code).toBe(2);
    expect(report.summary.requests).toBeLessThanOrEqual(FEW);
    expect(stderr).toContain(`the target has no fiat account ${ACCOUNT}`);
    expect(stderr).toMatch(/--fiat-account-id/);
    expect(stderr).not.toMatch(/does not serve the API/);
    expect(report.rules.every((r) => r.status === 'skipped')).toBe(true);
  });
});
