/**
 * Dates of birth under --redact-personal: both spellings of a day get the same stand-in day, a real
 * day stays real (in the same band of years, February 29 on a leap year), an impossible one stays
 * impossible in the same way, and nothing of the original day is kept.
 */
import { describe, expect, it } from 'vitest';
import { datedValue, standInDay } from '../../../../src/report/files/bundle/date-stand-in.ts';
import { StandIns } from '../../../../src/report/files/bundle/stand-ins.ts';

const isReal = (day: string): boolean => {
  const [y, m, d] = day.split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  date.setUTCFullYear(y);
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
};
const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

describe('date stand-ins', () => {
  it('reads the day a value starts with: a date alone or followed by a time', () => {
    expect(datedValue('1970-01-01')).toEqual({ day: '1970-01-01', rest: '' });
    expect(datedValue('1970-01-01T00:00:00.000Z')).toEqual({ day: '1970-01-01', rest: 'T00:00:00.000Z' });
    expect(datedValue('1990-02-30')).toEqual({ day: '1990-02-30', rest: '' });
    for (const other of ['1970/01/01', '01-01-1970', '1970-1-1', ' 1970-01-01', '1970-01-01Z', '19700101']) expect(datedValue(other), other).toBeUndefined();
  });

  it('gives both spellings of a day the same stand-in day, and the time part as it was', () => {
    const standIns = new StandIns(Buffer.alloc(32, 7));
    const sent = standIns.of('1970-01-01')!;
    const returned = standIns.of('1970-01-01T00:00:00Z')!;
    const previous = standIns.of('1969-12-31T23:00:00Z')!;
    expect(sent).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(sent).not.toBe('1970-01-01');
    expect(returned).toBe(`${sent}T00:00:00Z`);
    expect(previous).toMatch(/^\d{4}-\d{2}-\d{2}T23:00:00Z$/);
    expect(previous.slice(0, 10)).not.toBe(sent);
    // A digit-by-digit stand-in elsewhere: the same value, the same stand-in.
    expect(standIns.of('1970-01-01')).toBe(sent);
  });

  it('keeps a real day real and in its band of years; February 29 stays on a leap year', () => {
    for (let n = 0; n < 2000; n += 7) {
      for (const [day, first, last] of [
        ['1985-07-14', 1940, 2000],
        ['1899-12-31', 1800, 1899],
        ['0001-01-01', 0, 999],
        ['9999-12-31', 9001, 9999],
        ['1905-06-15', 1900, 1939],
      ] as const) {
        const standIn = standInDay(day, n * 104_729, 2026);
        expect(isReal(standIn), `${day} -> ${standIn}`).toBe(true);
        const year = Number(standIn.slice(0, 4));
        expect(year).toBeGreaterThanOrEqual(first);
        expect(year).toBeLessThanOrEqual(last);
      }
      const leapDay = standInDay('2000-02-29', n * 104_729, 2026);
      expect(leapDay).toMatch(/^\d{4}-02-29$/);
      expect(isLeap(Number(leapDay.slice(0, 4)))).toBe(true);
    }
  });

  it('keeps an impossible day impossible in the same way: its month and day, a year of the same leap-ness', () => {
    for (let n = 0; n < 500; n++) {
      for (const day of ['1990-02-30', '1990-13-01', '1990-00-15', '1991-02-29', '1990-04-31', '1990-06-00']) {
        const standIn = standInDay(day, n * 7919, 2026);
        expect(standIn.slice(4)).toBe(day.slice(4));
        expect(isReal(standIn), `${day} -> ${standIn}`).toBe(false);
        expect(isLeap(Number(standIn.slice(0, 4)))).toBe(isLeap(Number(day.slice(0, 4))));
      }
    }
  });
});
