/**
 * The one place the harness reaches inside pactum. pactum (3.9) hands its request options to
 * phinx, which buffers the whole answer (a quadratic Buffer.concat, then a 50 MB limit whose
 * reject path throws inside a 'data' listener and kills the process) unless the options say
 * `stream: true`: then phinx resolves with node's IncomingMessage, still unread, and the harness
 * reads the body itself under its own cap (body-stream.ts). pactum has no public API for that
 * option; its spec keeps the options in `_request`. tests/engine/transport/pactum-stream.test.ts
 * fails if a pactum upgrade moves it.
 */
import type { Readable } from 'node:stream';

/** Asks pactum's spec for the answer as a stream. Throws when pactum no longer keeps `_request`. */
export function requestAsStream(spec: object): void {
  const options = (spec as { _request?: unknown })._request;
  if (typeof options !== 'object' || options === null) {
    throw new Error('pactum no longer keeps its request options in spec._request: see src/engine/transport/pactum-stream.ts');
  }
  (options as { stream?: boolean }).stream = true;
}

/** What pactum resolves with when the answer was streamed: the response, its body still to read. */
export function asStream(raw: unknown): Readable | undefined {
  const candidate = raw as Partial<Readable> | null;
  return candidate && typeof candidate.on === 'function' && typeof candidate.destroy === 'function' && typeof candidate.pause === 'function'
    ? (candidate as Readable)
    : undefined;
}
