/**
 * The two ways a run cannot start (CLI exit code 3). Both carry one line meant for the user and
 * never a credential.
 */

/** The target or the token endpoint gave no HTTP answer: "cannot reach http://...: ECONNREFUSED". */
export class UnreachableError extends Error {
  override name = 'UnreachableError';
}

/** The token endpoint refused the client credentials, or answered without a usable token. */
export class AuthenticationError extends Error {
  override name = 'AuthenticationError';
}

/** A URL fit for a message: user info (which may hold credentials) is dropped. */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.username && !parsed.password) return url;
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return url;
  }
}
