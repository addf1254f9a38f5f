/**
 * Arbitraries for the parts of both requests that the document types but does not limit:
 * names, addresses, wire instructions, tax details, person details. Every value here is valid.
 */
import fc from 'fast-check';
import { characterOf, text } from './text.ts';

/**
 * Free text of person and address fields: never empty and without surrounding white space. The
 * document forbids neither, but a server that trims or refuses them breaks no documented rule.
 */
const field = (min: number, max: number) => text(Math.max(min, 1), max).filter((s) => s.trim() === s);

export const personName = field(1, 30);

const digits = (min: number, max: number) => text(min, max, fc.integer({ min: 0, max: 9 }).map(String));

/**
 * An ABA routing number with a valid check digit (3-7-1 weights), so that a server that checks it
 * has no reason to refuse the instructions.
 */
const abaRoutingNumber = digits(8, 8).map((d) => {
  const weights = [3, 7, 1, 3, 7, 1, 3, 7];
  const sum = [...d].reduce((acc, c, i) => acc + Number(c) * weights[i], 0);
  return d + String((10 - (sum % 10)) % 10);
});

/** Three-letter country codes as in the sample. */
export const country = fc.constantFrom('USA', 'GBR', 'DEU', 'FRA', 'JPN', 'BRA');

/** Section 2.4; address2 may be empty, as in the sample. */
export const address = fc.record(
  {
    country,
    address1: field(1, 40),
    address2: fc.constantFrom('', 'Suite 100', 'Apt. 4'),
    city: field(1, 30),
    province: field(1, 20),
    zip_code: digits(5, 5),
  },
  { requiredKeys: [] },
);

/** Section 2.2: wire instructions. */
export const fiatNetworkInstructions = fc.record({
  wire: fc.record(
    {
      account_number: digits(6, 17),
      fiat_account_owner_address: address,
      routing_details: fc.record(
        { routing_number_type: fc.constant('ABA'), routing_number: abaRoutingNumber, bank_name: field(1, 40), bank_address: address },
        { requiredKeys: [] },
      ),
    },
    { requiredKeys: [] },
  ),
});

/** A calendar date between 1920 and 2008, as YYYY-MM-DD. */
export const dateOfBirth = fc
  .date({ min: new Date(Date.UTC(1920, 0, 1)), max: new Date(Date.UTC(2008, 11, 31)), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

/** A plain address that every email validator accepts. */
export const email = fc
  .tuple(fc.stringMatching(/^[a-z][a-z0-9]{0,11}$/), fc.constantFrom('example.com', 'example.org', 'mail.example.net'))
  .map(([local, domain]) => `${local}@${domain}`);

/** Whole seconds: a server that stores instants to the second returns the same instant. */
export const rfc3339 = fc
  .date({ min: new Date(Date.UTC(2015, 0, 1)), max: new Date(Date.UTC(2026, 0, 1)), noInvalidDate: true })
  .map((d) => d.toISOString().replace(/\.\d+Z$/, 'Z'));

export const taxDetail = fc.record({ tax_payer_country: country, tax_payer_id: digits(9, 11) });

/** Section 2.6 as sent on creation. */
export const personDetails = fc.record(
  {
    first_name: personName,
    last_name: personName,
    date_of_birth: dateOfBirth,
    email,
    phone_number: digits(10, 12).map((d) => `+${d}`),
    cip_id: digits(9, 9).map((d) => `${d.slice(0, 3)}-${d.slice(3, 5)}-${d.slice(5)}`),
    // The allowed values are not shown; SSN is the document's own example (a social number type).
    cip_id_type: fc.constant('SSN'),
    cip_id_country: country,
    nationality: country,
    verifier_type: fc.constant('PASSTHROUGH'),
    // passthrough_verifier_type is an enumerated value whose values are not shown: never sent.
    passthrough_verified_at: rfc3339,
    address,
    metadata: fc.dictionary(text(1, 20, characterOf('ascii')), text(0, 30), { maxKeys: 3 }),
  },
  { requiredKeys: ['first_name', 'last_name'] },
);
