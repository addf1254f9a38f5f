/**
 * The valid generators cover the document's input space within about one standard run: every
 * optional field both present and absent, free text from empty to several hundred code points,
 * free-text kinds in any letter case, calendar edges, the RFC 3339 forms. Statistics over a fixed
 * seed, so these assertions can fail when a generator narrows.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { validIdentityBody } from '../../../src/engine/generators/create-identity.ts';
import { validUpdateBody } from '../../../src/engine/generators/update-fiat-account.ts';
import { caseFamilies } from '../../../src/engine/generators/families.ts';
import { isRfc3339 } from '../../../src/rules/checks/exchange-facts.ts';

type Json = Record<string, unknown>;
const SAMPLES = 300;
const identities = fc.sample(validIdentityBody, { numRuns: SAMPLES, seed: 20240229 }) as Json[];
const updates = fc.sample(validUpdateBody, { numRuns: SAMPLES, seed: 20240229 }) as Json[];

const dig = (value: unknown, ...keys: string[]): unknown =>
  keys.reduce<unknown>((v, k) => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json)[k] : undefined), value);
const codePoints = (s: string) => [...s].length;
const strings = (values: unknown[]) => values.filter((v): v is string => typeof v === 'string');

/** The share of `items` where `path` is present. */
function presence(items: Json[], ...path: string[]): number {
  return items.filter((item) => dig(item, ...path) !== undefined).length / items.length;
}

/** Present in at least 1 item of 20 and absent in at least 1 of 20. */
function bothPresentAndAbsent(items: Json[], ...path: string[]): void {
  const share = presence(items, ...path);
  expect(share, `${path.join('.')} present in ${share}`).toBeGreaterThanOrEqual(0.05);
  expect(share, `${path.join('.')} present in ${share}`).toBeLessThanOrEqual(0.95);
}

const persons = identities.map((b) => b.person_details as Json);
const PERSON_FIELDS = [
  'first_name',
  'last_name',
  'date_of_birth',
  'email',
  'phone_number',
  'cip_id',
  'cip_id_type',
  'cip_id_country',
  'nationality',
  'verifier_type',
  'passthrough_verified_at',
  'address',
  'metadata',
];
const ADDRESS_FIELDS = ['country', 'address1', 'address2', 'city', 'province', 'zip_code'];

describe('valid identity bodies', () => {
  it('always carry person_details', () => {
    expect(presence(identities, 'person_details')).toBe(1);
  });

  it.each(PERSON_FIELDS)('person_details.%s is both present and absent', (field) => {
    bothPresentAndAbsent(persons, field);
  });

  it.each(ADDRESS_FIELDS)('person_details.address.%s is both present and absent', (field) => {
    const addresses = persons.map((p) => p.address).filter((a): a is Json => a !== undefined);
    bothPresentAndAbsent(addresses, field);
  });

  it('optional fields vary independently: all four combinations of first_name and last_name occur', () => {
    const combos = new Set(persons.map((p) => `${p.first_name !== undefined}/${p.last_name !== undefined}`));
    expect(combos.size).toBe(4);
  });

  it('names run from empty to several hundred code points, through every length band', () => {
    const lengths = strings(persons.flatMap((p) => [p.first_name, p.last_name])).map(codePoints);
    expect(lengths).toContain(0);
    expect(Math.max(...lengths)).toBeGreaterThanOrEqual(280);
    for (const [min, max] of [
      [1, 12],
      [13, 40],
      [60, 70],
      [95, 105],
      [250, 260],
      [255, 256],
    ]) {
      expect(
        lengths.some((n) => n >= min && n <= max),
        `a name of ${min}-${max} code points`,
      ).toBe(true);
    }
  });

  it('free text mixes character classes and never has white space at either end', () => {
    const texts = strings(
      persons.flatMap((p) => [p.first_name, p.last_name, dig(p, 'address', 'address1'), dig(p, 'address', 'city'), dig(p, 'address', 'province')]),
    );
    expect(texts.some((s) => /[\u{1f600}-\u{1f64f}]/u.test(s))).toBe(true);
    expect(texts.some((s) => /[\u4e00-\u9fff]/.test(s))).toBe(true);
    expect(texts.some((s) => /[\u05d0-\u05ea]/.test(s))).toBe(true);
    for (const s of texts) expect(s.trim(), JSON.stringify(s)).toBe(s);
  });

  it('kinds and country codes come in any letter case', () => {
    for (const field of ['cip_id_type', 'verifier_type', 'cip_id_country', 'nationality']) {
      const values = strings(persons.map((p) => p[field]));
      expect(
        values.some((v) => v === v.toUpperCase()),
        `${field} in upper case`,
      ).toBe(true);
      expect(
        values.some((v) => v === v.toLowerCase()),
        `${field} in lower case`,
      ).toBe(true);
      expect(
        values.some((v) => v !== v.toLowerCase() && v !== v.toUpperCase()),
        `${field} in mixed case`,
      ).toBe(true);
    }
    const cipTypes = new Set(strings(persons.map((p) => p.cip_id_type)).map((v) => v.toUpperCase()));
    expect(cipTypes.size).toBeGreaterThanOrEqual(4);
    const countries = strings(identities.flatMap((b) => (Array.isArray(b.tax_details) ? b.tax_details.map((t) => dig(t, 'tax_payer_country')) : [])));
    expect(countries.some((c) => c === c.toLowerCase())).toBe(true);
  });

  it('dates of birth reach the calendar edges', () => {
    const dates = strings(persons.map((p) => p.date_of_birth));
    expect(dates.some((d) => d.endsWith('-02-29'))).toBe(true);
    expect(dates.some((d) => d.endsWith('-01-01'))).toBe(true);
    expect(dates.some((d) => d.endsWith('-12-31'))).toBe(true);
    expect(dates.some((d) => /-(04|06|09|11)-30$/.test(d))).toBe(true);
    expect(dates.some((d) => d.startsWith('1900-'))).toBe(true);
    expect(dates.some((d) => Number(d.slice(0, 4)) >= 2010)).toBe(true);
    for (const d of dates) expect(Number(d.slice(0, 4))).toBeLessThan(new Date().getUTCFullYear());
  });

  it('passthrough_verified_at takes every RFC 3339 form: fractions, numeric offsets, lower case', () => {
    const times = strings(persons.map((p) => p.passthrough_verified_at));
    for (const t of times) expect(isRfc3339(t), t).toBe(true);
    expect(times.some((t) => /\.\d+/.test(t))).toBe(true);
    expect(times.some((t) => !/\.\d+/.test(t))).toBe(true);
    expect(times.some((t) => /[+-]\d{2}:\d{2}$/.test(t) && !t.endsWith('+00:00'))).toBe(true);
    expect(times.some((t) => /-\d{2}:\d{2}$/.test(t))).toBe(true);
    expect(times.some((t) => t.endsWith('Z'))).toBe(true);
    expect(times.some((t) => /t|z$/.test(t))).toBe(true);
  });

  it('tax_details hold 1 to 3 entries, now and then one with a member missing', () => {
    const lists = identities.map((b) => b.tax_details).filter(Array.isArray) as Json[][];
    const sizes = new Set(lists.map((l) => l.length));
    expect([...sizes].sort()).toEqual([1, 2, 3]);
    const entries = lists.flat();
    const partial = entries.filter((e) => Object.keys(e).length === 1);
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(entries.length / 4);
  });

  it('every way to satisfy the tax rule occurs', () => {
    const ways = new Set(identities.map((b) => `${b.tax_details !== undefined}/${String(b.tax_details_not_required)}`));
    expect(ways).toEqual(new Set(['true/undefined', 'true/true', 'true/false', 'false/true']));
  });

  it('identity metadata keys and values run from empty to about 200 code points, as strings', () => {
    const pairs = identities.flatMap((b) => Object.entries((b.metadata ?? {}) as Json));
    const keys = pairs.map(([k]) => codePoints(k));
    const values = pairs.map(([, v]) => v);
    expect(values.every((v) => typeof v === 'string')).toBe(true);
    expect(keys).toContain(0);
    expect(Math.max(...keys)).toBeGreaterThanOrEqual(190);
    expect(Math.max(...strings(values).map(codePoints))).toBeGreaterThanOrEqual(190);
  });
});

describe('valid update bodies', () => {
  it.each(
    [
      ['fiat_account_owner'],
      ['fiat_network_instructions'],
      ['metadata'],
      ['fiat_account_owner', 'person_details', 'first_name'],
      ['fiat_account_owner', 'person_details', 'last_name'],
      ['fiat_network_instructions', 'wire', 'account_number'],
      ['fiat_network_instructions', 'wire', 'routing_details'],
      ['fiat_network_instructions', 'wire', 'fiat_account_owner_address'],
      ['fiat_network_instructions', 'wire', 'routing_details', 'routing_number_type'],
      ['fiat_network_instructions', 'wire', 'routing_details', 'routing_number'],
      ['fiat_network_instructions', 'wire', 'routing_details', 'bank_name'],
      ['fiat_network_instructions', 'wire', 'routing_details', 'bank_address'],
    ].map((path) => [path.join('.'), path] as const),
  )('%s is both present and absent', (_name, path) => {
    const parents = updates.filter((u) => path.length === 1 || dig(u, ...path.slice(0, -1)) !== undefined);
    bothPresentAndAbsent(parents, ...path);
  });

  it('owner names run from empty to several hundred code points', () => {
    const lengths = strings(
      updates.flatMap((u) => [dig(u, 'fiat_account_owner', 'person_details', 'first_name'), dig(u, 'fiat_account_owner', 'person_details', 'last_name')]),
    ).map(codePoints);
    expect(lengths).toContain(0);
    expect(lengths.some((n) => n >= 250)).toBe(true);
  });

  it('routing_number_type comes in any case and several kinds', () => {
    const kinds = strings(updates.map((u) => dig(u, 'fiat_network_instructions', 'wire', 'routing_details', 'routing_number_type')));
    expect(kinds).toContain('aba');
    expect(kinds).toContain('ABA');
    expect(new Set(kinds.map((k) => k.toUpperCase())).size).toBeGreaterThanOrEqual(4);
  });

  it('metadata stays within the limits and reaches them', () => {
    const all = updates.map((u) => u.metadata as Record<string, string> | undefined).filter((m) => m !== undefined);
    const pairs = all.flatMap((m) => Object.entries(m));
    for (const m of all) expect(Object.keys(m).length).toBeLessThanOrEqual(6);
    for (const s of pairs.flat()) expect(codePoints(s)).toBeLessThanOrEqual(100);
    expect(all.some((m) => Object.keys(m).length === 6)).toBe(true);
    expect(pairs.some(([, v]) => v === '')).toBe(true);
    expect(pairs.some(([k, v]) => codePoints(k) >= 98 || codePoints(v) >= 98)).toBe(true);
  });
});

describe('invalid dates of birth', () => {
  const dates = () => {
    const family = caseFamilies().find((f) => f.rule === 'id.dob.invalid-rejected')!;
    return [...family.examples, ...fc.sample(family.arbitrary!, { numRuns: 300, seed: 5 })].map(
      (c) => dig(c.body, 'person_details', 'date_of_birth') as string,
    );
  };

  it('take every kind of mistake', () => {
    const all = dates();
    const kinds: [string, RegExp, ((year: number) => boolean)?][] = [
      ['Feb 29 of a common year', /^(\d{4})-02-29$/, (y: number) => !((y % 4 === 0 && y % 100 !== 0) || y % 400 === 0)],
      ['day 31 of a 30-day month', /^\d{4}-(04|06|09|11)-31$/],
      ['month 00', /^\d{4}-00-\d{2}$/],
      ['month past 12', /^\d{4}-(1[3-9]|[2-9]\d)-\d{2}$/],
      ['day 00', /^\d{4}-\d{2}-00$/],
      ['another separator', /^\d{4}[/. _]\d{2}[/. _]\d{2}$/],
      ['a time part', /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/],
      ['white space around', /^\s|\s$/],
    ];
    for (const [kind, pattern, year = () => true] of kinds) {
      expect(
        all.some((d) => pattern.test(d) && year(Number(d.slice(0, 4)))),
        kind,
      ).toBe(true);
    }
    expect(all).toContain('2023-02-29');
    expect(all).toContain('1900-02-29');
  });
});
