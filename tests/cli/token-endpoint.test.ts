/**
 * Token endpoints as they are, end to end (the real binary): the embedded server's API behind a
 * token endpoint of its own, a loopback proxy to the server's token URL that reads the client
 * credentials only from the form body, or fails with HTTP 500 after two short-lived tokens.
 */
import { afterAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createReferenceServer, type ReferenceServer } from '../../src/server/server.ts';
import { conformance, readReport, reportDir } from './binary.ts';

const closers: (() => Promise<void>)[] = [];
afterAll(async () => Promise.all(closers.map((close) => close())));

interface Proxy {
  url: string;
  /** How each token request sent the credentials. */
  methods: ('basic' | 'body')[];
  /** Access tokens passed on, to prove none is written anywhere. */
  tokens: string[];
}

/**
 * A token endpoint in front of `server`'s: `answer(n, method)` says whether request n is passed
 * on, or which status to answer instead; passed-on tokens get `expiresIn` when given.
 */
async function tokenProxy(server: ReferenceServer, answer: (n: number, method: 'basic' | 'body') => 'forward' | number, expiresIn?: number): Promise<Proxy> {
  const proxy: Proxy = { url: '', methods: [], tokens: [] };
  const listener = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const method = req.headers.authorization?.startsWith('Basic ') ? 'basic' : 'body';
      const what = answer(proxy.methods.push(method) - 1, method);
      const reply = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (what !== 'forward') return reply(what, { error: what === 400 ? 'invalid_request' : 'server_error' });
      const headers: Record<string, string> = { 'content-type': String(req.headers['content-type']) };
      if (req.headers.authorization) headers.authorization = req.headers.authorization;
      const upstream = await fetch(server.tokenUrl, { method: 'POST', headers, body: Buffer.concat(chunks) });
      const body = (await upstream.json()) as Record<string, unknown>;
      if (typeof body.access_token === 'string') proxy.tokens.push(body.access_token);
      reply(upstream.status, expiresIn !== undefined && upstream.ok ? { ...body, expires_in: expiresIn } : body);
    });
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise<void>((resolve) => listener.close(() => resolve())));
  proxy.url = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/oauth/token`;
  return proxy;
}

async function runThrough(answer: Parameters<typeof tokenProxy>[1], extra: string[], expiresIn?: number) {
  const server = await createReferenceServer();
  closers.push(() => server.close());
  const proxy = await tokenProxy(server, answer, expiresIn);
  const dir = reportDir();
  const args = ['run', '--base-url', server.baseUrl, '--auth-url', proxy.url, '--client-id', server.clientId, '--seed', '5', '--report-dir', dir, ...extra];
  for (const id of server.fiatAccountIds) args.push('--fiat-account-id', id);
  // The secret through the environment, as a user's .env gives it.
  const result = await conformance(args, { CONFORMANCE_CLIENT_SECRET: server.clientSecret });
  const written = readdirSync(dir)
    .map((name) => readFileSync(path.join(dir, name), 'utf8'))
    .join('\n');
  for (const secret of [server.clientSecret, ...proxy.tokens]) {
    expect(written + result.stdout + result.stderr).not.toContain(secret);
  }
  return { ...result, report: readReport(dir), proxy };
}

describe('token endpoints as they are', () => {
  it('one that reads the credentials only from the form body: the run goes through, Basic is tried once', async () => {
    const { code, stdout, stderr, proxy } = await runThrough((_n, method) => (method === 'basic' ? 400 : 'forward'), ['--profile', 'quick']);
    expect(code, stdout + stderr).toBe(0);
    // The first token, then the renewal the run forces for id.ref-id.across-tokens: the body only.
    expect(proxy.methods).toEqual(['basic', 'body', 'body']);
  });

  it('one that fails with HTTP 500 after two short-lived tokens: exit 3, a partial report, a handful of token requests', async () => {
    // deep: the run outlasts the tokens by far, whatever the machine's speed.
    const { code, stdout, stderr, report, proxy } = await runThrough((n) => (n < 2 ? 'forward' : 500), ['--profile', 'deep'], 1);
    expect(code, stdout + stderr).toBe(3);
    expect(report.summary.verdict).toBe('error');
    expect(report.stopped?.kind).toBe('token-endpoint');
    expect(report.stopped?.message).toBe(`the token endpoint ${proxy.url} failed: HTTP 500 server_error (4 tries)`);
    expect(report.stopped?.requests).toBeGreaterThan(0);
    expect(stderr + stdout).toContain('failed: HTTP 500 server_error');
    // Two tokens, then one try and its retries: bounded by the retry count, not by the cases.
    expect(proxy.methods.length).toBeGreaterThanOrEqual(3);
    expect(proxy.methods.length).toBeLessThanOrEqual(2 + 4);
    expect(proxy.methods.every((m) => m === 'basic')).toBe(true);
  });
});
