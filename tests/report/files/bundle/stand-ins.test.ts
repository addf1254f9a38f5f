/** Stand-ins when a shape has fewer free stand-ins than values: the values are shuffled among their records, none left in place. */
import { describe, expect, it } from 'vitest';
import { PersonalRedaction } from '../../../../src/report/files/bundle/personal-redaction.ts';
import { StandIns } from '../../../../src/report/files/bundle/stand-ins.ts';

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const leapYears = Array.from({ length: 61 }, (_, i) => 1940 + i).filter((y) => y % 4 === 0);

describe('StandIns of a crowded shape', () => {
  it('gives every two-letter code another when most of the 676 are values, and every February 29 of a band another', () => {
    for (const salt of [1, 2, 3]) {
      const codes = [...LETTERS].flatMap((a) => [...LETTERS].map((b) => a + b)).filter((_, i) => i % 5 !== 0);
      const days = leapYears.flatMap((y) => [`${y}-02-29`, `${y}-02-29T00:00:00Z`]);
      const values = [...codes, ...days];
      const standIns = new StandIns(Buffer.alloc(32, salt));
      const known = new Set(values);
      for (const value of values)
        expect(
          standIns.of(value, (c) => !known.has(c)),
          value,
        ).toBeDefined();
      const given = values.map((v) => standIns.of(v)!);
      expect(new Set(given).size).toBe(values.length);
      for (const [i, value] of values.entries()) {
        expect(given[i]).not.toBe(value);
        if (value.includes('-02-29')) expect(given[i]).toMatch(/^(19[4-9]\d|2000)-02-29/);
      }
      // One day, one stand-in, in both spellings.
      for (const y of leapYears) expect(standIns.of(`${y}-02-29T00:00:00Z`)).toBe(`${standIns.of(`${y}-02-29`)}T00:00:00Z`);
    }
  });

  it('gives every two-letter code another when all 676 but one are values (the last ones go through the shape, or trade)', () => {
    for (const salt of [4, 5, 6, 7]) {
      const codes = [...LETTERS].flatMap((a) => [...LETTERS].map((b) => a + b)).filter((code) => code !== 'QQ');
      const standIns = new StandIns(Buffer.alloc(32, salt));
      const known = new Set(codes);
      for (const code of codes)
        expect(
          standIns.of(code, (c) => !known.has(c)),
          code,
        ).toBeDefined();
      const given = codes.map((code) => standIns.of(code)!);
      expect(new Set(given).size).toBe(codes.length);
      expect(given.every((standIn, i) => standIn !== codes[i] && /^[A-Z]{2}$/.test(standIn))).toBe(true);
    }
  });

  it('redacts texts of such values, checking every original no stand-in spells', () => {
    const days = leapYears.map((y) => `${y}-02-29`);
    const values = [...days, `${leapYears[0]}-02-29T00:00:00`, 'Lovelace'];
    const redaction = PersonalRedaction.of(values, new StandIns(Buffer.alloc(32, 9)));
    const text = values.map((v) => `"${v}Z"`).join(' ');
    const redacted = redaction.redact(text, 'x.json');
    expect(redacted).not.toContain('Lovelace');
    expect(redacted.split(' ')).toHaveLength(values.length);
    expect(redacted.split(' ').every((word, i) => word !== text.split(' ')[i])).toBe(true);
  });
});
