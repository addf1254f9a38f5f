/**
 * No credential reaches any output of a real run: every report file, the step summary, stdout
 * and stderr of the binary are searched for the client secret, every token the token endpoint
 * issued during the run, and the static token, whether flags or the environment supplied them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { createReferenceServer, type ReferenceServer } from '../../src/server/server.ts';
import { conformance, reportDir } from '../cli/binary.ts';

/** Forwards token requests to the server and keeps every access_token it hands out. */
function recordingTokenProxy(tokenUrl: string, issued: string[]): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const forward = http.request(tokenUrl, { method: req.method, headers: req.headers }, (upstream) => {
      const chunks: Buffer[] = [];
      upstream.on('data', (c: Buffer) => chunks.push(c));
      upstream.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        try {
          const token = (JSON.parse(text) as { access_token?: string }).access_token;
          if (token) issued.push(token);
        } catch {
          // not a token response: nothing to record
        }
        res.writeHead(upstream.statusCode ?? 502, upstream.headers).end(text);
      });
    });
    req.pipe(forward);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/oauth/token`,
        close: () => new Promise<void>((r) => server.close(() => r())),
      }),
    ),
  );
}

/** Every output of a run: stdout, stderr and the text of every file written. */
function outputs(result: { stdout: string; stderr: string }, dirs: string[]): Record<string, string> {
  const all: Record<string, string> = { stdout: result.stdout, stderr: result.stderr };
  for (const dir of dirs) for (const file of readdirSync(dir)) all[path.join(dir, file)] = readFileSync(path.join(dir, file), 'utf8');
  return all;
}

describe('a run with client credentials against a faulty target', () => {
  let server: ReferenceServer;
  let proxy: { url: string; close: () => Promise<void> };
  const issued: string[] = [];
  beforeAll(async () => {
    server = await createReferenceServer({ fault: 'fa-status-lowercase' });
    proxy = await recordingTokenProxy(server.tokenUrl, issued);
  });
  afterAll(async () => {
    await proxy.close();
    await server.close();
  });

  const common = () => [
    'run',
    '--base-url',
    server.baseUrl,
    '--profile',
    'quick',
    '--seed',
    '2',
    ...server.fiatAccountIds.flatMap((id) => ['--fiat-account-id', id]),
  ];

  it.each([
    ['flags', () => ({ args: ['--auth-url', proxy.url, '--client-id', server.clientId, '--client-secret', server.clientSecret], env: {} })],
    [
      'the environment',
      () => ({ args: [], env: { CONFORMANCE_AUTH_URL: proxy.url, CONFORMANCE_CLIENT_ID: server.clientId, CONFORMANCE_CLIENT_SECRET: server.clientSecret } }),
    ],
  ])('credentials from %s: no output holds the secret or an issued token', async (_how, given) => {
    const { args, env } = given();
    const dir = reportDir();
    const summaryDir = reportDir();
    const before = issued.length;
    const result = await conformance([...common(), ...args, '--report-dir', dir], { ...env, GITHUB_STEP_SUMMARY: path.join(summaryDir, 'summary.md') });
    expect(result.code, result.stderr).toBe(1); // the fault makes failures, so curl lines and evidence are written
    expect(issued.length).toBeGreaterThan(before);
    const texts = outputs(result, [dir, summaryDir]);
    // stdout, stderr, the six report files and the restore journal, and the step summary.
    expect(Object.keys(texts)).toHaveLength(2 + 6 + 1 + 1);
    expect(texts[path.join(dir, 'conformance.json')]).toContain('"curl": "curl ');
    for (const [where, text] of Object.entries(texts)) {
      for (const secret of [server.clientSecret, ...issued.slice(before)]) expect(text.includes(secret), `${where} holds a credential`).toBe(false);
    }
  });

  it('a static token from the flags appears in no output', async () => {
    const dir = reportDir();
    const result = await conformance([...common(), '--token', server.staticToken, '--report-dir', dir]);
    expect(result.code).toBe(1);
    for (const [where, text] of Object.entries(outputs(result, [dir]))) expect(text.includes(server.staticToken), `${where} holds the token`).toBe(false);
  });
});

describe('a target that echoes the bearer token in its answers', () => {
  const TOKEN = 'echoed-static-token-0123456789';
  const ACCOUNT = '0f8fad5b-d9cb-469f-a165-70867728950e';
  let echo: http.Server;
  let baseUrl: string;
  beforeAll(async () => {
    // Answers every update with the Authorization header as the owner's first name.
    echo = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id: ACCOUNT,
            status: 'PENDING',
            created_at: '2024-01-01T00:00:00Z',
            fiat_network_instructions: { wire: {} },
            fiat_account_owner: { person_details: { first_name: req.headers.authorization ?? '', last_name: 'x' } },
          }),
        );
      });
    });
    await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
    baseUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => echo.close(() => r())));

  it('never shows it: not in the run, not in its reports, not in a replay', async () => {
    const dir = reportDir();
    const run = await conformance([
      'run',
      '--base-url',
      baseUrl,
      '--token',
      TOKEN,
      '--fiat-account-id',
      ACCOUNT,
      '--rule',
      'fa.update-reflected',
      '--profile',
      'quick',
      '--report-dir',
      dir,
    ]);
    expect(run.stdout).toMatch(/✗ fa\.update-reflected/); // the echo is quoted in the failure
    const replay = await conformance(['replay', path.join(dir, 'conformance.json'), '--base-url', baseUrl, '--token', TOKEN, '--fiat-account-id', ACCOUNT]);
    expect(replay.stdout).toMatch(/fa\.update-reflected +still fails: /);
    for (const [where, text] of Object.entries({ ...outputs(run, [dir]), 'replay stdout': replay.stdout, 'replay stderr': replay.stderr })) {
      expect(text.includes(TOKEN), `${where} holds the token`).toBe(false);
    }
  });
});
