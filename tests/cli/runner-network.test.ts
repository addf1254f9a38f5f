/**
 * The network a CI runner has (issue 31, point 7), end to end: the embedded server behind a TLS
 * front whose certificate a private CA signed (trusted through NODE_EXTRA_CA_CERTS), its token
 * endpoint behind a second front, and a forwarding proxy that asks for a password. A run in a
 * child process (Node reads NODE_EXTRA_CA_CERTS and the proxy variables at its start) is
 * conformant, every connection to either front came through the proxy, NO_PROXY sends past it,
 * a proxy that refuses is not the API's failure, and the proxy's password is in no output and no
 * report file.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/core/errors.ts';
import { createReferenceServer, type ReferenceServer } from '../../src/server/server.ts';
import { startForwardProxy, type ForwardProxy } from '../engine/transport/forward-proxy.ts';
import { makeTestCa, type TestCa } from '../engine/transport/test-ca.ts';
import { startTlsForwarder, type TlsForwarder } from '../engine/transport/tls-forwarder.ts';
import { conformance, conformantExit, readReport, reportDir } from './binary.ts';

const PROXY_USER = 'ci-runner';
const PROXY_PASSWORD = 'Pr0xy-S3cret-pw';
/** Every proxy variable unset, so that the runner's own cannot leak into the child. */
const NO_PROXY_VARIABLES = Object.fromEntries(
  ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'ALL_PROXY', 'all_proxy', 'NO_PROXY', 'no_proxy'].map((name) => [name, '']),
);

const ca = makeTestCa();
let server: ReferenceServer;
let api: TlsForwarder;
let tokens: TlsForwarder;
let proxy: ForwardProxy;

beforeAll(async () => {
  if (!ca) return;
  server = await createReferenceServer({});
  api = await startTlsForwarder(server.baseUrl, ca);
  tokens = await startTlsForwarder(server.baseUrl, ca);
  proxy = await startForwardProxy({ user: PROXY_USER, password: PROXY_PASSWORD });
});
afterAll(async () => {
  await Promise.all([api?.close(), tokens?.close(), proxy?.close()]);
  await server?.close();
  ca?.remove();
});

/** `conformance run` against the TLS fronts, OAuth through the token front, with `env` on top. */
function runOverTls(dir: string, env: Record<string, string>, extra: string[] = []) {
  const accounts = server.fiatAccountIds.flatMap((id) => ['--fiat-account-id', id]);
  const auth = ['--auth-url', `${tokens.url}/oauth/token`, '--client-id', server.clientId, '--client-secret', server.clientSecret];
  const args = ['run', '--base-url', api.url, ...auth, ...accounts, '--profile', 'quick', '--rate-limit', '0', '--report-dir', dir, ...extra];
  return conformance(args, { ...NO_PROXY_VARIABLES, NODE_EXTRA_CA_CERTS: (ca as TestCa).caFile, ...env });
}

/** Every file under `dir`, as text. */
function filesUnder(dir: string): { file: string; text: string }[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [{ file, text: readFileSync(file, 'latin1') }];
  });
}

const host = (url: string) => new URL(url).host;

describe.skipIf(!ca)('a run over TLS with a private CA, through a proxy (needs openssl to make the CA)', () => {
  it('is conformant, and every request to the target and the token endpoint went through the proxy', async () => {
    const dir = reportDir();
    const run = await runOverTls(dir, { HTTPS_PROXY: proxy.url });
    const report = readReport(dir);
    expect(run.code, run.stderr).toBe(conformantExit(report).code);
    expect(report.summary.failed).toBe(0);
    // Both origins were reached through CONNECT tunnels, and no connection came from elsewhere.
    expect(new Set(proxy.tunnels)).toEqual(new Set([host(api.url), host(tokens.url)]));
    expect(api.requests).toBeGreaterThan(100);
    expect(tokens.requests).toBeGreaterThan(0);
    for (const port of [...api.clientPorts, ...tokens.clientPorts]) expect(proxy.upstreamPorts).toContain(port);

    // The proxy's password, as typed and as a Basic credential, is nowhere.
    const basic = Buffer.from(`${PROXY_USER}:${PROXY_PASSWORD}`).toString('base64');
    for (const { file, text } of [...filesUnder(dir), { file: 'stdout', text: run.stdout }, { file: 'stderr', text: run.stderr }]) {
      expect(text.includes(PROXY_PASSWORD) || text.includes(basic), `the proxy password is in ${file}`).toBe(false);
    }
  });

  it('trusts the private CA only through NODE_EXTRA_CA_CERTS: without it the target is unreachable, not non-conformant', async () => {
    const run = await runOverTls(reportDir(), { HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: '' });
    expect(run.code, run.stdout + run.stderr).toBe(EXIT.unreachable);
    expect(run.stdout + run.stderr).toMatch(
      /UNABLE_TO_VERIFY_LEAF_SIGNATURE \(the certificate's issuer is not trusted: for a private CA, set NODE_EXTRA_CA_CERTS/,
    );
  });

  it('sends past the proxy to the hosts NO_PROXY names', async () => {
    const tunnelsBefore = proxy.tunnels.length;
    const requestsBefore = api.requests;
    const dir = reportDir();
    const run = await runOverTls(dir, { HTTPS_PROXY: proxy.url, NO_PROXY: '127.0.0.1' }, ['--max-requests', '60']);
    expect([EXIT.conformant, EXIT.inconclusive, EXIT.leftChanged], run.stderr).toContain(run.code);
    expect(proxy.tunnels.length).toBe(tunnelsBefore);
    expect(api.requests).toBeGreaterThan(requestsBefore);
  });

  it('stops as unreachable, judging nothing, when the proxy refuses the credentials, and quotes no password', async () => {
    const dir = reportDir();
    const wrong = proxy.url.replace(PROXY_PASSWORD, 'Wr0ng-Pa55word');
    const requestsBefore = api.requests + tokens.requests;
    const run = await runOverTls(dir, { HTTPS_PROXY: wrong });
    expect(run.code, run.stdout + run.stderr).toBe(EXIT.unreachable);
    expect(run.stdout + run.stderr).toMatch(/proxy refused to connect to .*HTTP 407/);
    expect(run.stdout + run.stderr).not.toMatch(/Wr0ng-Pa55word|Pr0xy-S3cret-pw/);
    expect(api.requests + tokens.requests).toBe(requestsBefore);
  });
});
