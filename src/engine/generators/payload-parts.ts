/**
 * Arbitraries for the parts of both requests that the document types but does not limit:
 * names, addresses, wire instructions, tax details, person details. Every value here is valid,
 * and every field the document lists is optional here independently of the others (no field of
 * these objects is marked required), so a server that demands one shows itself.
 */
import fc from 'fast-check';
import { anyCase, freeText, text } from './text.ts';

/**
 * Free text of person and address fields: 0 to ~300 code points of every character class,
 * without surrounding white space (the document forbids neither, but a server that trims breaks
 * no documented rule).
 */
export const personName = freeText();

const digits = (min: number, max: number) => text(min, max, fc.integer({ min: 0, max: 9 }).map(String));
const upperAlnum = (min: number, max: number) => text(min, max, fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'));

/**
 * An ABA routing number with a valid check digit (3-7-1 weights), so that a server that checks it
 * has no reason to refuse the instructions.
 */
const abaRoutingNumber = digits(8, 8).map((d) => {
  const weights = [3, 7, 1, 3, 7, 1, 3, 7];
  const sum = [...d].reduce((acc, c, i) => acc + Number(c) * weights[i], 0);
  return d + String((10 - (sum % 10)) % 10);
});

/** Three-letter country codes, the form of the sample (any letter case: the kind is free text). */
const COUNTRIES = ['USA', 'GBR', 'DEU', 'FRA', 'JPN', 'BRA', 'CAN', 'IND', 'MEX', 'NGA', 'AUS', 'CHE', 'ISR', 'CHN', 'ESP'];
export const country = anyCase(fc.constantFrom(...COUNTRIES));

/**
 * Routing number kinds: the sample shows ABA, the full list is not shown. Each kind comes with a
 * routing number of its own form.
 */
const routing = fc.oneof(
  { weight: 3, arbitrary: fc.record({ routing_number_type: anyCase(fc.constant('ABA')), routing_number: abaRoutingNumber }) },
  {
    weight: 1,
    arbitrary: fc.record({
      routing_number_type: anyCase(fc.constantFrom('SWIFT', 'BIC')),
      routing_number: fc
        .tuple(upperAlnum(4, 4), fc.constantFrom('US', 'GB', 'DE', 'FR'), upperAlnum(2, 2), fc.constantFrom('', 'XXX', '500'))
        .map((p) => p.join('')),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      routing_number_type: anyCase(fc.constant('IBAN')),
      routing_number: fc.tuple(fc.constantFrom('GB', 'DE', 'FR'), digits(2, 2), upperAlnum(10, 26)).map((p) => p.join('')),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      routing_number_type: anyCase(fc.constantFrom('SORT_CODE', 'BSB', 'IFSC')),
      routing_number: digits(6, 6).map((d) => `${d.slice(0, 2)}-${d.slice(2, 4)}-${d.slice(4)}`),
    }),
  },
);

/** Postal codes of several countries (letters, spaces, dashes), and none at all. */
const zipCode = fc.oneof(
  digits(5, 5),
  digits(5, 5).chain((d) => digits(4, 4).map((e) => `${d}-${e}`)),
  fc.constantFrom('SW1A 1AA', 'K1A 0B1', '10115', '100-0001', '01310-100', ''),
);

/** Section 2.4: every field optional; address2 may be empty, as in the sample. */
export const address = fc.record(
  {
    country,
    address1: freeText(),
    address2: fc.oneof(fc.constantFrom('', 'Suite 100', 'Apt. 4'), freeText()),
    city: freeText(),
    province: freeText(),
    zip_code: zipCode,
  },
  { requiredKeys: [] },
);

/** Section 2.2: wire instructions, every member optional. */
export const fiatNetworkInstructions = fc.record({
  wire: fc.record(
    {
      account_number: fc.oneof(digits(6, 17), upperAlnum(8, 34)),
      fiat_account_owner_address: address,
      routing_details: fc
        .tuple(routing, fc.record({ bank_name: freeText(), bank_address: address }, { requiredKeys: [] }), fc.constantFrom(0, 1, 2, 3))
        .map(([r, rest, drop]) => {
          // Either routing member may be absent, like every other member.
          const { routing_number_type, routing_number } = r;
          return {
            ...(drop === 1 ? {} : { routing_number_type }),
            ...(drop === 2 ? {} : { routing_number }),
            ...rest,
          };
        }),
    },
    { requiredKeys: [] },
  ),
});

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const daysIn = (y: number, m: number) => [31, isLeap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
/** Births up to last year: a date in the future could be refused for reasons the document does not give. */
export const LAST_BIRTH_YEAR = new Date().getUTCFullYear() - 1;
const LEAP_YEARS = Array.from({ length: LAST_BIRTH_YEAR - 1900 + 1 }, (_, i) => 1900 + i).filter(isLeap);

/** A real calendar date as YYYY-MM-DD. */
const ymd = (y: number, m: number, d: number) => `${y}-${pad(m)}-${pad(d)}`;

/**
 * A calendar date between 1900 and last year, as YYYY-MM-DD: uniform dates mixed with the edges a
 * date parser gets wrong (Feb 29 of leap years, 2000 included; Feb 28 of the century year 1900;
 * Jan 1, Dec 31 and other month ends).
 */
export const dateOfBirth: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .date({ min: new Date(Date.UTC(1900, 0, 1)), max: new Date(Date.UTC(LAST_BIRTH_YEAR, 11, 31)), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10)),
  },
  { weight: 1, arbitrary: fc.constantFrom(...LEAP_YEARS, 2000).map((y) => ymd(y, 2, 29)) },
  { weight: 1, arbitrary: fc.constantFrom('1900-02-28', '1900-01-01', '2000-01-01', '1999-12-31', `${LAST_BIRTH_YEAR}-12-31`) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.integer({ min: 1900, max: LAST_BIRTH_YEAR }), fc.integer({ min: 1, max: 12 }), fc.boolean())
      .map(([y, m, first]) => ymd(y, m, first ? 1 : daysIn(y, m))),
  },
);

/** Addresses every email validator accepts, with dots, plus tags and upper case. */
export const email = fc
  .tuple(
    fc.stringMatching(/^[a-z][a-z0-9]{0,11}$/),
    fc.constantFrom('', '.smith', '+tag', '_x', '-1'),
    fc.constantFrom('example.com', 'example.org', 'mail.example.net', 'Example.COM'),
    fc.boolean(),
  )
  .map(([local, suffix, domain, upper]) => `${upper ? local.toUpperCase() : local}${suffix}@${domain}`);

/**
 * RFC 3339 date-times as the schema's date-time and isRfc3339 both take them: whole seconds or a
 * fraction (1 to 6 digits), offset Z or a numeric one (+05:30, -08:00, +00:00), and the lower-case
 * t and z that RFC 3339 allows.
 */
export const rfc3339 = fc
  .tuple(
    fc.date({ min: new Date(Date.UTC(2015, 0, 1)), max: new Date(Date.UTC(2026, 0, 1)), noInvalidDate: true }),
    fc.constantFrom('', '.5', '.123', '.123456'),
    fc.constantFrom(0, 0, 0, 330, -480, 60, -210),
    fc.constantFrom('T', 'T', 'T', 't'),
    fc.constantFrom('Z', 'Z', 'z', '+00:00'),
  )
  .map(([date, fraction, offsetMinutes, t, zulu]) => {
    const local = new Date(date.getTime() + offsetMinutes * 60_000).toISOString().slice(0, 19);
    const sign = offsetMinutes < 0 ? '-' : '+';
    const abs = Math.abs(offsetMinutes);
    const offset = offsetMinutes === 0 ? zulu : `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
    return `${local.slice(0, 10)}${t}${local.slice(11)}${fraction}${offset}`;
  });

/** Tax payer ids of several forms (a 9-digit number, dashed, letters). */
const taxPayerId = fc.oneof(
  { weight: 3, arbitrary: digits(9, 11) },
  { weight: 1, arbitrary: digits(9, 9).map((d) => `${d.slice(0, 3)}-${d.slice(3, 5)}-${d.slice(5)}`) },
  { weight: 1, arbitrary: upperAlnum(8, 15) },
);

/** A tax_details entry with both members. */
export const fullTaxDetail = fc.record({ tax_payer_country: country, tax_payer_id: taxPayerId });

/**
 * A tax_details entry (sections 2.5, 4.2): mostly both members; neither is marked required, so
 * now and then one is missing.
 */
export const taxDetail = fc.oneof(
  { weight: 6, arbitrary: fullTaxDetail },
  {
    weight: 1,
    arbitrary: fc.record({ tax_payer_country: country, tax_payer_id: taxPayerId }, { requiredKeys: [] }).filter((t) => Object.keys(t).length === 1),
  },
);

/** One to three entries. */
export const taxDetails = fc.array(taxDetail, { minLength: 1, maxLength: 3 });

/** Government id kinds: SSN is the document's own kind of example (a social number type); the list is not shown. */
const cipIdType = anyCase(fc.constantFrom('SSN', 'SSN', 'ITIN', 'EIN', 'PASSPORT', 'NATIONAL_ID', 'DRIVERS_LICENSE', 'TAX_ID'));

const cipId = fc.oneof(
  { weight: 3, arbitrary: digits(9, 9).map((d) => `${d.slice(0, 3)}-${d.slice(3, 5)}-${d.slice(5)}`) },
  { weight: 1, arbitrary: digits(9, 9) },
  { weight: 1, arbitrary: upperAlnum(6, 20) },
);

const phoneNumber = fc.oneof(
  { weight: 3, arbitrary: digits(10, 12).map((d) => `+${d}`) },
  { weight: 1, arbitrary: digits(10, 10).map((d) => `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`) },
  { weight: 1, arbitrary: digits(10, 10).map((d) => `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6)}`) },
  { weight: 1, arbitrary: digits(10, 10).map((d) => `+44 ${d.slice(0, 2)} ${d.slice(2, 6)} ${d.slice(6)}`) },
);

/** Free key/value pairs (2.6, 4.2): keys and values of 0 to ~200 code points, string values. */
export const freeMetadata = (maxKeys: number) =>
  fc.dictionary(freeText(200), freeText(200), { maxKeys }).map((m) => Object.fromEntries(Object.entries(m).filter(([k]) => k !== '__proto__')));

/** Section 2.6 as sent on creation: every field optional, independently of the others. */
export const personDetails = fc.record(
  {
    first_name: personName,
    last_name: personName,
    date_of_birth: dateOfBirth,
    email,
    phone_number: phoneNumber,
    cip_id: cipId,
    cip_id_type: cipIdType,
    cip_id_country: country,
    nationality: country,
    // The sample's PASSTHROUGH, and other kinds (their list is not shown).
    verifier_type: anyCase(fc.constantFrom('PASSTHROUGH', 'PASSTHROUGH', 'MANUAL', 'DOCUMENT', 'INTERNAL')),
    // passthrough_verifier_type is an enumerated value whose values are not shown: never sent.
    passthrough_verified_at: rfc3339,
    address,
    metadata: freeMetadata(3),
  },
  { requiredKeys: [] },
);

/** The owner's names of an update (2.3): each optional. */
export const ownerPersonDetails = fc.record({ first_name: personName, last_name: personName }, { requiredKeys: [] });
