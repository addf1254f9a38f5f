import { UsageError } from '../core/errors.ts';

/** The longest delay a Node timer keeps: a longer one fires at once (TimeoutOverflowWarning). */
export const MAX_TIMER_MS = 2_147_483_647;

export interface WholeNumberRange {
  min?: number;
  max?: number;
}

const describeRange = (min: number, max: number): string => {
  if (min === -Number.MAX_SAFE_INTEGER && max === Number.MAX_SAFE_INTEGER) return 'an integer';
  return max === Number.MAX_SAFE_INTEGER ? `a whole number >= ${min}` : `a whole number from ${min} to ${max}`;
};

/**
 * A whole-number flag value, or undefined when the flag was not given. Decimal digits only:
 * Number() reads '' and ' ' as 0, '0x10' as 16 and '1e3' as 1000, and a user who typed
 * `--seed ''` (an unset shell variable) must hear about it rather than get seed 0. `name` is the
 * setting as the caller wrote it (a flag, an option, an environment variable).
 */
export function wholeNumberFlag(name: string, raw: string | undefined, range: WholeNumberRange = {}, leaveOut = 'leave the flag out'): number | undefined {
  if (raw === undefined) return undefined;
  const min = range.min ?? 0;
  const max = range.max ?? Number.MAX_SAFE_INTEGER;
  const text = raw.trim();
  if (!text) throw new UsageError(`${name} is empty: give ${describeRange(min, max)}, or ${leaveOut}`);
  const n = /^[-+]?\d+$/.test(text) ? Number(text) : Number.NaN;
  return inRange(name, n, `"${raw}"`, min, max);
}

/**
 * A whole number as the library's typed options give it (a number), or as text (read as a flag
 * is: an untyped caller's '8' still counts). Anything else is refused under the option's name.
 */
export function wholeNumberSetting(name: string, value: unknown, range: WholeNumberRange = {}, leaveOut = 'leave the flag out'): number | undefined {
  if (value === undefined || typeof value === 'string') return wholeNumberFlag(name, value, range, leaveOut);
  const shown = typeof value === 'number' ? String(value) : JSON.stringify(value);
  return inRange(name, typeof value === 'number' ? value : Number.NaN, shown, range.min ?? 0, range.max ?? Number.MAX_SAFE_INTEGER);
}

function inRange(name: string, n: number, shown: string, min: number, max: number): number {
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new UsageError(`${name} must be ${describeRange(min, max)}, got ${shown}`);
  return n;
}
