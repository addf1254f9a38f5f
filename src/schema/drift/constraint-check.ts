/**
 * One keyword of a schema against one value: does it accept it, and the keyword in words. Only the
 * keywords a drift comparison weighs (types, lists, patterns, formats, bounds); `undefined` when
 * a value cannot be judged (an unknown format, a pattern that does not compile).
 */
import { codePoints } from '../../core/text.ts';

const jsonType = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v);

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const FORMATS: Record<string, (s: string) => boolean> = {
  date: (s) => {
    const m = DATE.exec(s);
    if (!m) return false;
    const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
    return d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
  },
  'date-time': (s) => DATE_TIME.test(s),
  uuid: (s) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s),
  email: (s) => /^[^@\s]+@[^@\s]+$/.test(s),
};

/** Compiles an OpenAPI pattern (ECMA 262, Unicode mode), or undefined when it does not compile. */
export function compilePattern(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
}

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

const typeAccepts = (types: unknown, v: unknown): boolean => {
  const allowed = (Array.isArray(types) ? types : [types]).map(String);
  const t = jsonType(v);
  return allowed.includes(t) || (t === 'integer' && allowed.includes('number'));
};

/** Does `keyword: constraint` accept `value`? Keywords about another JSON type accept it (as JSON Schema does). */
export function accepts(keyword: string, constraint: unknown, value: unknown): boolean | undefined {
  const str = typeof value === 'string' ? value : undefined;
  const count = Array.isArray(value) ? value.length : typeof value === 'object' && value !== null ? Object.keys(value).length : undefined;
  switch (keyword) {
    case 'type':
      return typeAccepts(constraint, value);
    case 'enum':
      return Array.isArray(constraint) && constraint.some((c) => sameJson(c, value));
    case 'const':
      return sameJson(constraint, value);
    case 'pattern': {
      const re = compilePattern(String(constraint));
      return str === undefined ? true : re ? re.test(str) : undefined;
    }
    case 'format': {
      const check = FORMATS[String(constraint)];
      return str === undefined ? true : check ? check(str) : undefined;
    }
    case 'maxLength':
      return str === undefined || codePoints(str) <= Number(constraint);
    case 'minLength':
      return str === undefined || codePoints(str) >= Number(constraint);
    case 'maxProperties':
    case 'maxItems':
      return count === undefined || count <= Number(constraint);
    case 'minProperties':
    case 'minItems':
      return count === undefined || count >= Number(constraint);
    case 'maximum':
      return typeof value !== 'number' || value <= Number(constraint);
    case 'minimum':
      return typeof value !== 'number' || value >= Number(constraint);
    default:
      return undefined;
  }
}

const list = (values: unknown): string => (Array.isArray(values) ? values.map((v) => JSON.stringify(v)).join(', ') : JSON.stringify(values));

/** "at most 35 characters", "matches ^[A-Z]{3}$", "one of \"ABA\", \"SWIFT\""; "no <keyword>" when absent. */
export function inWords(keyword: string, value: unknown): string {
  if (value === undefined) return `no ${keyword}`;
  switch (keyword) {
    case 'type':
      return `of type ${Array.isArray(value) ? value.join(' or ') : String(value)}`;
    case 'enum':
      return `one of ${list(value)}`;
    case 'const':
      return `exactly ${JSON.stringify(value)}`;
    case 'pattern':
      return `matches ${String(value)}`;
    case 'format':
      return `format ${String(value)}`;
    case 'maxLength':
      return `at most ${value} characters`;
    case 'minLength':
      return `at least ${value} characters`;
    case 'maxProperties':
      return `at most ${value} members`;
    case 'minProperties':
      return `at least ${value} members`;
    case 'maxItems':
      return `at most ${value} entries`;
    case 'minItems':
      return `at least ${value} entries`;
    default:
      return `${keyword} ${JSON.stringify(value)}`;
  }
}

/** A value as a finding quotes it: `""`, `"1990-05-17T00:00:00Z"`, `7 members`. */
export function quote(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value);
  if (typeof value === 'object' && value !== null) return Array.isArray(value) ? `${value.length} entries` : `${Object.keys(value).length} members`;
  return JSON.stringify(value);
}
