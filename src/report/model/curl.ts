/**
 * A curl command that repeats a recorded request, for failures in reports (docs/design.md section 4.2). The
 * configured credential appears as "$CONFORMANCE_TOKEN", which the user's shell expands; every
 * other word is quoted so that any body (quotes, emoji, newlines) reaches the server unchanged.
 */
import { bodyText, type RecordedRequest } from '../../core/exchange.ts';
import { shellQuote } from '../../core/shell-word.ts';

/** Recorded Authorization values that stand for the run's real credential. */
const REDACTED_CREDENTIAL = /^(?:Bearer\s+)?(?:\[REDACTED\]|<redacted>|REDACTED|\*+|\$\{?CONFORMANCE_TOKEN\}?)$/i;
/** Headers curl sets itself from its arguments. */
const LEFT_TO_CURL = new Set(['user-agent', 'content-length', 'host']);

/** `curl -sS -X PUT 'url' -H 'Content-Type: application/json' -H "Authorization: Bearer $CONFORMANCE_TOKEN" --data-raw '...'` */
export function toCurl(request: RecordedRequest): string {
  const parts = ['curl', '-sS'];
  // curl reads [ ] { } in a URL as glob patterns unless told not to.
  if (/[[\]{}]/.test(request.url)) parts.push('-g');
  parts.push('-X', /^[A-Z]+$/.test(request.method) ? request.method : shellQuote(request.method), shellQuote(request.url));
  for (const [name, value] of Object.entries(request.headers)) {
    const lower = name.toLowerCase();
    if (LEFT_TO_CURL.has(lower)) continue;
    if (lower === 'authorization' && REDACTED_CREDENTIAL.test(value.trim())) {
      // Double quotes: the shell expands the variable, so the token never sits in the report.
      parts.push('-H', '"Authorization: Bearer $CONFORMANCE_TOKEN"');
    } else {
      parts.push('-H', shellQuote(`${displayName(name)}: ${value}`));
    }
  }
  const body = bodyText(request);
  if (body !== undefined) parts.push('--data-raw', shellQuote(body));
  return parts.join(' ');
}

export { shellWord } from '../../core/shell-word.ts';

/** `content-type` -> `Content-Type`: how the headers read in documentation. */
function displayName(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_m, dash: string, letter: string) => dash + letter.toUpperCase());
}
