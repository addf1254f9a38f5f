/** Small facts about an exchange that many checks ask. */
import type { Exchange } from '../../core/exchange.ts';
import type { Operation } from '../../core/catalogue.ts';
import { oneLine } from '../../core/text.ts';
import type { ExpectedStatus, ProblemData, ProblemParams } from '../problem-kinds.ts';

export const isOperation = (e: Exchange, op: Operation): boolean => e.testCase.operation === op;
export const statusOf = (e: Exchange): number | undefined => e.response?.status;
export const is2xx = (e: Exchange): boolean => (statusOf(e) ?? 0) >= 200 && (statusOf(e) ?? 0) < 300;
export const is4xx = (e: Exchange): boolean => (statusOf(e) ?? 0) >= 400 && (statusOf(e) ?? 0) < 500;
export const is5xx = (e: Exchange): boolean => (statusOf(e) ?? 0) >= 500;

/**
 * A 2xx to a well-formed request whose body parsed as a JSON object: the responses the shape
 * checks judge, the same identity given back for a used ref_id included. An invalid request that
 * was accepted is the rejection rule's finding, not theirs.
 */
export function successBody(e: Exchange): Record<string, unknown> | null {
  if (e.testCase.mode === 'invalid' || !is2xx(e) || !e.response?.json || unreadableBody(e)) return null;
  const body = e.response.body;
  return isObject(body) ? body : null;
}

/** `1 MiB`, `64 KiB` or `300 bytes`. */
const byteSize = (n: number): string =>
  n >= 1024 * 1024 && n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MiB` : n >= 1024 && n % 1024 === 0 ? `${n / 1024} KiB` : `${n} bytes`;

/**
 * Why a response body cannot be judged as JSON text, whatever it holds: only its start was kept
 * (too large), or its bytes are not UTF-8, which RFC 8259 8.1 requires of JSON between systems
 * (the stored text shows the bad bytes as U+FFFD: it is not what was sent). Undefined when readable.
 */
export function unreadableBody(e: Exchange): string | undefined {
  const r = e.response;
  if (r?.truncated) return `the body is ${r.truncated.receivedBytes} bytes; the harness keeps ${byteSize(r.truncated.keptBytes)}: too large to judge`;
  if (r?.invalidUtf8) return notUtf8(r.rawBody);
  return undefined;
}

/** What unreadableBody says, as a finding's params (call it only when unreadableBody says something). */
export function unreadableParams(e: Exchange): ProblemParams['unreadable-body'] {
  const r = e.response;
  const status = r?.status ?? 0;
  if (r?.truncated) return { reason: 'too-large', status, receivedBytes: r.truncated.receivedBytes, keptBytes: r.truncated.keptBytes };
  return { reason: 'not-utf8', status };
}

/** `the body is not valid UTF-8 (RFC 8259 8.1): …"first_name":"Jos�",…`: the text around the first bad byte (U+FFFD). */
export function notUtf8(rawBody: string, what = 'the body'): string {
  const at = Math.max(0, rawBody.indexOf('\uFFFD'));
  const start = Math.max(0, at - 40);
  const end = at + 40;
  const excerpt = `${start > 0 ? '…' : ''}${rawBody.slice(start, end)}${end < rawBody.length ? '…' : ''}`;
  return `${what} is not valid UTF-8 (RFC 8259 8.1): ${oneLine(excerpt)}`;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The request body as an object, or an empty object when it was not one. The answer to a repeated
 * ref_id may be the identity first created, which reflects the first request, not this one.
 */
export function requestBody(e: Exchange): Record<string, unknown> {
  return isObject(e.testCase.body) && e.testCase.mode !== 'duplicate' ? e.testCase.body : {};
}

/** A response value in a message: "absent" for a missing one, never "undefined". */
export const shown = (value: unknown): string => (value === undefined ? 'absent' : JSON.stringify(value));

/** Reads a nested property by keys; undefined when any step is missing or not an object. */
export function dig(value: unknown, ...keys: string[]): unknown {
  let current = value;
  for (const key of keys) {
    if (!isObject(current)) return undefined;
    current = current[key];
  }
  return current;
}

/** RFC 3339 date-time with a mandatory offset (Z or ±hh:mm), and a real calendar instant. */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
export function isRfc3339(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const m = RFC3339.exec(value);
  if (!m) return false;
  const [, y, mo, d, h, mi, s] = m.map(Number);
  const days = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  // Date.parse refuses a leap second (:60), which RFC 3339 allows: parse it as :59.
  const parsable = value.replace(/:60(?=[.Zz+-])/, ':59');
  return mo >= 1 && mo <= 12 && d >= 1 && d <= days && h <= 23 && mi <= 59 && s <= 60 && !Number.isNaN(Date.parse(parsable));
}

/** A status finding: the answer's status (0 without one) against what the case wanted. */
export const statusFinding = (e: Exchange, expected: ExpectedStatus): ProblemData => ({ kind: 'status', params: { expected, received: statusOf(e) ?? 0 } });

export const describeStatus = (e: Exchange): string => (e.response ? `HTTP ${e.response.status}` : `no response (${e.error?.kind ?? 'unknown'})`);

/**
 * The same text: equal once both are in Unicode normal form C. A server may store names
 * normalized (e + U+0301 as é); the document says nothing against it, so it is no defect.
 */
export const sameText = (a: unknown, b: unknown): boolean =>
  typeof a === 'string' && typeof b === 'string' ? a.normalize('NFC') === b.normalize('NFC') : Object.is(a, b);
