/**
 * One HTTP exchange through pactum (DESIGN 1.3), reduced to what the harness records: a response,
 * or the reason there is none. Everything above this file (retries, tokens, limits) is ours;
 * pactum only moves bytes. It is used without expectations, so it never judges anything.
 */
import zlib from 'node:zlib';
import pactum from 'pactum';
import type { RecordedResponse, TransportError } from '../../core/exchange.ts';
import { oneLine } from '../../core/text.ts';

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
  'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ECONNABORTED', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN',
  'ENOTFOUND', 'EAI_AGAIN', 'EADDRNOTAVAIL', 'ERR_STREAM_PREMATURE_CLOSE',
]);

/**
 * Sends one request. Never throws: a refused, dropped or silent connection comes back as an
 * error. `timeoutMs` bounds the whole exchange: pactum's own timeout only fires when the socket
 * idles, so a server that trickles bytes is cut off here as well.
 */
export async function httpCall(request: HttpRequest, timeoutMs: number): Promise<HttpOutcome> {
  let spec = pactum.spec().withMethod(request.method).withPath(request.url).withHeaders(request.headers).withRequestTimeout(timeoutMs);
  if (request.body !== undefined && request.body !== '') spec = spec.withBody(request.body);

  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<HttpOutcome>((resolve) => {
    timer = setTimeout(() => resolve(timeoutOutcome(timeoutMs)), timeoutMs);
  });
  const exchange = spec.toss().then(
    (raw: unknown) => toOutcome(raw, timeoutMs),
    (error: unknown) => toOutcome(error, timeoutMs),
  );
  try {
    return await Promise.race([exchange, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

function timeoutOutcome(timeoutMs: number): HttpOutcome {
  return { error: { kind: 'timeout', message: `no answer within ${timeoutMs} ms` }, code: 'ETIMEDOUT' };
}

/** pactum resolves with node's IncomingMessage plus `text`, or rejects with the socket error. */
function toOutcome(raw: unknown, timeoutMs: number): HttpOutcome {
  if (raw instanceof Error || typeof raw !== 'object' || raw === null || typeof (raw as { statusCode?: unknown }).statusCode !== 'number') {
    return failure(raw, timeoutMs);
  }
  const res = raw as { statusCode: number; headers: Record<string, string | string[] | undefined>; text?: unknown; buffer?: unknown };
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers ?? {})) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  const rawBody = Buffer.isBuffer(res.buffer) ? decoded(res.buffer, headers['content-encoding']).toString('utf8') : typeof res.text === 'string' ? res.text : '';
  const response: RecordedResponse = { status: res.statusCode, headers, rawBody, json: false };
  // Parsed whatever the Content-Type says: a JSON body with a wrong type is still judged as JSON
  // (status-codes checks look at the header separately).
  if (rawBody.trim() !== '') {
    try {
      // RFC 8259 8.1: a parser may ignore a byte order mark.
      response.body = JSON.parse(rawBody.replace(/^\uFEFF/, ''));
      response.json = true;
    } catch {
      // Not JSON: rawBody holds the text, json stays false.
    }
  }
  return { response };
}

/**
 * The body without its content coding. The harness sends no Accept-Encoding, which lets a server
 * pick any coding (RFC 9110 12.5.3); one that cannot be undone is kept as it came.
 */
function decoded(body: Buffer, encoding: string | undefined): Buffer {
  const coding = encoding?.trim().toLowerCase();
  try {
    if (coding === 'gzip' || coding === 'x-gzip') return zlib.gunzipSync(body);
    if (coding === 'deflate') return zlib.inflateSync(body);
    if (coding === 'br') return zlib.brotliDecompressSync(body);
  } catch {
    // A body that does not decode is recorded raw; the checks report it as not JSON.
  }
  return body;
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

