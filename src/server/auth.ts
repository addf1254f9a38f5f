/**
 * OAuth 2 client credentials (section 5) for the embedded server: one client with a random id
 * and secret, a token endpoint, a static token, and bearer checks. These are the embedded
 * server's own throwaway credentials, made fresh for every server.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson } from './http-io.ts';

/** Lifetime of an issued token, in seconds. */
export const TOKEN_LIFETIME_SECONDS = 3600;

/** `grant`: which token it was (its number, `static` for the static token), never the token itself. */
export type BearerCheck = { kind: 'missing' } | { kind: 'invalid' } | { kind: 'valid'; owner: string; grant: string };

export interface Authenticator {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly staticToken: string;
  /** Answers POST /oauth/token (form-encoded, credentials in the body or HTTP Basic). */
  handleTokenRequest(req: IncomingMessage, bodyText: string, res: ServerResponse): void;
  /** Who the Authorization header belongs to (the API user), if anyone. */
  checkBearer(header: string | undefined): BearerCheck;
}

// Hex, not base64url: a credential that starts with '-' reads as a flag when pasted after --client-secret.
const randomSecret = (bytes: number) => randomBytes(bytes).toString('hex');

/** Compares without leaking, through timing, how much of a secret matched. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** RFC 6749 2.3.1: Basic credentials are form-encoded before base64. */
function basicCredentials(header: string | undefined): { id: string; secret: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const formDecode = (s: string) => {
    try {
      return decodeURIComponent(s.replace(/\+/g, ' '));
    } catch {
      return s;
    }
  };
  return { id: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
}

const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

export function createAuthenticator(): Authenticator {
  const clientId = `embedded-${randomSecret(6)}`;
  const clientSecret = randomSecret(24);
  const staticToken = randomSecret(32);
  const issued = new Map<string, { owner: string; expiresAt: number; grant: string }>();
  let grants = 0;

  const forgetExpired = (now: number) => {
    for (const [token, grant] of issued) if (grant.expiresAt <= now) issued.delete(token);
  };

  return {
    clientId,
    clientSecret,
    staticToken,

    handleTokenRequest(req, bodyText, res) {
      const form = new URLSearchParams(bodyText);
      const basic = basicCredentials(req.headers.authorization);
      const id = basic?.id ?? form.get('client_id') ?? '';
      const secret = basic?.secret ?? form.get('client_secret') ?? '';
      if (id !== clientId || !sameSecret(secret, clientSecret)) {
        sendJson(res, 401, { error: 'invalid_client', error_description: 'unknown client or wrong client secret' }, 'application/json', {
          ...NO_STORE,
          'www-authenticate': 'Basic realm="conformance-embedded"',
        });
        return;
      }
      const grantType = form.get('grant_type');
      if (grantType !== 'client_credentials') {
        const error = grantType === null ? 'invalid_request' : 'unsupported_grant_type';
        sendJson(res, 400, { error, error_description: 'grant_type must be client_credentials' }, 'application/json', NO_STORE);
        return;
      }
      const now = Date.now();
      forgetExpired(now);
      const token = randomSecret(32);
      issued.set(token, { owner: clientId, expiresAt: now + TOKEN_LIFETIME_SECONDS * 1000, grant: String(++grants) });
      const scope = form.get('scope');
      sendJson(
        res,
        200,
        { access_token: token, token_type: 'Bearer', expires_in: TOKEN_LIFETIME_SECONDS, ...(scope ? { scope } : {}) },
        'application/json',
        NO_STORE,
      );
    },

    checkBearer(header) {
      if (header === undefined || header.trim() === '') return { kind: 'missing' };
      const token = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
      if (!token) return { kind: 'invalid' };
      // The static token belongs to the one client, like the tokens it is issued.
      if (sameSecret(token, staticToken)) return { kind: 'valid', owner: clientId, grant: 'static' };
      const grant = issued.get(token);
      return grant && grant.expiresAt > Date.now() ? { kind: 'valid', owner: grant.owner, grant: grant.grant } : { kind: 'invalid' };
    },
  };
}
