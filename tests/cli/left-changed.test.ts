/**
 * End to end, as a CI user meets it (issue 29, point 6): the embedded reference server behind a
 * proxy that answers 500 to every write-back of the restore (retries included), so the run is
 * conformant but leaves the accounts changed. The run exits 5, and the console's last lines,
 * --quiet, summary.md, report.html, junit.xml and the --json result name each account. With
 * --no-restore the same run says restore was off at the same places and exits 0.
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { conformance, readReport, reportDir } from './binary.ts';
import { createReferenceServer, type ReferenceServer } from '../../src/server/server.ts';
import type { RunJsonResult } from '../../src/report/model/run-json-result.ts';

/** The first object under `key` anywhere in a JSON value (the wire instructions, in either placement). */
function firstUnder(value: unknown, key: string): unknown {
  if (!value || typeof value !== 'object') return undefined;
  const record = value as Record<string, unknown>;
  if (record[key] && typeof record[key] === 'object') return record[key];
  for (const v of Object.values(record)) {
    const found = firstUnder(v, key);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** JSON with the keys of every object sorted: equal values, equal text. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );

/**
 * Forwards everything to `upstream`, except (with `refuse`) a write-back: an update that puts an
 * account's wire instructions back to what its first answer (the restore's start read) showed.
 * Those get a 500, every time. No case of the run sends the seeded wire instructions whole (each
 * generates its own account number), so the run itself stays conformant (the test asserts it).
 */
function writeBackRefusingProxy(upstream: string, refuse = true): Promise<{ url: string; refused: () => number; close: () => Promise<void> }> {
  const startWire = new Map<string, string>();
  let refused = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const account = /\/fiat-accounts\/([^/?]+)/.exec(req.url ?? '')?.[1];
      let sent: unknown;
      try {
        sent = body.length ? JSON.parse(body.toString('utf8')) : undefined;
      } catch {
        sent = undefined;
      }
      const wire = firstUnder(sent, 'wire');
      if (refuse && req.method !== 'GET' && account && wire && startWire.get(account) === canonical(wire)) {
        refused++;
        res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'internal' }));
        return;
      }
      const forward = http.request(`${upstream}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
        const answered: Buffer[] = [];
        answer.on('data', (c: Buffer) => answered.push(c));
        answer.on('end', () => {
          const text = Buffer.concat(answered);
          if (account && !startWire.has(account) && (answer.statusCode ?? 500) < 300) {
            try {
              const shown = firstUnder(JSON.parse(text.toString('utf8')), 'wire');
              if (shown) startWire.set(account, canonical(shown));
            } catch {
              // Not JSON: nothing to learn.
            }
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers).end(text);
        });
      });
      forward.on('error', () => res.writeHead(502).end());
      forward.end(body);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        refused: () => refused,
        close: () => new Promise<void>((r) => server.close(() => r())),
      }),
    ),
  );
}

const read = (dir: string, file: string) => readFileSync(path.join(dir, file), 'utf8');

describe('a conformant run whose write-backs all fail', () => {
  // A server and proxy per run: a run whose write-backs failed leaves the accounts holding what it
  // wrote, and the same seed would send those names again.
  const started: { close(): Promise<void> }[] = [];
  afterAll(async () => {
    for (const s of started.reverse()) await s.close();
  });
  let server: ReferenceServer;
  let proxy: Awaited<ReturnType<typeof writeBackRefusingProxy>>;
  beforeEach(async () => {
    server = await createReferenceServer({});
    proxy = await writeBackRefusingProxy(server.baseUrl);
    started.push(server, proxy);
  });
  const args = (dir: string) => [
    'run',
    '--base-url',
    proxy.url,
    ...server.fiatAccountIds.flatMap((id) => ['--fiat-account-id', id]),
    '--profile',
    'quick',
    '--seed',
    '7',
    '--rule',
    'fa.',
    // Every write-back fails for good here: the restore's patience with a failing target is not what this tests.
    '--restore-patience',
    '1',
    '--report-dir',
    dir,
  ];

  it('exits 5 with a conformant verdict, and every output names each account left changed', async () => {
    const dir = reportDir();
    const env = { CONFORMANCE_TOKEN: server.staticToken };
    const { code, stdout, stderr } = await conformance(args(dir), env);
    const report = readReport(dir);
    expect(report.summary.verdict, stdout + stderr).toBe('conformant');
    expect(code, stdout + stderr).toBe(5);
    expect(proxy.refused()).toBeGreaterThan(0);
    const left = report.restore?.accounts.filter((a) => a.outcome !== 'restored' && a.outcome !== 'unchanged') ?? [];
    expect(left.length).toBeGreaterThan(0);
    const ids = left.map((a) => a.id);

    // The console ends with them: after the verdict and the closing counts.
    const lines = stdout.trimEnd().split('\n');
    const verdict = lines.findIndex((l) => l.startsWith('verdict: conformant'));
    const warning = lines.findIndex((l) => /^⚠ .*fiat accounts? left changed by the run \(exit 5\)$/.test(l));
    expect(warning, stdout).toBeGreaterThan(verdict);
    const tail = lines.slice(warning).join('\n');
    for (const id of ids) expect(tail).toContain(id);
    expect(tail).toMatch(/write-back was answered HTTP 500/);

    // summary.md and report.html: first.
    const markdown = read(dir, 'summary.md');
    const title = markdown.indexOf('## Conformance:');
    expect(markdown.startsWith('> ⚠️ **')).toBe(true);
    for (const id of ids) expect(markdown.slice(0, title)).toContain(id);
    const html = read(dir, 'report.html');
    const block = html.slice(html.indexOf('id="left-changed"'), html.indexOf('<header class="banner'));
    for (const id of ids) expect(block).toContain(`data-account="${id}"`);

    // junit.xml: a failing testcase per account.
    const junit = read(dir, 'junit.xml');
    for (const id of ids) expect(junit).toMatch(new RegExp(`<testcase classname="sandbox" name="sandbox: fiat account ${id} left changed"[^>]*>\\s*<failure `));
  });

  it('--quiet --json: one line more on stderr, and leftChanged in the result', async () => {
    const dir = reportDir();
    const { code, stdout, stderr } = await conformance([...args(dir), '--quiet', '--json'], { CONFORMANCE_TOKEN: server.staticToken });
    expect(code, stderr).toBe(5);
    const result = JSON.parse(stdout) as RunJsonResult;
    expect(result.verdict).toBe('conformant');
    expect(result.exitCode).toBe(5);
    expect(result.leftChanged.length).toBeGreaterThan(0);
    const last = stderr.trimEnd().split('\n').at(-1) ?? '';
    expect(last).toMatch(/^fiat accounts left changed \(exit 5\): /);
    for (const a of result.leftChanged) expect(last).toContain(a.id);
  });

  it('--no-restore: the same places say restore was off, and the run exits 0', async () => {
    const dir = reportDir();
    const { code, stdout, stderr } = await conformance([...args(dir), '--no-restore'], { CONFORMANCE_TOKEN: server.staticToken });
    expect(code, stdout + stderr).toBe(0);
    expect(stdout.trimEnd().split('\n').at(-1)).toMatch(/^restore was off \(--no-restore\): .*: /);
    for (const id of server.fiatAccountIds) expect(stdout.trimEnd().split('\n').at(-1)).toContain(id);
    expect(read(dir, 'summary.md').startsWith('> ℹ️ **Restore was off**')).toBe(true);
    expect(read(dir, 'junit.xml')).toContain('<testsuite name="sandbox" tests="1" failures="0" errors="0" skipped="1"');
  });
});
