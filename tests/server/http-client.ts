/** A small HTTP client for the server tests: real requests on loopback, every answer as data. */
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import type { ReferenceServer } from '../../src/server/server.ts';

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: any;
}

export interface CallOptions {
  /** Sent as JSON. */
  body?: unknown;
  /** Sent verbatim instead of `body`. */
  raw?: string | Buffer;
  /** Bearer token; default the server's static token; null sends no Authorization. */
  token?: string | null;
  headers?: Record<string, string>;
  /** No body at all, labelled application/json, with no Content-Length (what curl -X PUT -H 'Content-Type: application/json' sends). */
  bodyless?: true;
}

/** One request; rejects only when no HTTP answer comes (e.g. a dropped connection). */
/** Any server of the tests: the embedded one, or a foreign one given as its base URL and token. */
export type CallTarget = Pick<ReferenceServer, 'baseUrl' | 'staticToken'>;

export function call(server: CallTarget, method: string, path: string, options: CallOptions = {}): Promise<Reply> {
  const payload = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const token = options.token === undefined ? server.staticToken : options.token;
  const headers: Record<string, string> = {
    ...(payload !== undefined ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) } : {}),
    ...(options.bodyless ? { 'content-type': 'application/json' } : {}),
    ...(token !== null ? { authorization: `Bearer ${token}` } : {}),
    ...options.headers,
  };
  return new Promise((resolve, reject) => {
    const req = http.request(`${server.baseUrl}${path}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    // Node frames a PUT or POST ended without data with "Content-Length: 0" unless told otherwise.
    if (options.bodyless) (req as unknown as { useChunkedEncodingByDefault: boolean }).useChunkedEncodingByDefault = false;
    req.end(payload);
  });
}

export const accountPath = (id: string) => `/v2/transfer/fiat-accounts/${id}`;
export const IDENTITIES = '/v2/identity/identities';

export const update = (server: ReferenceServer, body: unknown, options: CallOptions = {}, id = server.fiatAccountIds[0]) =>
  call(server, 'PUT', accountPath(id), { body, ...options });

export const create = (server: ReferenceServer, body: unknown, options: CallOptions = {}) => call(server, 'POST', IDENTITIES, { body, ...options });

/** A valid create body (tax rule satisfied by the flag) with a fresh ref_id. */
export function identityBody(extra: Record<string, unknown> = {}, person: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    person_details: { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1990-01-01', ...person },
    tax_details_not_required: true,
    ref_id: `test-${randomUUID()}`,
    ...extra,
  };
}

/** `count` metadata pairs k1..kN. */
export const pairs = (count: number, value = 'v'): Record<string, string> => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i + 1}`, value]));

/** What the nested placement (the sample's) holds: status, metadata and wire inside fiat_account_owner.fiat_network_instructions. */
export function nested(json: any): { status?: unknown; metadata?: Record<string, unknown>; wire?: Record<string, unknown> } {
  return json?.fiat_account_owner?.fiat_network_instructions ?? {};
}

/** Form-encoded POST to the token endpoint. */
export function tokenRequest(server: ReferenceServer, form: Record<string, string>, headers: Record<string, string> = {}): Promise<Reply> {
  return call(server, 'POST', '/oauth/token', {
    raw: new URLSearchParams(form).toString(),
    token: null,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  });
}
