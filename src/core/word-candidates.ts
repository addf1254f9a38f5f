/**
 * Every place a target puts its reason for an answer, read into candidates for the target's words
 * (target-words.ts chooses one): the error fields of a JSON body (`message`, `detail`,
 * `error_description`, `error`, `title`), every entry of its lists of validation errors, and the
 * headers a validating proxy sets. The lists come in many shapes, all read:
 * `errors` / `violations` / `validation` / `details` / `issues` entries with `field`, `path`,
 * `pointer`, `instancePath`, `loc` or `location` and `message`, `msg`, `detail` or `reason`;
 * RFC 7807 / 9457 `invalid-params` (`name`, `reason`); FastAPI's `detail: [{loc, msg}]`; Google's
 * `details[].fieldViolations`; a proxy's `sl-violations` JSON list.
 *
 * Callers pass data that is already redacted: a candidate is never read out of a secret.
 */

/** Where a candidate came from, in the order the target's words were read before (a tie goes to the earlier). */
export type CandidateSource = 'body-detail' | 'body-entry' | 'header-entry' | 'header';

export interface WordCandidate {
  /** One phrase: what it says, then where it points (`is required (at person_details.address.country)`). */
  text: string;
  source: CandidateSource;
  /** Where it points, as the target wrote it. */
  where?: string;
  /** `where` as a dotted path without indices or the `body.` prefix (`person_details.address.country`). */
  path?: string;
}

/** Headers a validating proxy (Prism and others) uses to say what was wrong, in preference order. */
export const VIOLATION_HEADERS = ['sl-violations', 'x-violations', 'problem-details'] as const;

/** Keys of a body that hold a list of validation errors. */
const ENTRY_LISTS = [
  'errors',
  'violations',
  'validation',
  'validation_errors',
  'validationErrors',
  'details',
  'detail',
  'issues',
  'invalid_params',
  'invalid-params',
  'invalidParams',
  'fieldViolations',
  'field_violations',
] as const;
/** Keys of an entry that say what is wrong, in preference order. */
const ENTRY_TEXT = ['message', 'msg', 'detail', 'reason', 'description', 'title', 'error'] as const;
/** Keys of an entry that say where, in preference order. */
const ENTRY_WHERE = ['instancePath', 'pointer', 'field', 'path', 'loc', 'location', 'param', 'name', 'property', 'source'] as const;
/** Leading segments of a location that name the part of the request, not a field of the body. */
const NOT_A_FIELD = new Set(['body', 'request', 'requestbody', 'response', 'responsebody', 'query', 'path', 'header', 'headers', '$', '#']);
/** How deep error objects nest before we stop looking (an `error` object holding `details` ...). */
const MAX_DEPTH = 6;

type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/** A location as the target wrote it: a string, a list of segments (FastAPI, a proxy), `{pointer}` (JSON:API `source`). */
function whereOf(entry: Json): string | undefined {
  for (const key of ENTRY_WHERE) {
    const value = entry[key];
    if (text(value)) return text(value);
    // Segments (FastAPI's loc, a proxy's location): shown as the dotted path they make.
    if (Array.isArray(value) && value.length && value.every((s) => typeof s === 'string' || typeof s === 'number')) return dottedPath(value.join('.'));
    if (isObject(value)) {
      const inner = text(value.pointer) ?? text(value.parameter) ?? text(value.field);
      if (inner) return inner;
    }
  }
  return undefined;
}

/** `/person_details/address/0/country`, `body.person_details.address[0].country`: `person_details.address.country`. */
export function dottedPath(where: string): string {
  const segments = where
    .replace(/\[(\d+|'[^']*'|"[^"]*")?\]/g, (_m, inner: string | undefined) => (inner && !/^\d+$/.test(inner) ? `.${inner.slice(1, -1)}` : ''))
    .split(/[./]/)
    .map((s) => s.trim())
    .filter((s) => s && !/^\d+$/.test(s));
  while (segments.length && NOT_A_FIELD.has(segments[0].toLowerCase())) segments.shift();
  return segments.join('.');
}

function entryCandidate(entry: unknown, source: CandidateSource): WordCandidate | undefined {
  if (text(entry)) return { text: text(entry)!, source };
  if (!isObject(entry)) return undefined;
  const said = ENTRY_TEXT.map((k) => text(entry[k])).find(Boolean);
  if (!said) return undefined;
  const path = dottedPath(whereOf(entry) ?? '');
  // A location that names no field (`request.body`, `$`) is no location.
  const where = path ? whereOf(entry) : undefined;
  // What it says first: a long path (a 100-character metadata key) must not crowd it out of the line.
  const phrase = where && !said.includes(where) && !(path && said.includes(path)) ? `${said} (at ${where})` : said;
  return { text: phrase, source, ...(where ? { where, path } : {}) };
}

/** Every entry of every list of validation errors in `body`, nested lists too (Google's `details[].fieldViolations`). */
export function entryCandidates(body: unknown, source: CandidateSource, depth = 0): WordCandidate[] {
  if (depth > MAX_DEPTH) return [];
  if (Array.isArray(body))
    return body.flatMap((entry) => [...entryList(entry, source, depth), ...[entryCandidate(entry, source)].filter((c) => c !== undefined)]);
  if (!isObject(body)) return [];
  const found: WordCandidate[] = [];
  for (const key of ENTRY_LISTS) if (Array.isArray(body[key])) found.push(...entryCandidates(body[key], source, depth + 1));
  if (isObject(body.error)) found.push(...entryCandidates(body.error, source, depth + 1));
  return found;
}

/** The lists an entry holds itself (a Google `BadRequest` detail holds its `fieldViolations`). */
const entryList = (entry: unknown, source: CandidateSource, depth: number): WordCandidate[] =>
  isObject(entry) && ENTRY_LISTS.some((k) => Array.isArray(entry[k])) ? entryCandidates(entry, source, depth + 1) : [];

/** The error fields of a JSON body: what it says as a whole (the main message, an OAuth error with its description). */
export function detailCandidates(body: unknown, depth = 0): WordCandidate[] {
  if (!isObject(body) || depth > MAX_DEPTH) return [];
  const found: string[] = [];
  const code = text(body.error);
  if (code && text(body.error_description)) found.push(`${code}: ${text(body.error_description)}`);
  for (const key of ['message', 'detail', 'error_description'] as const) if (text(body[key])) found.push(text(body[key])!);
  const nested = isObject(body.error) ? detailCandidates(body.error, depth + 1) : [];
  if (code && !found.length) found.push(code);
  if (text(body.title)) found.push(text(body.title)!);
  return [...[...new Set(found)].map((t): WordCandidate => ({ text: t, source: 'body-detail' })), ...nested];
}

/** The violations a proxy header reports: every entry of a JSON list or object, else the raw value. */
export function headerCandidates(headers: Record<string, string>): WordCandidate[] {
  const lower = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
  const found: WordCandidate[] = [];
  for (const name of VIOLATION_HEADERS) {
    const value = text(lower.get(name));
    if (!value) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      // not JSON: the value as it is
    }
    const entries = Array.isArray(parsed) ? entryCandidates(parsed, 'header-entry') : [...entryCandidates(parsed, 'header-entry'), ...headerDetail(parsed)];
    found.push(...(entries.length ? entries : [{ text: value, source: 'header' as const }]));
  }
  return found;
}

const headerDetail = (parsed: unknown): WordCandidate[] => detailCandidates(parsed).map((c) => ({ ...c, source: 'header' as const }));
