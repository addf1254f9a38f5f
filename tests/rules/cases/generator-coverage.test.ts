/**
 * The guaranteed generators stay in the samples' shapes (every optional field both present and
 * absent, names of letters, the sample's codes, dates of 1940-2000 with their calendar edges), and
 * the open values of the random cases reach every open point: text from empty to several hundred
 * code points in every alphabet, other codes and letter cases, every RFC 3339 form, dates outside
 * the range, partial and several tax entries. Statistics over a fixed seed, so these assertions can
 * fail when a generator narrows.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { validIdentityBody } from '../../../src/rules/create-identity/cases.ts';
import { validUpdateBody } from '../../../src/rules/update-fiat-account/cases.ts';
import { caseFamilies } from '../../../src/rules/cases/families.ts';
import { isRfc3339 } from '../../../src/rules/checks/exchange-facts.ts';
import { IDENTITY_OPEN_POINTS, UPDATE_OPEN_POINTS } from '../../../src/rules/open-points/cases.ts';

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

  it("stay in the samples' shapes: names of ASCII letters, address lines of at most 35 characters, the sample's codes and kinds", () => {
    for (const p of persons) {
      for (const name of strings([p.first_name, p.last_name])) expect(name, name).toMatch(/^[A-Z][a-z]{1,11}$/);
      for (const field of ['cip_id_country', 'nationality']) if (p[field] !== undefined) expect(p[field]).toBe('USA');
      if (p.cip_id_type !== undefined) expect(p.cip_id_type).toBe('SSN');
      if (p.verifier_type !== undefined) expect(p.verifier_type).toBe('PASSTHROUGH');
      for (const line of strings(Object.values((p.address ?? {}) as Json))) expect(line.length, line).toBeLessThanOrEqual(35);
      for (const line of strings(Object.values((p.address ?? {}) as Json))) expect(line, line).toMatch(/^[0-9A-Za-z ]*$/);
    }
  });

  it('dates of birth stay within 1940-2000 and reach its calendar edges', () => {
    const dates = strings(persons.map((p) => p.date_of_birth));
    for (const d of dates) expect(Number(d.slice(0, 4)), d).toBeGreaterThanOrEqual(1940);
    for (const d of dates) expect(Number(d.slice(0, 4)), d).toBeLessThanOrEqual(2000);
    expect(dates.some((d) => d.endsWith('-02-29'))).toBe(true);
    expect(dates.some((d) => d.endsWith('-01-01'))).toBe(true);
    expect(dates.some((d) => d.endsWith('-12-31'))).toBe(true);
    expect(dates).toContain('1970-01-01');
  });

  it("passthrough_verified_at takes the sample's form", () => {
    const times = strings(persons.map((p) => p.passthrough_verified_at));
    for (const t of times) expect(t).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    for (const t of times) expect(isRfc3339(t), t).toBe(true);
  });

  it('tax_details hold one entry with both members', () => {
    const lists = identities.map((b) => b.tax_details).filter(Array.isArray) as Json[][];
    for (const list of lists) expect(list.map((e) => Object.keys(e).sort())).toEqual([['tax_payer_country', 'tax_payer_id']]);
  });

  it('every way to satisfy the tax rule occurs', () => {
    const ways = new Set(identities.map((b) => `${b.tax_details !== undefined}/${String(b.tax_details_not_required)}`));
    expect(ways).toEqual(new Set(['true/undefined', 'true/true', 'true/false', 'false/true']));
  });

  it("identity metadata holds at most the sample's one short pair", () => {
    for (const b of identities) expect(Object.keys((b.metadata ?? {}) as Json).length).toBeLessThanOrEqual(1);
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

/** The random cases of the rule of valid requests: guaranteed bodies and open values, one field at a time. */
describe('open values of the valid random cases', () => {
  const openCasesOf = (rule: string) =>
    fc.sample(caseFamilies().find((f) => f.rule === rule)!.arbitrary!, { numRuns: 3000, seed: 20240229 }).filter((c) => c.open !== undefined);
  const identityOpen = openCasesOf('id.valid-accepted');
  const updateOpen = openCasesOf('fa.valid-accepted');
  const probesOf = (cases: typeof identityOpen, field: string, kind: string) =>
    cases.filter((c) => c.open!.field === field && c.open!.kind === kind).map((c) => c.open!);

  it('are about a third or more of the random cases, and reach every open point of both operations', () => {
    expect(identityOpen.length).toBeGreaterThan(1000);
    for (const [cases, facets] of [
      [identityOpen, IDENTITY_OPEN_POINTS],
      [updateOpen, UPDATE_OPEN_POINTS],
    ] as const) {
      const seen = new Set(cases.map((c) => `${c.open!.field} ${c.open!.kind}`));
      for (const f of facets) expect(seen, `${f.field} ${f.kind}`).toContain(`${f.field} ${f.kind}`);
    }
  });

  it('run names from empty to several hundred code points, through every length band', () => {
    const lengths = probesOf(identityOpen, 'person_details.first_name', 'length').map((p) => p.length!);
    expect(lengths).toContain(0);
    for (const [min, max] of [
      [13, 40],
      [62, 66],
      [99, 101],
      [127, 129],
      [199, 201],
      [254, 257],
      [280, 320],
    ])
      expect(
        lengths.some((n) => n >= min && n <= max),
        `${min}-${max}`,
      ).toBe(true);
  });

  it('write names in every alphabet, and codes and kinds in other letter cases', () => {
    const alphabets = new Set(probesOf(updateOpen, 'fiat_account_owner.person_details.first_name', 'alphabet').map((p) => p.alphabet));
    for (const a of ['latin', 'latin-extended', 'cjk', 'astral', 'combining', 'rtl', 'punctuation', 'symbols', 'digits']) expect(alphabets).toContain(a);
    const cases = new Set(probesOf(identityOpen, 'person_details.cip_id_type', 'letter-case').map((p) => p.value));
    expect(cases).toContain('ssn');
    expect(cases.size).toBeGreaterThanOrEqual(2);
  });

  it('take every RFC 3339 form, dates outside 1940-2000, tax entries lacking a member and more than one', () => {
    const formats = new Set(probesOf(identityOpen, 'person_details.passthrough_verified_at', 'format').map((p) => p.value));
    expect(formats).toEqual(new Set(['fraction of a second', 'numeric offset', 'lower-case t and z']));
    const dates = probesOf(identityOpen, 'person_details.date_of_birth', 'date').map((p) => p.date!);
    expect(dates.some((d) => d < '1940')).toBe(true);
    expect(dates.some((d) => d > '2001')).toBe(true);
    expect(new Set(probesOf(identityOpen, 'tax_details[]', 'partial-entry').map((p) => p.value)).size).toBe(2);
    expect(new Set(probesOf(identityOpen, 'tax_details', 'entries').map((p) => p.value))).toEqual(new Set(['2 entries', '3 entries']));
  });
});
