/**
 * One HTTP exchange through pactum (docs/design.md section 1, item 3), reduced to what the harness records: a response,
 * or the reason there is none. Everything above this file (retries, tokens, limits) is ours;
 * pactum only moves bytes. It is used without expectations, so it never judges anything.
 */
import pactum from 'pactum';
import type { RecordedResponse, TransportError } from '../../core/exchange.ts';
import { oneLine } from '../../core/text.ts';
import { asStream, requestAsStream, requestThrough } from './pactum-stream.ts';
import { readBody } from './body-stream.ts';
import { recordBody } from './body-record.ts';
import type { Send } from './send.ts';
import { agentFor, type Route } from './proxy-route.ts';
import { refusal } from './proxy-refusal.ts';
import { needsUnframing, unframedAgent } from './unframed-agent.ts';

// pactum logs failed requests with their headers (tokens included) at its default level: the
// harness prints nothing it did not decide to print. Global on purpose: a per-spec
// useLogLevel() is restored by whichever concurrent spec ends last, so it races.
pactum.settings.setLogLevel('SILENT');

/** A request ready to go: the body is already text, so pactum sends it verbatim. */
export interface HttpRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** A response, or why none came back (`code` is the system error code, e.g. ECONNREFUSED). */
export type HttpOutcome = { response: RecordedResponse } | { error: TransportError; code?: string };

/** pactum's messages for its own socket timeout. */
const TIMEOUT_MESSAGE = /timeout reached/i;
const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'ESOCKETTIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT']);
/** The peer refused, reset or dropped the connection, or cannot be found. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ECONNABORTED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EADDRNOTAVAIL',
  'ERR_STREAM_PREMATURE_CLOSE',
  // The proxy would not connect to the target (proxy-tunnel.ts).
  'EPROXYREFUSED',
]);

/**
 * Sends one request. Never throws: a refused, dropped or silent connection comes back as an
 * error. `timeoutMs` bounds the whole exchange: pactum's own timeout only fires when the socket
 * idles, so a server that trickles bytes is cut off here as well. The body is read as a stream
 * under a cap (body-stream.ts): whatever the target sends, an exchange keeps at most 1 MiB of it.
 */
export async function httpCall(request: HttpRequest, timeoutMs: number, route: Route = 'environment'): Promise<HttpOutcome> {
  let agent: Awaited<ReturnType<typeof agentFor>>;
  try {
    agent = await agentFor(request.url, route);
  } catch (error) {
    return failure(error, timeoutMs);
  }
  let spec = pactum.spec().withMethod(request.method).withPath(request.url).withHeaders(request.headers).withRequestTimeout(timeoutMs);
  if (request.body !== undefined && request.body !== '') spec = spec.withBody(request.body);
  requestAsStream(spec);
  // No body at all goes without Content-Length, as curl sends it; an empty body ('') keeps node's "Content-Length: 0".
  const wire = request.body === undefined && needsUnframing(request.method) ? unframedAgent(request.url, agent) : agent;
  if (wire) requestThrough(spec, wire);

  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new Error('deadline')), timeoutMs);
  const tossed = spec.toss().then(
    (raw: unknown) => ({ raw }),
    (error: unknown) => ({ raw: error }),
  );
  try {
    const first = await Promise.race([tossed, aborted(deadline.signal)]);
    if (first === undefined) {
      // No headers by the deadline: an answer that comes later is closed unread.
      void tossed.then(({ raw }) => asStream(raw)?.destroy());
      return timeoutOutcome(timeoutMs);
    }
    return await toOutcome(first.raw, deadline.signal, timeoutMs, agent ? new URL(request.url).host : undefined);
  } finally {
    clearTimeout(timer);
  }
}

/** TLS codes of a certificate whose issuer Node does not trust: a private CA's, most often. */
const UNTRUSTED_ISSUER = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
]);

/**
 * Why no answer came, in a few words: the system error code (ECONNREFUSED ...), with what to do
 * when the certificate's issuer is not trusted; the whole message for the proxy's own errors
 * (proxy-tunnel.ts, proxy-route.ts), which say what to check.
 */
export function noAnswerReason(outcome: { error: TransportError; code?: string }): string {
  const { code } = outcome;
  if (!code || code.startsWith('EPROXY')) return outcome.error.message;
  if (UNTRUSTED_ISSUER.has(code)) return `${code} (the certificate's issuer is not trusted: for a private CA, set NODE_EXTRA_CA_CERTS to its PEM file)`;
  return code;
}

/** The bottom of every stack of the transport (stack.ts): one request on the wire, timed. Never throws (httpCall does not). */
export function httpSend(timeoutMs: number, route: Route = 'environment'): Send {
  return async (request) => {
    const started = Date.now();
    const result = await httpCall(request, timeoutMs, route);
    return { request, ...result, startedAt: new Date(started).toISOString(), durationMs: Date.now() - started };
  };
}

/** Resolves (with nothing) when the signal aborts. */
const aborted = (signal: AbortSignal) => new Promise<undefined>((resolve) => signal.addEventListener('abort', () => resolve(undefined), { once: true }));

function timeoutOutcome(timeoutMs: number): HttpOutcome {
  return { error: { kind: 'timeout', message: `no answer within ${timeoutMs} ms` }, code: 'ETIMEDOUT' };
}

/** pactum resolves with node's IncomingMessage (its body still to read), or rejects with the socket error. */
async function toOutcome(raw: unknown, deadline: AbortSignal, timeoutMs: number, proxiedTo: string | undefined): Promise<HttpOutcome> {
  if (raw instanceof Error || typeof raw !== 'object' || raw === null || typeof (raw as { statusCode?: unknown }).statusCode !== 'number') {
    return failure(raw, timeoutMs);
  }
  const res = raw as { statusCode: number; headers: Record<string, string | string[] | undefined> };
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers ?? {})) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  const stream = asStream(raw);
  if (!stream) return failure(new Error('pactum did not stream the answer: see src/engine/transport/pactum-stream.ts'), timeoutMs);
  // 407 is the proxy's own answer (RFC 9110 15.5.8), never the target's: not an answer to judge.
  if (proxiedTo !== undefined && res.statusCode === 407) {
    stream.destroy();
    return { error: { kind: 'connection', message: refusal(407, proxiedTo) }, code: 'EPROXYREFUSED' };
  }
  try {
    // The harness sends no Accept-Encoding, which lets a server pick any coding (RFC 9110 12.5.3).
    const read = await readBody(stream, headers['content-encoding'], deadline);
    return { response: { status: res.statusCode, headers, ...recordBody(read) } };
  } catch (error) {
    return deadline.aborted ? timeoutOutcome(timeoutMs) : failure(error, timeoutMs);
  }
}

function failure(raw: unknown, timeoutMs: number): HttpOutcome {
  const error = raw as { code?: unknown; message?: unknown } | undefined;
  const code = typeof error?.code === 'string' ? error.code : undefined;
  const text = typeof error?.message === 'string' ? error.message : String(raw);
  const message = oneLine(code && !text.includes(code) ? `${code}: ${text}` : text);
  if (TIMEOUT_MESSAGE.test(text) || (code && TIMEOUT_CODES.has(code))) return timeoutOutcome(timeoutMs);
  if ((code && CONNECTION_CODES.has(code)) || /socket hang up|aborted|closed/i.test(text)) {
    return { error: { kind: 'connection', message }, ...(code ? { code } : {}) };
  }
  return { error: { kind: 'other', message }, ...(code ? { code } : {}) };
}
