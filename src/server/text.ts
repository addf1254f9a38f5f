/** Text measures. The document's "characters" are Unicode code points (core/text.ts counts them). */

/** The first `max` code points of `text`. */
export const firstCodePoints = (text: string, max: number): string => [...text].slice(0, max).join('');

/** True when `text` holds a character outside the Basic Multilingual Plane (emoji and the like). */
export const hasAstral = (text: string): boolean => /[\u{10000}-\u{10FFFF}]/u.test(text);

/** True when `text` holds a character outside ASCII. */
export const hasNonAscii = (text: string): boolean => /[^\u0000-\u007f]/.test(text);

/** True for a real calendar date written YYYY-MM-DD (1990-02-30 is not one). */
export function isCalendarDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // setUTCFullYear, unlike Date.UTC, does not map years 0-99 to 1900-1999.
  const lastDay = new Date(0);
  lastDay.setUTCFullYear(year, month, 0);
  const daysInMonth = lastDay.getUTCDate();
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth;
}

/** Canonical UUID text (any version), as ids in paths must be. */
export const isUuid = (text: string): boolean => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text);
