/**
 * The one place the harness reaches inside pactum. pactum (3.9) hands its request options to
 * phinx, which buffers the whole answer (a quadratic Buffer.concat, then a 50 MB limit whose
 * reject path throws inside a 'data' listener and kills the process) unless the options say
 * `stream: true`: then phinx resolves with node's IncomingMessage, still unread, and the harness
 * reads the body itself under its own cap (body-stream.ts). pactum has no public API for that
 * option; its spec keeps the options in `_request`. tests/engine/transport/pactum-stream.test.ts
 * fails if a pactum upgrade moves it.
 *
 * The proxy's agent (proxy-route.ts) goes the same way: pactum's documented `withCore({ agent })`
 * deep-copies its options (deep-override), which turns an Agent into a plain object that
 * node:http refuses, so the agent is set on the core options pactum hands to node as they are.
 */
import type { Agent } from 'node:http';
import type { Readable } from 'node:stream';

/** The request options pactum keeps on its spec. Throws when pactum no longer keeps `_request`. */
function optionsOf(spec: object): { stream?: boolean; core?: { agent?: Agent } } {
  const options = (spec as { _request?: unknown })._request;
  if (typeof options !== 'object' || options === null) {
    throw new Error('pactum no longer keeps its request options in spec._request: see src/engine/transport/pactum-stream.ts');
  }
  return options;
}

/** Asks pactum's spec for the answer as a stream. Throws when pactum no longer keeps `_request`. */
export function requestAsStream(spec: object): void {
  optionsOf(spec).stream = true;
}

/** Sends pactum's request through `agent` (node's `agent` option of http.request). */
export function requestThrough(spec: object, agent: Agent): void {
  const options = optionsOf(spec);
  options.core = { ...options.core, agent };
}

/** What pactum resolves with when the answer was streamed: the response, its body still to read. */
export function asStream(raw: unknown): Readable | undefined {
  const candidate = raw as Partial<Readable> | null;
  return candidate && typeof candidate.on === 'function' && typeof candidate.destroy === 'function' && typeof candidate.pause === 'function'
    ? (candidate as Readable)
    : undefined;
}
