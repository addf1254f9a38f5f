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
 * `--seed ''` (an unset shell variable) must hear about it rather than get seed 0.
 */
export function wholeNumberFlag(flag: string, raw: string | undefined, range: WholeNumberRange = {}): number | undefined {
  if (raw === undefined) return undefined;
  const min = range.min ?? 0;
  const max = range.max ?? Number.MAX_SAFE_INTEGER;
  const text = raw.trim();
  if (!text) throw new UsageError(`${flag} is empty: give ${describeRange(min, max)}, or leave the flag out`);
  const n = /^[-+]?\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new UsageError(`${flag} must be ${describeRange(min, max)}, got "${raw}"`);
  return n;
}
