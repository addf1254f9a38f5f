/**
 * A curl command that repeats a recorded request, for failures in reports (docs/design.md section 4.2). The
 * configured credential appears as "$CONFORMANCE_TOKEN", which the user's shell expands; every
 * other word is quoted so that any body (quotes, emoji, newlines) reaches the server unchanged.
 * Values of the body that must be new on every run of the line (a ref_id, a government id) can
 * be given as shell variables (`fresh`): the line then sends what the variable holds instead.
 */
import { bodyText, type RecordedRequest } from '../../core/exchange.ts';
import { shellQuote } from '../../core/shell-word.ts';

/** The one variable every curl line, `conformance serve` and a run read the bearer token from. */
export const TOKEN_VARIABLE = 'CONFORMANCE_TOKEN';

/** Recorded Authorization values that stand for the run's real credential. */
const REDACTED_CREDENTIAL = /^(?:Bearer\s+)?(?:\[REDACTED\]|<redacted>|REDACTED|\*+|\$\{?CONFORMANCE_TOKEN\}?)$/i;
/** Headers curl sets itself from its arguments. */
const LEFT_TO_CURL = new Set(['user-agent', 'content-length', 'host']);

/** How a line sends its body: string values of the body (by their text) sent as a shell variable's value instead. */
export interface CurlOptions {
  fresh?: ReadonlyMap<string, string>;
}

/** `curl -sS -X PUT 'url' -H 'Content-Type: application/json' -H "Authorization: Bearer $CONFORMANCE_TOKEN" --data-raw '...'` */
export function toCurl(request: RecordedRequest, options: CurlOptions = {}): string {
  const parts = ['curl', '-sS'];
  // curl reads [ ] { } in a URL as glob patterns unless told not to.
  if (/[[\]{}]/.test(request.url)) parts.push('-g');
  parts.push('-X', /^[A-Z]+$/.test(request.method) ? request.method : shellQuote(request.method), shellQuote(request.url));
  for (const [name, value] of Object.entries(request.headers)) {
    const lower = name.toLowerCase();
    if (LEFT_TO_CURL.has(lower)) continue;
    if (lower === 'authorization' && REDACTED_CREDENTIAL.test(value.trim())) {
      // Double quotes: the shell expands the variable, so the token never sits in the report.
      parts.push('-H', `"Authorization: Bearer $${TOKEN_VARIABLE}"`);
    } else {
      parts.push('-H', shellQuote(`${displayName(name)}: ${value}`));
    }
  }
  const body = bodyText(request);
  if (body !== undefined) parts.push('--data-raw', bodyWord(body, options.fresh ?? new Map()));
  return parts.join(' ');
}

/**
 * The body as one shell word: quoted text, with each JSON string listed in `fresh` (its text, in
 * quotes as the body has it) replaced by its variable in double quotes, e.g.
 * `'{"ref_id":"'"$ref_id"'"}'`.
 */
function bodyWord(body: string, fresh: ReadonlyMap<string, string>): string {
  let pieces: (string | { variable: string })[] = [body];
  for (const [value, variable] of fresh) {
    const token = JSON.stringify(value);
    pieces = pieces.flatMap((piece) => {
      if (typeof piece !== 'string' || !piece.includes(token)) return [piece];
      return piece.split(token).flatMap((text, i) => (i === 0 ? [text] : ['"', { variable }, `"${text}`]));
    });
  }
  const joined = pieces.reduce<(string | { variable: string })[]>((all, piece) => {
    const last = all.at(-1);
    if (typeof piece === 'string' && typeof last === 'string') all[all.length - 1] = last + piece;
    else all.push(piece);
    return all;
  }, []);
  return joined.map((piece) => (typeof piece === 'string' ? (piece === '' ? '' : shellQuote(piece)) : `"$${piece.variable}"`)).join('') || "''";
}

export { shellWord } from '../../core/shell-word.ts';

/** `content-type` -> `Content-Type`: how the headers read in documentation. */
function displayName(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_m, dash: string, letter: string) => dash + letter.toUpperCase());
}
