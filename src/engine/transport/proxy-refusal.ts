/**
 * A proxy that would not carry a request to the target (proxy-tunnel.ts for a CONNECT, http-call.ts
 * for a 407 to a forwarded request): a transport error, with what to check. Apart from the
 * tunnel so that http-call.ts can name it without loading the proxy libraries.
 */

/** The proxy answered with something else than 200 to a CONNECT, or 407 to a forwarded request. */
export class ProxyRefusedError extends Error {
  /** EPROXY…: the reason quoted whole (http-call.ts noAnswerReason). */
  readonly code = 'EPROXYREFUSED';
}

/** What the proxy's status says, and what to check (the proxy's URL is never quoted: it may hold a password). */
export function refusal(status: number, target: string): string {
  const check = status === 407 ? 'check the user and password in the proxy variable (HTTPS_PROXY / HTTP_PROXY)' : 'check the proxy variables and NO_PROXY';
  return `the proxy refused to connect to ${target}: HTTP ${status} (${check})`;
}
