/**
 * How long to wait before retrying a 429: the server's Retry-After when it gives one (RFC 9110
 * section 10.2.3: delay in seconds or an HTTP date), else exponential backoff. Capped so a
 * target cannot stall a run for long.
 */

/** The longest wait the harness accepts from a server, in ms. */
export const MAX_RETRY_WAIT_MS = 60_000;
/** The first backoff step when the server gives no Retry-After, in ms. */
export const BASE_BACKOFF_MS = 500;

/**
 * @param retryAfter the Retry-After header value, if any
 * @param attempt 0 for the first retry, 1 for the second ...
 * @param now the current time in ms (for HTTP dates)
 */
export function retryDelayMs(retryAfter: string | undefined, attempt: number, now = Date.now()): number {
  const fromHeader = parseRetryAfter(retryAfter, now);
  const delay = fromHeader ?? BASE_BACKOFF_MS * 2 ** attempt;
  return Math.min(Math.max(0, delay), MAX_RETRY_WAIT_MS);
}

/** The delay a Retry-After value asks for, in ms, or undefined when it is absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+(?:\.\d+)?$/.test(text)) return Number(text) * 1000;
  // Only a date with letters in it: Date.parse accepts bare numbers like "-1" as years.
  if (!/[a-z]/i.test(text)) return undefined;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
