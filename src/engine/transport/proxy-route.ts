/**
 * The runner's network (docs/design.md, "The runner's network"): which way a request leaves the
 * machine. The proxy variables are read as curl and npm read them, by proxy-from-env:
 * HTTPS_PROXY / https_proxy for https:// URLs, HTTP_PROXY / http_proxy for http:// ones,
 * ALL_PROXY for either, and NO_PROXY (a comma-separated list of hosts, `.example.com` for a
 * domain, `*` for all) for those reached directly. As with curl, a loopback URL goes through the
 * proxy too unless NO_PROXY names it. The embedded server, which the harness starts on its own
 * loopback, is always reached directly ('direct'): no proxy can reach it.
 *
 * Through a proxy, https:// goes in a CONNECT tunnel  (proxy-tunnel.ts), http:// as an
 * absolute-URI request (http-proxy-agent). The target's certificate is checked as without a
 * proxy: against Node's CAs and NODE_EXTRA_CA_CERTS.
 */
import type { Agent } from 'node:http';
import { getProxyForUrl } from 'proxy-from-env';

/** 'environment': the proxy variables decide; 'direct': never through a proxy (the embedded server). */
export type Route = 'environment' | 'direct';

/** One agent per proxy and scheme, so that connections through the proxy are kept and reused. */
const agents = new Map<string, Promise<Agent>>();

/** The variables that can name a proxy, in the order proxy-from-env reads them (lower case first). */
const PROXY_VARIABLES = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY', 'all_proxy', 'ALL_PROXY'];

/** The proxy's URL for `url`, undefined when it goes directly. Throws ProxyVariableError when the variable is no URL. */
export function proxyFor(url: string, route: Route): URL | undefined {
  if (route === 'direct') return undefined;
  const proxy = getProxyForUrl(url);
  if (!proxy) return undefined;
  try {
    return new URL(proxy);
  } catch {
    // The value is not quoted: it may hold a password.
    throw new ProxyVariableError('the proxy variable for this URL (HTTPS_PROXY, HTTP_PROXY or ALL_PROXY) is not a URL');
  }
}

export class ProxyVariableError extends Error {
  /** EPROXY…: the reason quoted whole (http-call.ts noAnswerReason). */
  readonly code = 'EPROXYURL';
}

/**
 * The agent a request to `url` goes through: a proxy's, or undefined for Node's own (direct).
 * Rejects with ProxyVariableError when the proxy variable is no URL. The proxy libraries are
 * loaded only when a proxy is in use: a run without one does not pay their start-up time.
 */
export async function agentFor(url: string, route: Route): Promise<Agent | undefined> {
  const proxy = proxyFor(url, route);
  if (!proxy) return undefined;
  const secure = url.startsWith('https:');
  const key = `${secure ? 'tunnel' : 'forward'} ${proxy.href}`;
  let agent = agents.get(key);
  if (!agent) {
    agent = secure
      ? import('./proxy-tunnel.ts').then(({ RefusingTunnelAgent }) => new RefusingTunnelAgent(proxy.href, { keepAlive: true }))
      : import('http-proxy-agent').then(({ HttpProxyAgent }) => new HttpProxyAgent(proxy.href, { keepAlive: true }));
    agents.set(key, agent);
  }
  return agent;
}

/**
 * The credentials of every proxy the environment names (the password, and user:password as a
 * Proxy-Authorization header would carry it), for redaction: none of them may reach a report or
 * the console.
 */
export function proxySecrets(env: NodeJS.ProcessEnv = process.env): string[] {
  const secrets: string[] = [];
  for (const name of PROXY_VARIABLES) {
    const value = env[name];
    if (!value) continue;
    const userinfo = /^[a-z][a-z0-9+.-]*:\/\/([^/?#@]*)@/i.exec(value)?.[1];
    if (!userinfo) continue;
    const colon = userinfo.indexOf(':');
    const password = colon < 0 ? '' : userinfo.slice(colon + 1);
    for (const secret of [password, userinfo]) {
      if (!secret) continue;
      secrets.push(secret, safeDecode(secret));
    }
  }
  return [...new Set(secrets)];
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
