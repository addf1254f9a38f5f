/**
 * Arbitraries for the parts of both requests that the document types but does not limit, kept to
 * what the document guarantees (docs/design.md, "guaranteed, forbidden, open"): the samples'
 * shapes and values. Names of ASCII letters, addresses like "1 Main Street", the sample's codes
 * and kinds, dates of birth between 1940 and 2000, the sample's email, phone, government id and
 * timestamp forms. Every field the document lists is optional here independently of the others
 * (no field of these objects is marked required), so a server that demands one shows itself.
 * Values beyond these shapes are open points: open-points.ts varies them one at a time.
 */
import fc from 'fast-check';
import { text } from './text.ts';

const digits = (min: number, max: number) => text(min, max, fc.integer({ min: 0, max: 9 }).map(String));

/** A capitalised word of ASCII letters, the shape of the samples' "Jane", "Doe", "Springfield". */
export const word = fc.stringMatching(/^[A-Z][a-z]{1,11}$/);

/** First and last names as the samples write them. */
export const personName = word;

/** The samples' country code: the list of codes is not shown. */
export const SAMPLE_COUNTRY = 'USA';
export const country = fc.constant(SAMPLE_COUNTRY);

/**
 * An ABA routing number with a valid check digit (3-7-1 weights), so that a server that checks it
 * has no reason to refuse the instructions.
 */
const abaRoutingNumber = digits(8, 8).map((d) => {
  const weights = [3, 7, 1, 3, 7, 1, 3, 7];
  const sum = [...d].reduce((acc, c, i) => acc + Number(c) * weights[i], 0);
  return d + String((10 - (sum % 10)) % 10);
});

/** Section 2.4: every field optional; address2 may be empty, as in the sample. */
export const address = fc.record(
  {
    country,
    address1: fc
      .tuple(fc.integer({ min: 1, max: 9999 }), word, fc.constantFrom('Street', 'Avenue', 'Road', 'Plaza'))
      .map(([n, name, kind]) => `${n} ${name} ${kind}`),
    address2: fc.oneof(
      fc.constant(''),
      fc.integer({ min: 1, max: 999 }).map((n) => `Suite ${n}`),
    ),
    city: fc.oneof(
      word,
      fc.tuple(fc.constantFrom('New', 'Port', 'East'), word).map(([a, b]) => `${a} ${b}`),
    ),
    province: fc.stringMatching(/^[A-Z]{2}$/),
    zip_code: digits(5, 5),
  },
  { requiredKeys: [] },
);

/** Sections 2.2 and 4.1: wire instructions in the sample's shape, every member optional. */
export const fiatNetworkInstructions = fc.record({
  wire: fc.record(
    {
      account_number: digits(6, 17),
      fiat_account_owner_address: address,
      routing_details: fc.record(
        {
          routing_number_type: fc.constant('ABA'),
          routing_number: abaRoutingNumber,
          bank_name: word.map((w) => `${w} Bank`),
          bank_address: address,
        },
        { requiredKeys: [] },
      ),
    },
    { requiredKeys: [] },
  ),
});

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const daysIn = (y: number, m: number) => [31, isLeap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
/** A real calendar date as YYYY-MM-DD. */
export const ymd = (y: number, m: number, d: number) => `${y}-${pad(m)}-${pad(d)}`;

/** Births up to last year: a date in the future could be refused for reasons the document does not give. */
export const LAST_BIRTH_YEAR = new Date().getUTCFullYear() - 1;

/**
 * Dates of birth no reasonable server refuses: adults of 26 to 86 years, around the sample's
 * 1990-05-17. Earlier and later dates are open points (a server may limit ages).
 */
export const BIRTH_YEARS = { first: 1940, last: 2000 } as const;
const LEAP_YEARS = Array.from({ length: BIRTH_YEARS.last - BIRTH_YEARS.first + 1 }, (_, i) => BIRTH_YEARS.first + i).filter(isLeap);

/** A calendar date between `first` and `last` (years, inclusive), uniform and at the edges a parser gets wrong. */
export function calendarDate(first: number, last: number): fc.Arbitrary<string> {
  const leapYears = Array.from({ length: last - first + 1 }, (_, i) => first + i).filter(isLeap);
  return fc.oneof(
    {
      weight: 3,
      arbitrary: fc
        .date({ min: new Date(Date.UTC(first, 0, 1)), max: new Date(Date.UTC(last, 11, 31)), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10)),
    },
    ...(leapYears.length ? [{ weight: 1, arbitrary: fc.constantFrom(...leapYears).map((y) => ymd(y, 2, 29)) }] : []),
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.integer({ min: first, max: last }), fc.integer({ min: 1, max: 12 }), fc.boolean())
        .map(([y, m, firstDay]) => ymd(y, m, firstDay ? 1 : daysIn(y, m))),
    },
  );
}

/**
 * A date of birth as YYYY-MM-DD: uniform dates mixed with the edges a date parser gets wrong
 * (Feb 29 of leap years, 2000 included; the Unix epoch; Jan 1, Dec 31 and other month ends).
 */
export const dateOfBirth: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: calendarDate(BIRTH_YEARS.first, BIRTH_YEARS.last) },
  { weight: 1, arbitrary: fc.constantFrom(...LEAP_YEARS.slice(-3), 2000).map((y) => ymd(y, 2, 29)) },
  { weight: 1, arbitrary: fc.constantFrom('1970-01-01', '1969-12-31', '1970-01-02', '1999-12-31', '2000-01-01', '1990-05-17') },
);

/** The sample's email shape (jane.doe@example.com). */
export const email = fc
  .tuple(fc.stringMatching(/^[a-z]{1,10}$/), fc.option(fc.stringMatching(/^[a-z]{1,10}$/), { nil: undefined }), fc.constantFrom('example.com', 'example.org'))
  .map(([local, more, domain]) => `${local}${more ? `.${more}` : ''}@${domain}`);

/** The sample's phone shape: E.164 (+15555550100). */
const phoneNumber = digits(7, 7).map((d) => `+1555${d}`);

/**
 * The sample's timestamp form (2024-03-01T10:00:00Z): whole seconds, Z. Other RFC 3339 forms
 * (fractions, offsets, lower-case t and z) are open formats.
 */
export const sampleTimestamp = fc
  .date({ min: new Date(Date.UTC(2015, 0, 1)), max: new Date(Date.UTC(2025, 11, 31)), noInvalidDate: true })
  .map((d) => `${d.toISOString().slice(0, 19)}Z`);

/** A US social security number's shape, as the sample's cip_id and tax_payer_id (123-45-6789). */
export const ssn = digits(9, 9).map((d) => `${d.slice(0, 3)}-${d.slice(3, 5)}-${d.slice(5)}`);

/** A tax_details entry with both members, in the sample's form. */
export const fullTaxDetail = fc.record({ tax_payer_country: country, tax_payer_id: ssn });

/** One entry, as the sample: more entries and entries lacking a member are open points. */
export const taxDetails = fc.array(fullTaxDetail, { minLength: 1, maxLength: 1 });

/** One short pair, as the sample's {"channel": "sample"}: limits on other metadata are not shown. */
export const sampleMetadata = fc.oneof(
  fc.constant({}),
  fc.tuple(fc.stringMatching(/^[a-z]{1,12}$/), fc.stringMatching(/^[a-z0-9]{1,12}$/)).map(([k, v]) => ({ [k]: v })),
);

/** Section 2.6 as sent on creation: every field optional, independently of the others. */
export const personDetails = fc.record(
  {
    first_name: personName,
    last_name: personName,
    date_of_birth: dateOfBirth,
    email,
    phone_number: phoneNumber,
    cip_id: ssn,
    cip_id_type: fc.constant('SSN'),
    cip_id_country: country,
    nationality: country,
    verifier_type: fc.constant('PASSTHROUGH'),
    // passthrough_verifier_type is an enumerated value whose values are not shown: never sent.
    passthrough_verified_at: sampleTimestamp,
    address,
    metadata: sampleMetadata,
  },
  { requiredKeys: [] },
);

/** The owner's names of an update (2.3): each optional. */
export const ownerPersonDetails = fc.record({ first_name: personName, last_name: personName }, { requiredKeys: [] });
