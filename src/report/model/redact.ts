/**
 * Defence in depth against leaking credentials into reports and the console. The transport
 * already redacts the Authorization header it records; this catches everything else: a token a
 * server echoes in a body, a client secret quoted in an error message, a token response saved as
 * an exchange, a query parameter named like a credential in any URL (`?api_key=…`). Every writer
 * passes its data through `value()` and its final text through `text()`.
 */

import { REDACTED } from '../../core/redaction.ts';
import { redactQuerySecrets } from '../../core/query-secrets.ts';

/** Header names whose values are credentials whatever they hold. */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key']);
/** JSON / form fields of OAuth token requests and responses. */
const SECRET_FIELDS = new Set(['access_token', 'refresh_token', 'id_token', 'client_secret', 'password']);

/** Values that are already placeholders stay as they are, so curl lines (and the token request before them, reproduce-setup.ts) remain usable. */
const PLACEHOLDER = /^(?:(?:Bearer|Basic)\s+)?(?:\$\{?CONFORMANCE_(?:TOKEN|CLIENT_SECRET)\}?|\[REDACTED\]|<redacted>|\*+|REDACTED)$/i;

const HEADER_NAMES = '(?:proxy-authorization|authorization|set-cookie|cookie|x-api-key)';
// `Authorization: Bearer abc` in plain text, a curl -H argument or an HTML-escaped curl line;
// the value stops at a quote, a backslash (JSON escape), a markup character or the line end.
const HEADER_LINE = new RegExp(`(\\b${HEADER_NAMES}\\s*:[ \\t]*)([^'"\\\\\\r\\n<&]+)`, 'gi');
// `"authorization": "Bearer abc"` in JSON text.
const HEADER_JSON = new RegExp(`("${HEADER_NAMES}"\\s*:\\s*")((?:[^"\\\\]|\\\\.)*)(")`, 'gi');
// `"access_token": "..."` in JSON text and `client_secret=...` in form bodies and query strings.
const FIELD_JSON = /("(?:access_token|refresh_token|id_token|client_secret|password)"\s*:\s*")((?:[^"\\]|\\.)*)(")/gi;
const FIELD_FORM = /(\b(?:access_token|refresh_token|id_token|client_secret|password)=)([^&\s'"\\<]+)/gi;
/** Every pattern above starts with one of these names: without one, none can match. */
const CREDENTIAL_NAME = /authorization|cookie|x-api-key|access_token|refresh_token|id_token|client_secret|password/i;

const keepPlaceholder = (value: string): string => {
  const trimmed = value.trim();
  if (PLACEHOLDER.test(trimmed)) return value;
  const scheme = /^(Bearer|Basic|Digest)\s+/i.exec(trimmed);
  return scheme ? `${scheme[1]} ${REDACTED}` : REDACTED;
};

/** The spellings a secret can take once written into JSON, XML/HTML or a URL. */
function spellings(secret: string): string[] {
  const forms = new Set<string>([secret]);
  forms.add(JSON.stringify(secret).slice(1, -1));
  forms.add(secret.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;'));
  forms.add(secret.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;'));
  forms.add(encodeURIComponent(secret));
  forms.add(Buffer.from(secret, 'utf8').toString('base64'));
  // Longest first, so a longer spelling is not half-replaced by a shorter one.
  return [...forms].filter((f) => f.length > 0).sort((a, b) => b.length - a.length);
}

/**
 * A secret shorter than this (a test token such as "t") is replaced only where it stands alone:
 * replaced inside words it would mangle every text and key of a report ("targe[REDACTED]").
 */
const SHORT_SECRET = 8;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** How deep data is copied; deeper values become a note (see `walk`). */
const MAX_DEPTH = 64;

/** Replaces secrets in strings and credential headers/fields in data. */
export class Redactor {
  private readonly forms: string[];

  /** @param secrets the configured token, client secret and every access token issued during the run. */
  constructor(secrets: readonly (string | undefined | null)[]) {
    const clean = [...new Set(secrets.filter((s): s is string => typeof s === 'string' && s.trim().length > 0))];
    const forms = [...new Set(clean.flatMap(spellings))].sort((a, b) => b.length - a.length);
    this.forms = forms.filter((f) => f.length >= SHORT_SECRET);
    this.shortForms = forms.filter((f) => f.length < SHORT_SECRET).map((f) => new RegExp(`(?<![\\w.~+/-])${escapeRegExp(f)}(?![\\w.~+/-])`, 'g'));
  }

  private readonly shortForms: RegExp[];

  /** A string with every secret spelling and every credential header/field value replaced. */
  text(input: string): string {
    let out = input;
    // exchanges.har redacts every string of every exchange: skip what cannot match, cheaply.
    for (const form of this.forms) if (out.includes(form)) out = out.split(form).join(REDACTED);
    for (const pattern of this.shortForms) out = out.replace(pattern, REDACTED);
    // `?api_key=…` in any URL recorded (a token endpoint named in a message, a request's URL).
    out = redactQuerySecrets(out);
    if (!CREDENTIAL_NAME.test(out)) return out;
    out = out.replace(HEADER_JSON, (_m, head: string, value: string, tail: string) => head + keepPlaceholder(value) + tail);
    out = out.replace(HEADER_LINE, (_m, head: string, value: string) => head + keepPlaceholder(value));
    out = out.replace(FIELD_JSON, (_m, head: string, _value: string, tail: string) => head + REDACTED + tail);
    out = out.replace(FIELD_FORM, (_m, head: string, value: string) => head + (PLACEHOLDER.test(value) ? value : REDACTED));
    return out;
  }

  /** Headers with credential values replaced and secrets removed from the rest. */
  headers(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      out[this.text(name)] = SECRET_HEADERS.has(name.toLowerCase()) ? keepPlaceholder(String(value)) : this.text(String(value));
    }
    return out;
  }

  /**
   * A deep copy of any JSON-like value with secrets removed from every string (keys included),
   * credential header maps and HAR-style `{name, value}` header pairs redacted, and token fields
   * (`access_token`, `client_secret`, ...) replaced.
   */
  value<T>(input: T): T {
    return this.walk(input) as T;
  }

  private walk(input: unknown, depth = 0): unknown {
    if (typeof input === 'string') return this.text(input);
    if (input === null || typeof input !== 'object') return input;
    // A hostile body nested thousands deep would overflow the stack and cost every report: keep
    // the outer levels as data; the response's rawBody (redacted as text) still holds the rest.
    if (depth >= MAX_DEPTH) return `[nested deeper than ${MAX_DEPTH} levels: see rawBody]`;
    if (Array.isArray(input)) return input.map((item) => this.walk(item, depth + 1));
    const record = input as Record<string, unknown>;
    const namedPair = typeof record.name === 'string' && typeof record.value === 'string';
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(record)) {
      const lower = key.toLowerCase();
      if (typeof value === 'string' && (SECRET_HEADERS.has(lower) || SECRET_FIELDS.has(lower))) {
        out[this.text(key)] = SECRET_FIELDS.has(lower) ? REDACTED : keepPlaceholder(value);
      } else if (namedPair && key === 'value' && SECRET_HEADERS.has(String(record.name).toLowerCase())) {
        out[key] = keepPlaceholder(value as string);
      } else {
        out[this.text(key)] = this.walk(value, depth + 1);
      }
    }
    return out;
  }
}
