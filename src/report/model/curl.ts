/**
 * A curl command that repeats a recorded request, for failures in reports (docs/design.md section 4.2). The
 * configured credential appears as "$CONFORMANCE_TOKEN", which the user's shell expands; every
 * other word is quoted so that any body (quotes, emoji, newlines) reaches the server unchanged.
 */
import { bodyText, type RecordedRequest } from '../../core/exchange.ts';

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

/**
 * One shell word that a POSIX shell (and bash) reads back as `value` exactly. Single quotes
 * keep everything literal, UTF-8 included; text with control characters (a raw newline is easy
 * to break when pasting) uses bash's $'...' with escapes instead.
 */
/** A word as a command line shows it: plain words as they are, anything else quoted by shellQuote. */
export const shellWord = (value: string): string => (/^[\w./:@%+=,-]+$/.test(value) ? value : shellQuote(value));

export function shellQuote(value: string): string {
  if (!/[\x00-\x1f\x7f]/.test(value)) return `'${value.replace(/'/g, `'\\''`)}'`;
  const escaped = [...value]
    .map((ch) => {
      if (ch === '\\') return '\\\\';
      if (ch === "'") return "\\'";
      const code = ch.codePointAt(0)!;
      return code < 0x20 || code === 0x7f ? `\\x${code.toString(16).padStart(2, '0')}` : ch;
    })
    .join('');
  return `$'${escaped}'`;
}

/** `content-type` -> `Content-Type`: how the headers read in documentation. */
function displayName(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_m, dash: string, letter: string) => dash + letter.toUpperCase());
}
