/**
 * The open points of both requests (docs/design.md, the table of guaranteed, forbidden and open
 * inputs): free text beyond the samples' short words, code lists and letter cases the document
 * does not show, other formats of numbers and addresses, dates of birth outside 1940-2000, tax
 * entries lacking a member or more than one, identity metadata beyond one short pair, a
 * government id another identity holds, and the values a normalising server would change (spaces
 * around or doubled inside, other letter cases, composed and decomposed forms, leading zeros,
 * dates across the whole range a date can hold). Accepting and refusing each is conformant.
 */
import fc from 'fast-check';
import type { OpenKind } from '../../core/open-point.ts';
import { fieldName, type OpenFacet } from './open-facet.ts';
import { BIRTH_YEARS, LAST_BIRTH_YEAR, calendarDate, personName, ssn, word } from '../cases/payload-parts.ts';
import {
  EMPTY_TEXT,
  NULL_VALUE,
  type Alphabet,
  type OpenValue,
  alphabetValue,
  caseVariant,
  formatted,
  innerSpaces,
  leadingZeros,
  longText,
  longTextValue,
  named,
  normalForm,
  normalisedText,
  otherAlphabetValue,
  otherCases,
  outerSpaces,
} from './open-values.ts';
import { freeText, text } from '../cases/text.ts';

type Path = readonly (string | number)[];
const digits = (n: number) => text(n, n, fc.integer({ min: 0, max: 9 }).map(String));

/** A date of the years `first` to `last` as YYYY-MM-DD, the year in four digits (Date.UTC maps 0-99 to 1900-1999: not used). */
const farDate = (first: number, last: number): fc.Arbitrary<string> =>
  fc
    .tuple(fc.integer({ min: first, max: last }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }))
    .map(([y, m, d]) => `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`);

const facet = (
  path: Path,
  kind: OpenKind,
  domain: string,
  twinValue: unknown,
  values: fc.Arbitrary<OpenValue>,
  examples: OpenValue[] = [],
  ready?: OpenFacet['ready'],
): OpenFacet => ({
  field: fieldName(path),
  path,
  kind,
  domain,
  values,
  examples,
  twinValue,
  ...(ready ? { ready } : {}),
});

/** Length and alphabet of a free-text field; `examples`: the lengths and alphabets every run sends. */
function freeTextFacets(path: Path, domain: string, twinValue: string, examples: { lengths?: number[]; alphabets?: Alphabet[] } = {}): OpenFacet[] {
  return [
    facet(path, 'length', domain, twinValue, longTextValue, (examples.lengths ?? []).map(longText)),
    facet(
      path,
      'alphabet',
      domain,
      twinValue,
      otherAlphabetValue,
      (examples.alphabets ?? []).map((a) => alphabetValue(a, 6)),
    ),
  ];
}

/**
 * Text as a normalising server would change it: spaces around or doubled inside (format), other
 * letter cases (letter-case), composed and decomposed forms (alphabet). `examples`: sent every run.
 */
function normalisationFacets(
  path: Path,
  domain: string,
  twinValue: string,
  words: fc.Arbitrary<string>,
  examples: { spacing?: OpenValue[]; cases?: OpenValue[]; forms?: OpenValue[] } = {},
): OpenFacet[] {
  const { spacing, cases, forms } = normalisedText(words);
  return [
    facet(path, 'format', domain, twinValue, spacing, examples.spacing),
    facet(path, 'letter-case', domain, twinValue, cases, examples.cases),
    facet(path, 'alphabet', domain, twinValue, forms, examples.forms),
  ];
}

/** Other values of a code list, and the sample's value in other letter cases. */
function codeFacets(path: Path, domain: string, sample: string, others: string[], examples: { codes?: string[]; cases?: boolean } = {}): OpenFacet[] {
  const cases = otherCases(sample);
  return [
    facet(path, 'code', domain, sample, fc.constantFrom(...others).map(named), (examples.codes ?? []).map(named)),
    facet(path, 'letter-case', domain, sample, fc.constantFrom(...cases).map(named), examples.cases ? [named(cases[0])] : []),
  ];
}

/** Other layouts of a value; `examples`: the formats every run sends. */
function formatFacet(path: Path, domain: string, twinValue: string, formats: Record<string, fc.Arbitrary<string>>, examples: string[] = []): OpenFacet {
  const names = Object.keys(formats);
  const values = fc.constantFrom(...names).chain((name) => formats[name].map(formatted(name)));
  const fixed = examples.map((name) => formatted(name)(fc.sample(formats[name], { seed: 1, numRuns: 1 })[0]));
  return facet(path, 'format', domain, twinValue, values, fixed);
}

const COUNTRIES = ['GBR', 'DEU', 'FRA', 'JPN', 'BRA', 'CAN', 'IND', 'MEX', 'NGA', 'AUS', 'CHE', 'ISR', 'CHN', 'ESP', 'US', 'GB', '840'];
const countryFacets = (path: Path, examples: { codes?: string[]; cases?: boolean } = {}) => codeFacets(path, 'country', 'USA', COUNTRIES, examples);

const POSTAL_CODES = {
  'leading zeros': digits(4).map((d) => `0${d}`),
  'ZIP+4': digits(9).map((d) => `${d.slice(0, 5)}-${d.slice(5)}`),
  'United Kingdom': fc.constantFrom('SW1A 1AA', 'EC1A 1BB', 'M1 1AE'),
  Canada: fc.constantFrom('K1A 0B1', 'H2X 1Y4'),
  Japan: digits(7).map((d) => `${d.slice(0, 3)}-${d.slice(3)}`),
};

const PERSON: Path = ['person_details'];
const ADDRESS: Path = [...PERSON, 'address'];
const TAX_ENTRY: Path = ['tax_details', 0];
const SAMPLE_TAX = { tax_payer_country: 'USA', tax_payer_id: '123-45-6789' };
/** A tax entry to put one member in: the body then satisfies the tax rule through it. */
const withTaxEntry = (body: Record<string, unknown>) => ({ ...body, tax_details: [SAMPLE_TAX] });

/**
 * The government id every uniqueness probe sends: the first identity to hold it is created, and
 * every later one asks whether the target allows a second identity with it. Other creates get a
 * government id of their own (ref-ids.ts).
 */
export const SHARED_GOVERNMENT_ID = '987-65-4320';

const freeMetadata = fc
  .dictionary(freeText(200), freeText(200), { minKeys: 2, maxKeys: 4 })
  .map((m) => Object.fromEntries(Object.entries(m).filter(([k]) => k !== '__proto__')));
/** Identity metadata as an open value describes it: `4 pairs of up to 200 characters`. */
export const metadataDescription = (m: Record<string, unknown>): string => {
  const longest = Math.max(0, ...Object.entries(m).flatMap(([k, v]) => [[...k].length, typeof v === 'string' ? [...v].length : 0]));
  return `${Object.keys(m).length} pairs of up to ${longest} characters`;
};
const metadataValue = (m: Record<string, string>): OpenValue => ({ value: m, probe: { value: metadataDescription(m) } });

export const IDENTITY_OPEN_POINTS: readonly OpenFacet[] = [
  ...freeTextFacets([...PERSON, 'first_name'], 'name', 'Jane', { lengths: [40, 100, 150, 255], alphabets: ['latin', 'cjk', 'astral', 'combining', 'rtl'] }),
  ...freeTextFacets([...PERSON, 'last_name'], 'name', 'Doe', { lengths: [0] }),
  ...normalisationFacets([...PERSON, 'first_name'], 'name', 'Jane', personName, {
    spacing: [outerSpaces('Jane'), innerSpaces('Mary', 'Ann')],
    cases: [caseVariant('Jane', 'upper case')],
    forms: [normalForm('Zoë', 'NFC'), normalForm('Zoë', 'NFD')],
  }),
  ...normalisationFacets([...PERSON, 'last_name'], 'name', 'Doe', personName, { cases: [caseVariant('Doe', 'lower case')] }),
  ...freeTextFacets([...ADDRESS, 'address1'], 'address-line', '1 Main Street', { lengths: [60], alphabets: ['latin'] }),
  // Spacing and letter case only: the accented forms are names'.
  ...normalisationFacets(
    [...ADDRESS, 'address1'],
    'address-line',
    '1 Main Street',
    word.map((w) => `1 ${w} Street`),
  ).filter((f) => f.kind !== 'alphabet'),
  ...freeTextFacets([...ADDRESS, 'city'], 'address-line', 'Springfield'),
  ...freeTextFacets([...ADDRESS, 'province'], 'address-line', 'IL'),
  formatFacet([...ADDRESS, 'zip_code'], 'postal-code', '62701', POSTAL_CODES, ['United Kingdom']),
  ...countryFacets([...ADDRESS, 'country'], { cases: true }),
  ...countryFacets([...PERSON, 'nationality'], { codes: ['GBR', 'GB'] }),
  // Another country of the government id: the tax rule and govt_id are judged with it too (combinations.ts).
  ...countryFacets([...PERSON, 'cip_id_country'], { codes: ['GBR'] }),
  ...codeFacets([...PERSON, 'cip_id_type'], 'kind', 'SSN', ['ITIN', 'EIN', 'PASSPORT', 'ID_CARD', 'DRIVING_LICENSE', 'NATIONAL_ID', 'TAX_ID'], {
    codes: ['ITIN', 'TAX_ID'],
    cases: true,
  }),
  ...codeFacets([...PERSON, 'verifier_type'], 'kind', 'PASSTHROUGH', ['MANUAL', 'PAXOS', 'DOCUMENT', 'INTERNAL'], { codes: ['DOCUMENT'] }),
  formatFacet(
    [...PERSON, 'email'],
    'email',
    'jane.doe@example.com',
    {
      'plus tag': fc.stringMatching(/^[a-z]{1,8}\+[a-z]{1,6}@example\.com$/),
      'upper case': fc.stringMatching(/^[A-Z][a-z]{1,8}\.[A-Z][a-z]{1,8}@Example\.COM$/),
      subdomain: fc.stringMatching(/^[a-z]{1,8}@mail\.example\.net$/),
      'domain without a dot': fc.stringMatching(/^[a-z]{1,8}@localhost$/),
      'underscore and digits': fc.stringMatching(/^[a-z]{1,6}_[a-z]{1,6}[0-9]{2}@example\.com$/),
    },
    ['plus tag', 'domain without a dot'],
  ),
  formatFacet(
    [...PERSON, 'phone_number'],
    'phone',
    '+15555550100',
    {
      'national with punctuation': digits(7).map((d) => `(555) ${d.slice(0, 3)}-${d.slice(3)}`),
      dotted: digits(7).map((d) => `555.${d.slice(0, 3)}.${d.slice(3)}`),
      'international with spaces': digits(8).map((d) => `+44 20 ${d.slice(0, 4)} ${d.slice(4)}`),
      'digits only': digits(7).map((d) => `555${d}`),
    },
    ['national with punctuation'],
  ),
  formatFacet(
    [...PERSON, 'cip_id'],
    'government-id',
    '123-45-6789',
    {
      'no dashes': digits(9),
      passport: digits(8).map((d) => `X${d}`),
      'passport in lower case': digits(8).map((d) => `x${d}`),
      EIN: digits(9).map((d) => `${d.slice(0, 2)}-${d.slice(2)}`),
      'leading zeros': ssn.map((id) => String(leadingZeros(id).value)),
      // Spaces between the groups: a server that normalises what it stores shows it in govt_id (2.6).
      'with spaces': digits(9).map((d) => `${d.slice(0, 3)} ${d.slice(3, 5)} ${d.slice(5)}`),
    },
    ['no dashes', 'leading zeros', 'passport in lower case', 'with spaces'],
  ),
  facet([...PERSON, 'cip_id'], 'uniqueness', 'government-id-uniqueness', '123-45-6789', fc.constant(named(SHARED_GOVERNMENT_ID)), [
    named(SHARED_GOVERNMENT_ID),
    named(SHARED_GOVERNMENT_ID),
  ]),
  {
    ...formatFacet([...TAX_ENTRY, 'tax_payer_id'], 'government-id', '123-45-6789', {
      'no dashes': digits(9),
      EIN: digits(9).map((d) => `${d.slice(0, 2)}-${d.slice(2)}`),
      'letters and digits': digits(6).map((d) => `GB${d}A`),
      'leading zeros': ssn.map((id) => String(leadingZeros(id).value)),
    }),
    ready: withTaxEntry,
  },
  ...countryFacets([...TAX_ENTRY, 'tax_payer_country']).map((f) => ({ ...f, ready: withTaxEntry })),
  facet(
    [...PERSON, 'date_of_birth'],
    'date',
    'date-of-birth',
    '1990-05-17',
    fc
      .oneof(
        { weight: 4, arbitrary: calendarDate(1900, BIRTH_YEARS.first - 1) },
        { weight: 4, arbitrary: calendarDate(BIRTH_YEARS.last + 1, LAST_BIRTH_YEAR) },
        // Before 1900 and in the coming years: a server may take neither.
        { weight: 1, arbitrary: calendarDate(1800, 1899) },
        { weight: 1, arbitrary: calendarDate(LAST_BIRTH_YEAR + 2, LAST_BIRTH_YEAR + 6) },
        // The whole range a date can hold: a server may store a narrower one.
        { weight: 1, arbitrary: farDate(1, 1799) },
        { weight: 1, arbitrary: farDate(LAST_BIRTH_YEAR + 7, 9999) },
      )
      .map((d) => ({ value: d, probe: { value: d, date: d } })),
    ['1905-06-15', `${LAST_BIRTH_YEAR}-06-15`, '1899-12-31', '0001-01-01', '1000-01-01', `${LAST_BIRTH_YEAR + 2}-01-01`, '9999-12-31'].map((d) => ({
      value: d,
      probe: { value: d, date: d },
    })),
  ),
  formatFacet(
    [...PERSON, 'passthrough_verified_at'],
    'timestamp',
    '2024-03-01T10:00:00Z',
    {
      'fraction of a second': fc.constantFrom('2024-03-01T10:00:00.123Z', '2023-11-30T23:59:59.5Z', '2022-02-28T08:00:00.123456Z'),
      'numeric offset': fc.constantFrom('2024-03-01T15:30:00+05:30', '2024-03-01T02:00:00-08:00', '2024-03-01T10:00:00+00:00'),
      'lower-case t and z': fc.constantFrom('2024-03-01t10:00:00z', '2023-07-04t12:00:00Z'),
    },
    ['numeric offset'],
  ),
  facet(
    ['tax_details', 0],
    'partial-entry',
    'tax-entry',
    SAMPLE_TAX,
    fc.oneof(
      fc.constant({ value: { tax_payer_country: 'USA' }, probe: { value: 'an entry without tax_payer_id' } }),
      ssn.map((id) => ({ value: { tax_payer_id: id }, probe: { value: 'an entry without tax_payer_country' } })),
    ),
    [{ value: { tax_payer_id: '123-45-6789' }, probe: { value: 'an entry without tax_payer_country' } }],
    withTaxEntry,
  ),
  facet(
    ['tax_details'],
    'entries',
    'tax-entries',
    [SAMPLE_TAX],
    fc
      .array(ssn, { minLength: 2, maxLength: 3 })
      .map((ids) => ({ value: ids.map((id) => ({ tax_payer_country: 'USA', tax_payer_id: id })), probe: { value: `${ids.length} entries` } })),
    [{ value: [SAMPLE_TAX, { tax_payer_country: 'USA', tax_payer_id: '987-65-4321' }], probe: { value: '2 entries' } }],
  ),
  facet(['metadata'], 'metadata', 'identity-metadata', { channel: 'sample' }, freeMetadata.map(metadataValue), [
    metadataValue({ channel: 'sample', note: 'x'.repeat(200), 'clé ✓': 'valeur 😀', empty: '' }),
  ]),
  facet([...PERSON, 'metadata'], 'metadata', 'identity-metadata', { channel: 'sample' }, freeMetadata.map(metadataValue)),
];

const OWNER: Path = ['fiat_account_owner', 'person_details'];
const WIRE: Path = ['fiat_network_instructions', 'wire'];
const OWNER_ADDRESS: Path = [...WIRE, 'fiat_account_owner_address'];
const ROUTING: Path = [...WIRE, 'routing_details'];

const ROUTING_KINDS = fc.oneof(
  fc
    .tuple(fc.stringMatching(/^[A-Z]{4}$/), fc.constantFrom('US', 'GB', 'DE'), fc.stringMatching(/^[A-Z0-9]{2}$/))
    .map((p) => ({ value: { routing_number_type: 'SWIFT', routing_number: p.join('') }, probe: { value: 'SWIFT' } })),
  digits(14).map((d) => ({ value: { routing_number_type: 'IBAN', routing_number: `GB${d.slice(0, 2)}WEST${d.slice(2)}` }, probe: { value: 'IBAN' } })),
  digits(6).map((d) => ({
    value: { routing_number_type: 'SORT_CODE', routing_number: `${d.slice(0, 2)}-${d.slice(2, 4)}-${d.slice(4)}` },
    probe: { value: 'SORT_CODE' },
  })),
);

/**
 * A null or an empty string where the update has a field of text (or an object): the document
 * types the fields and shows no error (section 7), so refusing and ignoring are both conformant
 * (the vendor's OpenAPI ignores them); an empty string may also be stored as text. `values`:
 * null, or null and the empty string; the examples are sent every run.
 */
function nullFacet(path: Path, domain: string, twinValue: unknown, values: OpenValue[], examples: OpenValue[] = []): OpenFacet {
  return facet(path, 'null-or-empty', domain, twinValue, fc.constantFrom(...values), examples);
}

export const UPDATE_OPEN_POINTS: readonly OpenFacet[] = [
  ...freeTextFacets([...OWNER, 'first_name'], 'name', 'Jane', { lengths: [40, 255], alphabets: ['latin', 'cjk', 'astral', 'combining', 'rtl'] }),
  ...freeTextFacets([...OWNER, 'last_name'], 'name', 'Doe', { lengths: [0] }),
  ...normalisationFacets([...OWNER, 'first_name'], 'name', 'Jane', personName, {
    spacing: [innerSpaces('Mary', 'Ann')],
    cases: [caseVariant('Jane', 'upper case')],
  }),
  ...normalisationFacets([...OWNER, 'last_name'], 'name', 'Doe', personName),
  ...freeTextFacets([...OWNER_ADDRESS, 'address1'], 'address-line', '1 Main Street', { lengths: [60] }),
  ...freeTextFacets([...OWNER_ADDRESS, 'city'], 'address-line', 'Springfield'),
  ...countryFacets([...OWNER_ADDRESS, 'country'], { codes: ['GBR'] }),
  formatFacet([...OWNER_ADDRESS, 'zip_code'], 'postal-code', '62701', POSTAL_CODES),
  ...freeTextFacets([...ROUTING, 'bank_name'], 'bank-name', 'Example Bank', { lengths: [60] }),
  ...countryFacets([...ROUTING, 'bank_address', 'country']),
  // A kind with a routing number of its form: the two go together, and the contract names their object.
  facet([...ROUTING], 'code', 'routing-kind', { routing_number_type: 'ABA', routing_number: '021000021' }, ROUTING_KINDS, [
    { value: { routing_number_type: 'SWIFT', routing_number: 'CHASUS33' }, probe: { value: 'SWIFT' } },
    { value: { routing_number_type: 'IBAN', routing_number: 'GB82WEST12345698765432' }, probe: { value: 'IBAN' } },
  ]),
  facet([...ROUTING, 'routing_number_type'], 'letter-case', 'routing-kind', 'ABA', fc.constantFrom(...otherCases('ABA')).map(named), [named('aba')]),
  nullFacet(OWNER, 'owner', { first_name: 'Jane', last_name: 'Doe' }, [NULL_VALUE]),
  nullFacet([...OWNER, 'first_name'], 'name', 'Jane', [NULL_VALUE, EMPTY_TEXT], [NULL_VALUE, EMPTY_TEXT]),
  nullFacet([...OWNER, 'last_name'], 'name', 'Doe', [NULL_VALUE, EMPTY_TEXT]),
  nullFacet([...ROUTING, 'bank_name'], 'bank-name', 'Example Bank', [NULL_VALUE, EMPTY_TEXT]),
  // address2 "" is the sample's own value (2.4), and its twin: only a null is open there. A target
  // that ignores "" could not have another address2 put back to it.
  nullFacet([...OWNER_ADDRESS, 'address2'], 'address-line', '', [NULL_VALUE]),
  formatFacet([...WIRE, 'account_number'], 'account-number', '000123456789', {
    'letters and digits': digits(14).map((d) => `GB82WEST${d}`),
    'with spaces': digits(12).map((d) => `${d.slice(0, 4)} ${d.slice(4, 8)} ${d.slice(8)}`),
    'leading zeros': digits(9).map((d) => `000${d}`),
  }),
];
