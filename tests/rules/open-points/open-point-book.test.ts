/**
 * The observed contract and the refusals no limit explains: recorded exchanges of open cases fed
 * to the book as the judge feeds them (a refusal only once its guaranteed twin was accepted).
 */
import { describe, expect, it } from 'vitest';
import type { TestCase } from '../../../src/core/case.ts';
import type { OpenProbe } from '../../../src/core/open-point.ts';
import { OpenPointBook } from '../../../src/rules/open-points/open-point-book.ts';
import { alphabetText, longText } from '../../../src/rules/open-points/open-values.ts';
import { exchange } from '../exchange-builders.ts';

const FIELD = 'person_details.first_name';

function openCase(value: unknown, probe: Omit<OpenProbe, 'field'>, field = FIELD): TestCase {
  const [parent, name] = field.split('.');
  return {
    operation: 'createIdentity',
    mode: 'valid',
    label: `${field} ${probe.value}`,
    body: { [parent]: { [name]: value }, tax_details_not_required: true },
    open: { field, ...probe },
    control: { operation: 'createIdentity', mode: 'valid', label: 'twin', body: { [parent]: { [name]: 'Jane' }, tax_details_not_required: true } },
  };
}

const lengthCase = (n: number) => {
  const { value, probe } = longText(n);
  return openCase(value, { kind: 'length', ...probe });
};
const accepted = (c: TestCase) => exchange(c, 201, { id: 'x' });
const refused = (c: TestCase) => exchange(c, 400, { message: `${c.open!.field} is too long` });

describe('the observed contract', () => {
  it('records per field and kind what was accepted and refused, with the bounds of lengths', () => {
    const book = new OpenPointBook();
    book.accepted(accepted(lengthCase(40)));
    book.refused(refused(lengthCase(255)));
    book.refused(refused(lengthCase(100)));
    const [limit] = book.contract().limits;
    expect(limit).toMatchObject({ operation: 'createIdentity', field: FIELD, kind: 'length', longestAccepted: 40, shortestRefused: 100 });
    expect(limit.accepted).toEqual(['40 characters']);
    expect(limit.refused.map((r) => [r.value, r.status])).toEqual([
      ['255 characters', 400],
      ['100 characters', 400],
    ]);
    expect(limit.refused[0].response?.status).toBe(400);
    expect(limit.summary).toBe('refuses from 100 characters (accepted up to 40)');
  });

  it('a consistent limit is no finding: longer texts refused, shorter ones accepted', () => {
    const book = new OpenPointBook();
    expect(book.accepted(accepted(lengthCase(13)))).toEqual([]);
    expect(book.refused(refused(lengthCase(201)))).toEqual([]);
    expect(book.accepted(accepted(lengthCase(200)))).toEqual([]);
    expect(book.refused(refused(lengthCase(255)))).toEqual([]);
  });

  it('a text refused between a shorter and a longer accepted one of its alphabet is a finding, in either order', () => {
    const first = new OpenPointBook();
    first.accepted(accepted(lengthCase(40)));
    first.accepted(accepted(lengthCase(255)));
    const [finding] = first.refused(refused(lengthCase(100)));
    expect(finding.exchange.testCase.open?.length).toBe(100);
    expect(finding.problems[0].message).toMatch(/texts of 40 and 255 characters of the same alphabet \(letters\) were accepted: no limit explains/);

    const later = new OpenPointBook();
    later.accepted(accepted(lengthCase(40)));
    expect(later.refused(refused(lengthCase(100)))).toEqual([]);
    const found = later.accepted(accepted(lengthCase(255)));
    expect(found.map((f) => f.exchange.testCase.open?.length)).toEqual([100]);
    // Blamed once: a later acceptance does not report it again.
    expect(later.accepted(accepted(lengthCase(300)))).toEqual([]);
  });

  it('alphabets without whole prefixes (punctuation) are not compared by length: a pattern may explain them', () => {
    const book = new OpenPointBook();
    const punct = (v: string) => openCase(v, { kind: 'alphabet', value: 'punctuation', alphabet: 'punctuation', length: [...v].length });
    book.accepted(accepted(punct('Jr.')));
    book.accepted(accepted(punct('Anne-Marie')));
    expect(book.refused(refused(punct("O'Brien")))).toEqual([]);
  });

  it('the same value accepted and refused is a finding', () => {
    const book = new OpenPointBook();
    const code = (v: string) => openCase(v, { kind: 'code', value: v }, 'person_details.nationality');
    book.accepted(accepted(code('GBR')));
    expect(book.refused(refused(code('DEU')))).toEqual([]);
    expect(book.refused(refused(code('GBR')))[0].problems[0].message).toMatch(/the same value was accepted/);
  });

  it('a date refused between an earlier and a later accepted date is a finding; a range is not', () => {
    const book = new OpenPointBook();
    const date = (d: string) => openCase(d, { kind: 'date', value: d, date: d }, 'person_details.date_of_birth');
    book.accepted(accepted(date('1905-06-15')));
    expect(book.refused(refused(date('2025-06-15')))).toEqual([]);
    book.accepted(accepted(date('1930-01-01')));
    expect(book.refused(refused(date('1920-02-29')))).toHaveLength(1);
    expect(book.contract().limits[0]).toMatchObject({ earliestAccepted: '1905-06-15', latestAccepted: '1930-01-01' });
  });

  it('the first holder of the shared government id says nothing about uniqueness; a second one does', () => {
    const book = new OpenPointBook();
    const unique = () => openCase('987-65-4320', { kind: 'uniqueness', value: '987-65-4320' }, 'person_details.cip_id');
    book.accepted(accepted(unique()));
    expect(book.contract().limits).toEqual([]);
    book.refused(refused(unique()));
    expect(book.contract().limits[0].summary).toBe('refuses a value another identity holds');
  });
});

describe('keeping inside what the target refused', () => {
  const alphabetCase = (n: number) => openCase(alphabetText('cjk', n), { kind: 'alphabet', value: 'cjk', alphabet: 'cjk', length: n });

  it('only while the random cases run, and only for values beyond a refusal of the same domain', () => {
    const book = new OpenPointBook();
    book.refused(refused(alphabetCase(6)));
    const candidates = Array.from({ length: 40 }, (_, i) => alphabetCase(2 + (i % 10)));
    expect(candidates.map((c) => book.keepInside(c))).toEqual(candidates);
    book.keepInsideFromNow();
    const kept = candidates.map((c) => book.keepInside(c));
    const inside = kept.filter((c) => c.open === undefined);
    // 3 of 4 by a hash of the body: about 30 of 40, the same ones every time.
    expect(inside.length).toBeGreaterThan(20);
    expect(inside.length).toBeLessThan(40);
    expect(candidates.map((c) => book.keepInside(c))).toEqual(kept);
    for (const c of inside) expect(c.body).toEqual(candidates[0].control!.body);
    for (const c of inside) expect(c.label).toMatch(/^random person_details.first_name kept inside the target's limits/);
    // last_name shares the domain of names: kept inside too; another alphabet is not.
    const lastName = openCase(alphabetText('cjk', 4), { kind: 'alphabet', value: 'cjk', alphabet: 'cjk', length: 4 }, 'person_details.last_name');
    const latin = openCase(alphabetText('latin', 4), { kind: 'alphabet', value: 'latin', alphabet: 'latin', length: 4 });
    expect(book.keepInside(latin)).toBe(latin);
    expect([lastName, ...candidates].some((c) => book.keepInside(c) !== c)).toBe(true);
    book.stopKeepingInside();
    expect(book.keepInside(candidates[0])).toBe(candidates[0]);
  });
});
