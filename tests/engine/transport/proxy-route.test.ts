/**
 * The runner's network, in process (proxy-route.ts, proxy-tunnel.ts): which requests the proxy
 * variables send through a proxy, NO_PROXY, the embedded server's direct route, a proxy's refusal
 * as a transport error (never an answer a rule judges), and the proxy's password kept for
 * redaction. A whole run over TLS with a private CA through a proxy: tests/cli/runner-network.test.ts.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { httpCall } from '../../../src/engine/transport/http-call.ts';
import { agentFor, proxySecrets } from '../../../src/engine/transport/proxy-route.ts';
import { startForwardProxy, type ForwardProxy } from './forward-proxy.ts';
import { json, localServers } from './local-server.ts';

const VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'ALL_PROXY', 'all_proxy', 'NO_PROXY', 'no_proxy'];
const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));
/** Sets the proxy variables for one test; every other one is unset. */
function proxyEnv(values: Record<string, string>): void {
  for (const name of VARIABLES) delete process.env[name];
  Object.assign(process.env, values);
}
afterAll(() => {
  for (const name of VARIABLES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

const server = localServers();
const proxies: ForwardProxy[] = [];
const proxy = async (credentials?: { user: string; password: string }) => {
  const started = await startForwardProxy(credentials);
  proxies.push(started);
  return started;
};
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});

const GET = (url: string) => ({ method: 'GET', url, headers: {} });

describe('which way a request goes', () => {
  it('through the proxy the variable of its scheme names; directly without one, for NO_PROXY, or on the direct route', async () => {
    proxyEnv({ HTTPS_PROXY: 'http://proxy.test:3128' });
    expect(await agentFor('https://api.test/v2', 'environment')).toBeDefined();
    expect(await agentFor('http://api.test/v2', 'environment')).toBeUndefined();
    expect(await agentFor('https://api.test/v2', 'direct')).toBeUndefined();
    proxyEnv({ HTTPS_PROXY: 'http://proxy.test:3128', NO_PROXY: 'localhost,.internal.test' });
    expect(await agentFor('https://api.internal.test/v2', 'environment')).toBeUndefined();
    expect(await agentFor('https://localhost:8443/v2', 'environment')).toBeUndefined();
    expect(await agentFor('https://api.test/v2', 'environment')).toBeDefined();
  });

  it('proxies a loopback URL too unless NO_PROXY names it, as curl does', async () => {
    proxyEnv({ HTTP_PROXY: 'http://proxy.test:3128' });
    expect(await agentFor('http://127.0.0.1:8080/', 'environment')).toBeDefined();
    proxyEnv({ HTTP_PROXY: 'http://proxy.test:3128', NO_PROXY: '127.0.0.1' });
    expect(await agentFor('http://127.0.0.1:8080/', 'environment')).toBeUndefined();
  });

  it('keeps one agent per proxy and scheme, so connections through it are reused', async () => {
    proxyEnv({ HTTPS_PROXY: 'http://proxy.test:3128' });
    expect(await agentFor('https://a.test/', 'environment')).toBe(await agentFor('https://b.test/', 'environment'));
  });
});

describe('a request through a proxy', () => {
  it('goes to an http:// target as an absolute-URI request, with the proxy credentials the URL holds', async () => {
    const target = await server((_req, res) => json(res, 200, { ok: true }));
    const through = await proxy({ user: 'ci', password: 'pr0xy-pass' });
    proxyEnv({ HTTP_PROXY: through.url });
    const outcome = await httpCall(GET(`${target.url}/v2/x`), 5_000);
    expect('response' in outcome && outcome.response.status).toBe(200);
    expect(through.forwarded).toEqual([`${target.url}/v2/x`]);
    expect(target.seen).toHaveLength(1);
    // The proxy's credentials stop at the proxy.
    expect(target.seen[0].headers['proxy-authorization']).toBeUndefined();
  });

  it('goes directly when NO_PROXY names the host', async () => {
    const target = await server((_req, res) => json(res, 200, { ok: true }));
    const through = await proxy();
    proxyEnv({ HTTP_PROXY: through.url, NO_PROXY: '127.0.0.1' });
    const outcome = await httpCall(GET(`${target.url}/`), 5_000);
    expect('response' in outcome && outcome.response.status).toBe(200);
    expect(through.forwarded).toEqual([]);
  });

  it("is a transport error, not the target's answer, when the proxy asks for credentials (407), and quotes no password", async () => {
    const target = await server((_req, res) => json(res, 200, { ok: true }));
    const through = await proxy({ user: 'ci', password: 'right-one' });
    proxyEnv({ HTTP_PROXY: through.url.replace('right-one', 'wrong-one'), HTTPS_PROXY: through.url.replace('right-one', 'wrong-one') });
    for (const url of [`${target.url}/`, `https://127.0.0.1:${new URL(target.url).port}/`]) {
      const outcome = await httpCall(GET(url), 5_000);
      expect(outcome).toMatchObject({ error: { kind: 'connection' }, code: 'EPROXYREFUSED' });
      const message = 'error' in outcome ? outcome.error.message : '';
      expect(message).toMatch(/proxy refused .* HTTP 407/);
      expect(message).not.toMatch(/wrong-one|right-one/);
    }
    expect(target.seen).toEqual([]);
  });

  it('is a transport error when a proxy variable is no URL, and the value is not quoted', async () => {
    proxyEnv({ HTTPS_PROXY: 'http://ci:s3cret@[bad' });
    const outcome = await httpCall(GET('https://api.test/'), 5_000);
    expect('error' in outcome && outcome.error.message).toMatch(/proxy variable .* is not a URL/);
    expect(JSON.stringify(outcome)).not.toContain('s3cret');
  });
});

describe('the proxy credentials, for redaction', () => {
  it('are the password and user:password of every proxy variable, also percent-decoded', () => {
    expect(proxySecrets({ HTTPS_PROXY: 'http://ci:p%40ss-w0rd@proxy.test:3128', http_proxy: 'http://proxy.test:3128' })).toEqual(
      expect.arrayContaining(['p%40ss-w0rd', 'p@ss-w0rd', 'ci:p%40ss-w0rd', 'ci:p@ss-w0rd']),
    );
    expect(proxySecrets({ HTTP_PROXY: 'http://proxy.test:3128' })).toEqual([]);
  });
});
