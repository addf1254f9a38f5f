/**
 * Loopback token endpoints as they are found: reading the client credentials from HTTP Basic,
 * from the form body, or both; failing after a number of tokens. Made-up credentials only.
 */
import type http from 'node:http';
import { json, type Handler, type LocalServer } from './local-server.ts';

// Characters RFC 6749 2.3.1 wants form-encoded before base64: space, colon, ampersand, non-ASCII.
export const CLIENT_ID = 'client id:1';
export const SECRET = 's3cret &:é value';

export interface TokenEndpointOptions {
  expiresIn?: number | string;
  /** Where it reads the credentials; a request with them elsewhere gets `refusal`. Default both. */
  reads?: 'basic' | 'body' | 'both';
  refusal?: { status: number; body?: unknown };
  /** An answer for token request `n` (0-based, counting every request) instead of the usual one. */
  override?: (n: number, res: http.ServerResponse) => boolean;
}

export interface TokenEndpoint extends LocalServer {
  tokenUrl: string;
  /** How each request sent the credentials. */
  methods(): ('basic' | 'body' | 'none')[];
}

/** Issues tok-1, tok-2 ... to the right credentials; the secret is echoed in error_description, to prove it is never quoted. */
export async function tokenEndpoint(serve: (handler: Handler) => Promise<LocalServer>, options: TokenEndpointOptions = {}): Promise<TokenEndpoint> {
  let issued = 0;
  const refusal = options.refusal ?? { status: 401, body: { error: 'invalid_client' } };
  const server = await serve((req, res) => {
    const n = server.seen.indexOf(req);
    if (options.override?.(n, res)) return;
    const form = new URLSearchParams(req.body);
    const basic = basicCredentials(req.headers.authorization);
    const method = basic ? 'basic' : 'body';
    if (options.reads && options.reads !== 'both' && options.reads !== method) {
      return refusal.body === undefined ? res.writeHead(refusal.status).end() : json(res, refusal.status, refusal.body);
    }
    const [id, secret] = basic ?? [form.get('client_id'), form.get('client_secret')];
    if (form.get('grant_type') !== 'client_credentials' || id !== CLIENT_ID || secret !== SECRET) {
      return json(res, 401, { error: 'invalid_client', error_description: `bad secret ${SECRET}` });
    }
    issued++;
    json(res, 200, { access_token: `tok-${issued}`, token_type: 'Bearer', ...(options.expiresIn !== undefined ? { expires_in: options.expiresIn } : {}) });
  });
  return {
    ...server,
    tokenUrl: `${server.url}/oauth/token`,
    methods: () =>
      server.seen.map((s) => (s.headers.authorization?.startsWith('Basic ') ? 'basic' : new URLSearchParams(s.body).has('client_secret') ? 'body' : 'none')),
  };
}

function basicCredentials(header: string | undefined): (string | null)[] | undefined {
  const encoded = /^Basic (.+)$/.exec(header ?? '')?.[1];
  if (!encoded) return undefined;
  return Buffer.from(encoded, 'base64')
    .toString('utf8')
    .split(':')
    .map((part) => new URLSearchParams(`v=${part}`).get('v'));
}

/** A target that accepts only the given tokens. */
export const target = (serve: (handler: Handler) => Promise<LocalServer>, accepted: (token: string) => boolean) =>
  serve((req, res) => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    if (accepted(token)) json(res, 200, { id: 'i-1' });
    else json(res, 401, { error: 'unauthorized' });
  });
