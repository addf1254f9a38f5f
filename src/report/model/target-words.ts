/**
 * The target's own words: one short line of what the target answered, for every failure line of
 * the console, summary.md and junit.xml (`— target said: "first_name must be ASCII"`).
 *
 * Where the words come from, first found wins:
 *  1. a JSON error detail of the body: `message`, `detail`, `error_description` (after `error`),
 *     `error` (a string, or an object holding these fields), `title`, with `errors[0]`'s
 *     message/detail added (then where it points, which may be long);
 *  2. the first header a validating proxy sets: `sl-violations`, `x-violations`, `problem-details`
 *     (a JSON list of violations gives its first message);
 *  3. the body itself: the compact JSON, or the text (an HTML page gives its title, else its text).
 *
 * The whole source is redacted before it is cut, so a secret cut in half cannot slip past the
 * redaction of the finished text.
 */
import type { RecordedResponse } from '../../core/exchange.ts';
import { oneLine } from '../../core/text.ts';
import type { ReportFailure } from './model.ts';
import { Redactor } from './redact.ts';

/** Longest excerpt, in code points. */
export const TARGET_WORDS_WIDTH = 120;

/** Headers a validating proxy (Prism and others) uses to say what was wrong, in preference order. */
export const VIOLATION_HEADERS = ['sl-violations', 'x-violations', 'problem-details'] as const;

/** Fields of a JSON error body that carry the explanation, in preference order. */
const DETAIL_FIELDS = ['message', 'detail', 'error_description', 'title'] as const;

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/** `errors[0]` (or `violations[0]`) as one phrase: where it points, then what it says. */
function firstError(body: Json): string | undefined {
  const list = Array.isArray(body.errors) ? body.errors : Array.isArray(body.violations) ? body.violations : undefined;
  const first: unknown = list?.[0];
  if (text(first)) return text(first);
  if (!isObject(first)) return undefined;
  const said = text(first.message) ?? text(first.detail) ?? text(first.title) ?? text(first.description);
  if (!said) return undefined;
  const where = text(first.instancePath) ?? text(first.pointer) ?? text(first.field) ?? text(first.path) ?? text(first.location) ?? text(first.param);
  // What it says first: a long path (a 100-character metadata key) must not crowd it out of the line.
  return where && !said.includes(where) ? `${said} (at ${where})` : said;
}

/** The explanation a JSON error body gives, or undefined when it has none of the usual fields. */
export function jsonErrorDetail(body: unknown, depth = 0): string | undefined {
  if (Array.isArray(body)) return depth < 2 && body.length ? (jsonErrorDetail(body[0], depth + 1) ?? text(body[0])) : undefined;
  if (!isObject(body)) return undefined;
  let main: string | undefined;
  const code = text(body.error);
  if (code && text(body.error_description)) main = `${code}: ${text(body.error_description)}`;
  main ??= text(body.message) ?? text(body.detail);
  if (!main && isObject(body.error) && depth < 2) main = jsonErrorDetail(body.error, depth + 1);
  main ??= code ?? DETAIL_FIELDS.map((f) => text(body[f])).find(Boolean);
  const specific = firstError(body);
  if (main && specific && !main.includes(specific)) return `${main}: ${specific}`;
  return main ?? specific;
}

/** The first violation a proxy header reports: a JSON list or object gives its message, else the raw value. */
function violationHeader(headers: Record<string, string>): string | undefined {
  const lower = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
  for (const name of VIOLATION_HEADERS) {
    const value = text(lower.get(name));
    if (!value) continue;
    try {
      const parsed: unknown = JSON.parse(value);
      const said = jsonErrorDetail(parsed);
      if (said) return said;
    } catch {
      // not JSON: the value as it is
    }
    return value;
  }
  return undefined;
}

/** A text body as words: an HTML page gives its title, else its text without tags. */
function plainText(raw: string): string | undefined {
  if (/^\s*</.test(raw) && /<\/?(?:html|head|body|title|h1|p|div)\b/i.test(raw)) {
    const title = text(/<title[^>]*>([\s\S]*?)<\/title>/i.exec(raw)?.[1]);
    const stripped = raw.replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, ' ');
    return title ?? text(stripped);
  }
  return text(raw);
}

/**
 * One line, at most TARGET_WORDS_WIDTH code points, of what the target answered; undefined when it
 * said nothing (no response, or an empty answer). `redactor` should hold the run's secrets; without
 * one, credential headers and token fields are still redacted.
 */
export function targetWords(response: RecordedResponse | undefined, redactor: Redactor = new Redactor([])): string | undefined {
  if (!response) return undefined;
  const body: unknown = response.json ? (response.body ?? parseJson(response.rawBody)) : parseJson(response.rawBody);
  // Redact the data before reading fields out of it, so a token field never becomes the words.
  const safeBody = body === undefined ? undefined : redactor.value(body);
  const said =
    jsonErrorDetail(safeBody) ??
    violationHeader(redactor.headers(response.headers ?? {})) ??
    (safeBody !== undefined && typeof safeBody === 'object' ? JSON.stringify(safeBody) : undefined) ??
    plainText(response.rawBody ?? '');
  if (!said) return undefined;
  const line = oneLine(redactor.text(said), TARGET_WORDS_WIDTH);
  return line || undefined;
}

function parseJson(raw: string | undefined): unknown {
  if (!raw || !/^\s*[[{]/.test(raw)) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/**
 * ` — target said: "…"` for a failure line, or '' when the target said nothing, or when the
 * failure's message already quotes the same words.
 */
export function targetSaidSuffix(failure: Pick<ReportFailure, 'message' | 'response'> | undefined, redactor?: Redactor): string {
  const words = targetWords(failure?.response, redactor);
  if (!words || failure!.message.includes(words)) return '';
  return ` — target said: "${words}"`;
}
