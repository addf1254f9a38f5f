/**
 * How the harness authenticates to the target (document section 5: OAuth 2 client credentials,
 * `Authorization: Bearer <ACCESS_TOKEN>`). Resolved once by the configuration.
 *
 * - `none`: no Authorization header (only the embedded server or a deliberately open target).
 * - `static`: a bearer token the user already holds.
 * - `client-credentials`: the harness fetches tokens from `tokenUrl` (RFC 6749 section 4.4).
 */
export type AuthConfig =
  | { kind: 'none' }
  | { kind: 'static'; token: string }
  | { kind: 'client-credentials'; tokenUrl: string; clientId: string; clientSecret: string; scope?: string };
