/** Reading request bodies under a size limit and writing JSON answers: the server's HTTP plumbing. */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Bodies above this many bytes get 413 (1 MiB). */
export const MAX_REQUEST_BODY_BYTES = 1024 * 1024;
/** After a 413, at most this much more is read and thrown away (so the client can read the answer), then the socket is closed. */
const MAX_DRAIN_BYTES = 16 * MAX_REQUEST_BODY_BYTES;

export type BodyResult = { kind: 'ok'; bytes: Buffer } | { kind: 'too-large' };

/**
 * Reads the whole body, or stops keeping it as soon as it passes `limit` bytes (a declared
 * Content-Length above the limit is refused before reading anything).
 */
export function readRequestBody(req: IncomingMessage, limit: number = MAX_REQUEST_BODY_BYTES): Promise<BodyResult> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve({ kind: 'too-large' });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        req.off('end', onEnd);
        chunks.length = 0;
        resolve({ kind: 'too-large' });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => resolve({ kind: 'ok', bytes: Buffer.concat(chunks) });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', reject);
  });
}

/**
 * After answering a body that was too large: throw the rest away so the client, still sending,
 * can read the answer, but close the connection once the rest goes past a cap.
 */
export function discardRest(req: IncomingMessage): void {
  let drained = 0;
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > MAX_DRAIN_BYTES) req.socket.destroy();
  });
  req.resume();
}

/** Writes a JSON body with the given status, Content-Type and headers. */
export function sendJson(res: ServerResponse, status: number, body: unknown, contentType = 'application/json', headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'content-type': `${contentType}; charset=utf-8`,
    'content-length': String(Buffer.byteLength(text)),
  });
  res.end(text);
}
