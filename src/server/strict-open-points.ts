/**
 * The strict variant of the server (`strict: true`, `serve --strict`): the points the document
 * leaves open (docs/design.md, "What the document guarantees, forbids, and leaves open"),
 * restricted as the vendor's own OpenAPI does (paxos-v2: PersonDetails, IdentityMailingAddress,
 * MailingAddress, TaxDetail, PersonDetailsCIPIDType, identityprotoVerifierType,
 * FiatWireAccountType). Nothing the document guarantees or leaves to the schema is touched:
 * address2 "" stays accepted (2.4), fiat-account metadata keeps its documented limits (8), and
 * values of another JSON type are left to the schema's refusal.
 */
import type { OpenKind } from '../core/open-point.ts';
import type { Operation } from '../core/operations.ts';
import { codePoints } from '../core/text.ts';
import { isPlainObject } from './json-body.ts';
import { isCalendarDate } from './text.ts';

/** One restriction in human terms, as a run's observed contract would list it. */
export interface StrictRestriction {
  operation: Operation;
  /** Dotted, an array's entries as []: "person_details.first_name", "tax_details[]". */
  field: string;
  kind: OpenKind;
  /** "at most 200 characters", "one of SSN, ID_CARD, ...". */
  limit: string;
}

/** One field of the table and what the strict server refuses there. */
export interface StrictOpenPoint {
  operation: Operation;
  field: string;
  limits: readonly { kind: OpenKind; limit: string }[];
  /** The reason, after "<name> must ". */
  rule: string;
  /** False for a refused value; absent members never reach it. */
  accepts(value: unknown): boolean;
}

/** The vendor's pattern of names and ids: ASCII letters, digits and a few marks. */
const VENDOR_TEXT = "0-9A-Za-z /?:().,&'+-";
const NAME = new RegExp(`^[${VENDOR_TEXT}]+$`);
/** Addresses take the same characters, but "" too: the document guarantees address2 "" (2.4). */
const ADDRESS_TEXT = new RegExp(`^[${VENDOR_TEXT}]*$`);
const COUNTRY = /^[A-Z]{3}$/;
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const PHONE = /^\+[1-9][0-9]{6,14}$/;
const EARLIEST_BIRTH = '1900-01-01';
const METADATA_PAIRS = 6;
const METADATA_LENGTH = 100;

const CIP_ID_TYPES = ['SSN', 'ID_CARD', 'ITIN', 'PASSPORT', 'DRIVING_LICENSE', 'VISA'];
const VERIFIER_TYPES = ['PAXOS', 'PASSTHROUGH', 'MANUAL'];
const ROUTING_NUMBER_TYPES = ['ABA', 'SWIFT'];

const UPDATE: Operation = 'updateFiatAccount';
const CREATE: Operation = 'createIdentity';

/** A restriction of strings; other JSON types are the schema's to refuse. */
const text = (operation: Operation, field: string, limits: StrictOpenPoint['limits'], rule: string, test: (s: string) => boolean): StrictOpenPoint => ({
  operation,
  field,
  limits,
  rule,
  accepts: (value) => typeof value !== 'string' || test(value),
});

const name = (operation: Operation, field: string, max: number) =>
  text(
    operation,
    field,
    [
      { kind: 'length', limit: `1 to ${max} characters` },
      { kind: 'alphabet', limit: `characters of [${VENDOR_TEXT}]` },
    ],
    `match ${NAME.source} and be at most ${max} characters`,
    (s) => NAME.test(s) && s.length <= max,
  );

const country = (operation: Operation, field: string) =>
  text(
    operation,
    field,
    [
      { kind: 'code', limit: 'three letters (ISO 3166-1 alpha-3)' },
      { kind: 'letter-case', limit: 'upper case' },
    ],
    `match ${COUNTRY.source} (ISO 3166-1 alpha-3)`,
    (s) => COUNTRY.test(s),
  );

const kindOf = (operation: Operation, field: string, values: string[]) =>
  text(
    operation,
    field,
    [
      { kind: 'code', limit: `one of ${values.join(', ')}` },
      { kind: 'letter-case', limit: 'upper case, as listed' },
    ],
    `be one of ${values.join(', ')}`,
    (s) => values.includes(s),
  );

/** Every member of an address: 35 characters of the vendor's set, the country a code. */
const address = (operation: Operation, prefix: string): StrictOpenPoint[] => [
  country(operation, `${prefix}.country`),
  ...['address1', 'address2', 'city', 'province', 'zip_code'].map((member) =>
    text(
      operation,
      `${prefix}.${member}`,
      [
        { kind: 'length', limit: 'at most 35 characters' },
        { kind: 'alphabet', limit: `characters of [${VENDOR_TEXT}]` },
      ],
      `match ${ADDRESS_TEXT.source} and be at most 35 characters`,
      (s) => ADDRESS_TEXT.test(s) && s.length <= 35,
    ),
  ),
];

/** Identity and person metadata: the limits the document sets for fiat-account metadata only. */
const metadata = (field: string): StrictOpenPoint => ({
  operation: CREATE,
  field,
  limits: [{ kind: 'metadata', limit: `at most ${METADATA_PAIRS} pairs, keys and values at most ${METADATA_LENGTH} characters` }],
  rule: `have at most ${METADATA_PAIRS} pairs, keys and values of at most ${METADATA_LENGTH} characters`,
  accepts: (value) => {
    if (!isPlainObject(value)) return true;
    const entries = Object.entries(value);
    const short = (s: unknown) => typeof s !== 'string' || codePoints(s) <= METADATA_LENGTH;
    return entries.length <= METADATA_PAIRS && entries.every(([k, v]) => short(k) && short(v));
  },
});

/** Today in UTC, YYYY-MM-DD: a later date of birth is in the future. */
const today = () => new Date().toISOString().slice(0, 10);

/** The table, in the order the strict server checks it (the first refusal is the one answered). */
export const STRICT_OPEN_POINTS: readonly StrictOpenPoint[] = [
  name(UPDATE, 'fiat_account_owner.person_details.first_name', 200),
  name(UPDATE, 'fiat_account_owner.person_details.last_name', 200),
  ...address(UPDATE, 'fiat_network_instructions.wire.fiat_account_owner_address'),
  kindOf(UPDATE, 'fiat_network_instructions.wire.routing_details.routing_number_type', ROUTING_NUMBER_TYPES),
  ...address(UPDATE, 'fiat_network_instructions.wire.routing_details.bank_address'),

  name(CREATE, 'person_details.first_name', 200),
  name(CREATE, 'person_details.last_name', 200),
  text(
    CREATE,
    'person_details.date_of_birth',
    [{ kind: 'date', limit: `${EARLIEST_BIRTH} to today` }],
    `be a date from ${EARLIEST_BIRTH} to today`,
    // An impossible date is the document's refusal (validation.ts), whatever this table says.
    (s) => !isCalendarDate(s) || (s >= EARLIEST_BIRTH && s <= today()),
  ),
  text(CREATE, 'person_details.email', [{ kind: 'format', limit: EMAIL.source }], `match ${EMAIL.source}`, (s) => EMAIL.test(s)),
  text(CREATE, 'person_details.phone_number', [{ kind: 'format', limit: `${PHONE.source} (E.164)` }], `match ${PHONE.source}`, (s) => PHONE.test(s)),
  name(CREATE, 'person_details.cip_id', 200),
  kindOf(CREATE, 'person_details.cip_id_type', CIP_ID_TYPES),
  country(CREATE, 'person_details.cip_id_country'),
  country(CREATE, 'person_details.nationality'),
  kindOf(CREATE, 'person_details.verifier_type', VERIFIER_TYPES),
  ...address(CREATE, 'person_details.address'),
  metadata('person_details.metadata'),
  metadata('metadata'),
  {
    operation: CREATE,
    field: 'tax_details[]',
    limits: [{ kind: 'partial-entry', limit: 'both tax_payer_country and tax_payer_id' }],
    rule: 'have both tax_payer_country and tax_payer_id',
    accepts: (entry) => !isPlainObject(entry) || (entry.tax_payer_country !== undefined && entry.tax_payer_id !== undefined),
  },
  country(CREATE, 'tax_details[].tax_payer_country'),
  name(CREATE, 'tax_details[].tax_payer_id', 35),
];

/** The one restriction the identity store keeps, not the body: a government id is one identity's. */
export const STRICT_GOVT_ID: StrictRestriction = {
  operation: CREATE,
  field: 'person_details.cip_id',
  kind: 'uniqueness',
  limit: 'one identity per cip_id',
};

/** Every restriction of the strict variant, one per field and kind. */
export const STRICT_RESTRICTIONS: readonly StrictRestriction[] = [
  ...STRICT_OPEN_POINTS.flatMap((p) => p.limits.map(({ kind, limit }) => ({ operation: p.operation, field: p.field, kind, limit }))),
  STRICT_GOVT_ID,
];

/** What the strict server answers a refused body with: the field (entries numbered) and why. */
export interface StrictRefusal {
  field: string;
  message: string;
}

/** The values at a dotted field of the table, with where they are ("tax_details[1].tax_payer_id"). */
function valuesAt(body: Record<string, unknown>, field: string): { at: string; value: unknown }[] {
  let found: { at: string; value: unknown }[] = [{ at: '', value: body }];
  for (const segment of field.split('.')) {
    const entries = segment.endsWith('[]');
    const key = entries ? segment.slice(0, -2) : segment;
    found = found.flatMap(({ at, value }) => {
      if (!isPlainObject(value) || !Object.hasOwn(value, key)) return [];
      const here = at ? `${at}.${key}` : key;
      const member = value[key];
      if (!entries) return [{ at: here, value: member }];
      return Array.isArray(member) ? member.map((entry, i) => ({ at: `${here}[${i}]`, value: entry })) : [];
    });
  }
  return found;
}

/** The first value of the body the strict variant refuses, or undefined. */
export function strictRefusal(operation: Operation, body: Record<string, unknown>): StrictRefusal | undefined {
  for (const point of STRICT_OPEN_POINTS) {
    if (point.operation !== operation) continue;
    const refused = valuesAt(body, point.field).find(({ value }) => !point.accepts(value));
    if (refused) {
      const leaf = point.field.split('.').at(-1)!;
      const subject = leaf.endsWith('[]') ? `a ${leaf.slice(0, -2)} entry` : leaf;
      return { field: refused.at, message: `${subject} must ${point.rule}` };
    }
  }
  return undefined;
}

/** The government id a create claims, when it sends one as a string. */
export function govtIdOf(body: Record<string, unknown>): string | undefined {
  const person = body.person_details;
  return isPlainObject(person) && typeof person.cip_id === 'string' ? person.cip_id : undefined;
}
