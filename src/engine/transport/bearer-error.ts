/**
 * The `error` code of a Bearer challenge (RFC 6750 section 3): what a 401 to the run's own token
 * says about it. `invalid_token` (expired, revoked, malformed) asks for a new token; another code
 * (`invalid_request`, `insufficient_scope`) says a new token would be refused alike; none at all
 * says nothing (many servers send a bare `Bearer` challenge, or none).
 */

/** The error code of the Bearer challenge in a WWW-Authenticate value, lower-cased; undefined when there is none. */
export function bearerError(header: string | undefined): string | undefined {
  if (!header) return undefined;
  // The scheme is case-insensitive (RFC 9110 11.1); its parameters run to the next scheme or the end.
  const challenge = /(?:^|,)\s*Bearer(?:\s+((?:[^,]|,\s*[\w!#$%&'*+.^`|~-]+\s*=)*))?/i.exec(header)?.[1] ?? '';
  const code = /(?:^|[\s,])error\s*=\s*(?:"([^"]*)"|([^\s,]+))/i.exec(challenge);
  const value = code?.[1] ?? code?.[2];
  return value ? value.toLowerCase() : undefined;
}

/** Whether a 401 with this challenge is worth a renewal: its error says the token is the problem, or it says nothing. */
export const renewalMayHelp = (header: string | undefined): boolean => {
  const error = bearerError(header);
  return error === undefined || error === 'invalid_token';
};
