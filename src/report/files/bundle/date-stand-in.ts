/**
 * Dates of birth under --redact-personal: sent as YYYY-MM-DD, returned as a timestamp at midnight
 * UTC (document 2.6), and judged by comparing the two (id.dob.midnight-utc). A digit-by-digit
 * stand-in would give the two spellings unrelated days, and turn an impossible date sent on
 * purpose (1990-02-30) into a real one, so a redacted bundle would no longer judge, nor replay,
 * as its report. So a value that starts with YYYY-MM-DD is given a stand-in for its day alone,
 * the same in every spelling, and keeps what follows the day (the time of a timestamp):
 * "1970-01-01" and "1970-01-01T00:00:00Z" become "1983-06-12" and "1983-06-12T00:00:00Z".
 *
 * A real day becomes another real day, its year in the same band as the original's (the bands
 * are the edges the generators probe and servers refuse: before 1000, before 1800, the 1800s,
 * 1900-1939, 1940-2000, since 2001, from this year on, after 9000), February 29 stays February 29
 * of a leap year. An impossible day keeps its month and day (02-30 is nobody's birthday) under
 * another year of the same band and leap-ness, so it stays impossible in the same way.
 */

/** A value that starts with YYYY-MM-DD: the day, whether it is a real one, and what follows it. */
export interface DatedValue {
  day: string;
  rest: string;
}

const DATED = /^(\d{4}-\d{2}-\d{2})((?:[Tt ].*)?)$/s;

const isLeap = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const daysIn = (year: number, month: number): number => (month === 2 ? (isLeap(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31);
const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/** The day a value starts with (a date alone, or followed by a time), or undefined. */
export function datedValue(value: string): DatedValue | undefined {
  const match = DATED.exec(value);
  return match ? { day: match[1], rest: match[2] } : undefined;
}

/** The band of years `year` is in: [first, last]. */
function bandOf(year: number, thisYear: number): [number, number] {
  const edges = [0, 1000, 1800, 1900, 1940, 2001, thisYear, 9001, 10_000];
  for (let i = 0; i < edges.length - 1; i++) if (year >= edges[i] && year < edges[i + 1]) return [edges[i], edges[i + 1] - 1];
  return [year, year];
}

/** A year of the band drawn from `n`, leap when `leap` says so (undefined: either); the original when the band has none. */
function yearFrom(n: number, [first, last]: [number, number], leap: boolean | undefined, original: number): number {
  const size = last - first + 1;
  for (let i = 0; i < size; i++) {
    const year = first + ((n + i) % size);
    if (leap === undefined || isLeap(year) === leap) return year;
  }
  return original;
}

/**
 * The stand-in of the day `day` (YYYY-MM-DD) drawn from the number `n` (a hash's bytes): see the
 * file's comment. `thisYear` places the bands that move with time.
 */
export function standInDay(day: string, n: number, thisYear = new Date().getUTCFullYear()): string {
  const [year, month, date] = day.split('-').map(Number);
  const band = bandOf(year, Math.max(thisYear, 2002));
  const real = month >= 1 && month <= 12 && date >= 1 && date <= daysIn(year, month);
  if (!real) {
    // Impossible in the same way: its month and day, under a year of the same leap-ness.
    return `${pad(yearFrom(n, band, isLeap(year), year), 4)}${day.slice(4)}`;
  }
  if (month === 2 && date === 29) return `${pad(yearFrom(n, band, true, year), 4)}-02-29`;
  const standInMonth = 1 + (Math.floor(n / 10_000) % 12);
  const standInDate = 1 + (Math.floor(n / 120_000) % 28);
  return `${pad(yearFrom(n, band, undefined, year), 4)}-${pad(standInMonth, 2)}-${pad(standInDate, 2)}`;
}
