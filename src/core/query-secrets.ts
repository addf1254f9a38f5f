/**
 * Credentials in URL query strings (docs/design.md 5.9): `--auth-url https://x/token?api_key=…`,
 * a base URL with `?signature=…`. A URL is recorded in the bundle's command line, in messages
 * that name the token endpoint, in exchanges.har and the reports; the value of a query parameter
 * whose name looks secret is replaced there, and every query value of a credential URL (the token
 * endpoint's) on the command line.
 */
import { REDACTED } from './redaction.ts';

/** Names of query parameters that carry credentials: api_key, apikey, access_token, X-Amz-Signature, sig, auth, password ... */
const SECRET_NAME = /key|token|secret|passw|pwd|signature|^sig$|auth|credential|session/i;

function decoded(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/** Whether a query parameter's name says its value is a credential. */
export const isSecretQueryName = (name: string): boolean => SECRET_NAME.test(decoded(name));

/**
 * `url` with the values of its query parameters replaced by [REDACTED]: those whose name looks
 * secret, or every one when `all` (a bare `?value` too). The rest of the text is kept as typed.
 */
export function urlWithoutSecrets(url: string, all = false): string {
  const query = url.indexOf('?');
  if (query < 0) return url;
  const hash = url.indexOf('#', query);
  const end = hash < 0 ? url.length : hash;
  const params = url
    .slice(query + 1, end)
    .split('&')
    .map((param) => {
      const equals = param.indexOf('=');
      if (equals < 0) return all && param !== '' ? REDACTED : param;
      const name = param.slice(0, equals);
      return all || isSecretQueryName(name) ? `${name}=${REDACTED}` : param;
    });
  return `${url.slice(0, query + 1)}${params.join('&')}${url.slice(end)}`;
}

/** `?api_key=abc` or `&token=abc` (`&amp;token=` in HTML) anywhere in a text: the value up to the next separator, quote or space. */
const QUERY_PARAM = /([?&](?:amp;)?([A-Za-z0-9_.~%+-]+)=)([^&#\s'"\\<>]+)/g;

/** `text` with the value of every secret-looking query parameter replaced. */
export function redactQuerySecrets(text: string): string {
  if (!text.includes('=')) return text;
  return text.replace(QUERY_PARAM, (whole, head: string, name: string) => (isSecretQueryName(name) ? `${head}${REDACTED}` : whole));
}
