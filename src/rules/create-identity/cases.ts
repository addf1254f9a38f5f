/**
 * Cases for POST /v2/identity/identities (sections 2.5, 2.6, 4.2). The runner stamps every object
 * body with a fresh ref_id of the run, so no two cases collide on the target.
 */
import fc from 'fast-check';
import { caseBuilder, type CaseFamily } from '../cases/family.ts';
import type { RuleId } from '../../core/catalogue.ts';
import { LAST_BIRTH_YEAR, dateOfBirth, fullTaxDetail, personDetails, sampleMetadata, taxDetails } from '../cases/payload-parts.ts';
import { openCases, openExamples } from '../open-points/open-facet.ts';
import { IDENTITY_OPEN_POINTS } from '../open-points/cases.ts';
import { withControl } from '../cases/twins.ts';
import { sample } from '../cases/samples.ts';
import { malformedBodyFamily, wrongTypeFamily } from '../cases/wrong-types.ts';
import { emptyBodyFamily, otherMethodsFamily } from '../http-around/cases.ts';

type Body = Record<string, unknown>;

const create = caseBuilder('createIdentity');

const ADA = { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1990-01-01' };
const TAX = [{ tax_payer_country: 'USA', tax_payer_id: '123456789' }];
/** The smallest create the document allows: the twin of a body that is not an object. */
const MINIMAL = { person_details: ADA, tax_details_not_required: true };

/**
 * Everything of a create request but the two tax fields. person_details is always there: only
 * person identities are generated (the contents of institution_details and
 * customer_due_diligence are not shown).
 */
const identityWithoutTax = fc.record(
  {
    person_details: personDetails,
    metadata: sampleMetadata,
    is_merchant: fc.boolean(),
  },
  { requiredKeys: ['person_details'] },
);

/** The ways to satisfy the tax rule: details given (flag absent, false or true), or the flag true. */
const satisfiedTax: fc.Arbitrary<Body> = fc.oneof(
  taxDetails.map((tax_details) => ({ tax_details })),
  fc.constant({ tax_details_not_required: true }),
  fc.tuple(taxDetails, fc.boolean()).map(([tax_details, tax_details_not_required]) => ({ tax_details, tax_details_not_required })),
);

export const validIdentityBody: fc.Arbitrary<Body> = fc.tuple(identityWithoutTax, satisfiedTax).map(([body, tax]) => ({ ...body, ...tax }));

const describeTax = (body: Body) =>
  body.tax_details === undefined
    ? `tax_details_not_required ${String(body.tax_details_not_required)}`
    : `${(body.tax_details as unknown[]).length} tax_details`;

const valid: CaseFamily = {
  rule: 'id.valid-accepted',
  examples: [
    create("the document's sample create request", 'valid', sample('create-identity-request')),
    create('a merchant with tax details', 'valid', { person_details: ADA, tax_details: TAX, is_merchant: true }),
    create('tax details with tax_details_not_required false', 'valid', { person_details: ADA, tax_details: TAX, tax_details_not_required: false }),
    create('born on a leap day', 'valid', { person_details: { ...ADA, date_of_birth: '2000-02-29' }, tax_details_not_required: true }),
    create('born on 1970-01-01', 'valid', { person_details: { ...ADA, date_of_birth: '1970-01-01' }, tax_details_not_required: true }),
    ...openExamples('createIdentity', IDENTITY_OPEN_POINTS, MINIMAL),
  ],
  // Guaranteed bodies and open ones alike: a refused open value is recorded, never blamed.
  arbitrary: fc.oneof(
    validIdentityBody.map((body) => create(`random identity with ${describeTax(body)}`, 'valid', body)),
    openCases('createIdentity', IDENTITY_OPEN_POINTS, validIdentityBody),
  ),
};

/**
 * The tax rule of section 4.2: tax_details must be set unless tax_details_not_required is true.
 * One family per value of the flag (absent, false, true), all without tax_details.
 */
function taxFamily(rule: RuleId, mode: 'invalid' | 'boundary', flag: boolean | undefined): CaseFamily {
  const withFlag = (body: Record<string, unknown>) => (flag === undefined ? body : { ...body, tax_details_not_required: flag });
  const described = flag === undefined ? 'no tax_details and no tax_details_not_required' : `no tax_details with tax_details_not_required ${flag}`;
  const random =
    flag === undefined
      ? 'random identity without tax_details nor tax_details_not_required'
      : `random identity without tax_details, tax_details_not_required ${flag}`;
  // The twin: the same body with one valid tax_details entry, the flag unchanged.
  const taxCase = (label: string, body: Body, entry: Body) =>
    withControl(create(label, mode, withFlag(body), rule), { ...withFlag(body), tax_details: [entry] });
  return {
    rule,
    examples: [taxCase(described, { person_details: ADA }, TAX[0])],
    arbitrary: fc.tuple(identityWithoutTax, fullTaxDetail).map(([body, entry]) => taxCase(random, body, entry)),
  };
}

const taxAbsentRejected = taxFamily('id.tax.absent-rejected', 'invalid', undefined);
const taxFalseRejected = taxFamily('id.tax.absent-false-rejected', 'invalid', false);
const taxNotRequiredAccepted = taxFamily('id.tax.not-required-accepted', 'boundary', true);

const wrongTypes = wrongTypeFamily(
  'id.wrong-types-rejected',
  { person_details: ADA, tax_details_not_required: true },
  validIdentityBody,
  [
    { path: ['tax_details_not_required'], value: 'true', also: { tax_details: TAX } },
    { path: ['tax_details_not_required'], value: 1, also: { tax_details: TAX } },
    { path: ['tax_details'], value: { tax_payer_country: 'USA', tax_payer_id: '123456789' } },
    { path: ['tax_details'], value: ['123456789'] },
    { path: ['is_merchant'], value: 'true' },
    { path: ['ref_id'], value: 12345 },
    { path: ['person_details'], value: 'Ada Lovelace' },
    { path: ['person_details', 'first_name'], value: 42 },
    { path: ['person_details', 'address'], value: '1 Main St' },
    { path: ['metadata'], value: ['k', 'v'] },
    { path: ['institution_members'], value: { name: 'x' } },
    { path: ['customer_due_diligence'], value: 'done' },
    { path: ['tax_details'], value: [{ tax_payer_country: 'USA', tax_payer_id: 123456789 }] },
    { path: ['person_details', 'address', 'zip_code'], value: 10001 },
  ],
  (label, body) => create(label, 'invalid', body, 'id.wrong-types-rejected'),
  [
    { path: ['tax_details'], value: [{ tax_payer_country: null, tax_payer_id: '123456789' }] },
    { path: ['tax_details'], value: [{ tax_payer_country: 'USA', tax_payer_id: { id: '123456789' } }] },
    { path: ['tax_details'], value: [{ tax_payer_country: ['USA'], tax_payer_id: '123456789' }] },
    { path: ['tax_details'], value: [{ tax_payer_country: 'USA', tax_payer_id: '123456789' }, 'USA:123456789'] },
    { path: ['tax_details'], value: [null] },
    { path: ['tax_details_not_required'], value: null, also: { tax_details: TAX } },
    { path: ['is_merchant'], value: 0 },
    { path: ['person_details', 'last_name'], value: null },
    { path: ['person_details', 'first_name'], value: ['Ada'] },
    { path: ['person_details', 'date_of_birth'], value: 19900101 },
    { path: ['person_details', 'email'], value: { address: 'ada@example.com' } },
    { path: ['person_details', 'phone_number'], value: 15551234567 },
    { path: ['person_details', 'cip_id'], value: 123456789 },
    { path: ['person_details', 'cip_id_type'], value: null },
    { path: ['person_details', 'nationality'], value: ['USA'] },
    { path: ['person_details', 'verifier_type'], value: true },
    { path: ['person_details', 'passthrough_verified_at'], value: 1704067200 },
    { path: ['person_details', 'metadata'], value: 'note' },
    { path: ['person_details', 'address'], value: ['1 Main St'] },
    { path: ['person_details', 'address', 'country'], value: null },
    { path: ['person_details', 'address', 'address1'], value: { line: '1 Main St' } },
    { path: ['person_details', 'address', 'city'], value: ['Springfield'] },
    { path: ['institution_details'], value: 'none' },
    { path: ['institution_members'], value: ['member'] },
  ],
);

/**
 * Strings that are not a YYYY-MM-DD calendar date: days that do not exist (Feb 29 of a common year,
 * 1900 included; day 31 of a 30-day month), month and day 00 or past the end, other layouts, and
 * a date with a time part or white space around it.
 */
const INVALID_DATES = [
  '1990-02-30',
  '2023-02-29',
  '1900-02-29',
  '1990-04-31',
  '1990-13-01',
  '1990-00-10',
  '01/02/1990',
  '1990-1-1',
  '1990-01-01T00:00:00Z',
  ' 1990-01-01',
];

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** Random strings that are not a calendar date, each kind of mistake a parser may let through. */
const invalidDate: fc.Arbitrary<string> = fc.oneof(
  // No such month, no such day, day 00.
  fc
    .tuple(fc.integer({ min: 1900, max: LAST_BIRTH_YEAR }), fc.integer({ min: 13, max: 99 }), fc.integer({ min: 1, max: 28 }))
    .map(([y, m, d]) => `${y}-${pad(m)}-${pad(d)}`),
  fc
    .tuple(fc.integer({ min: 1900, max: LAST_BIRTH_YEAR }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 32, max: 99 }))
    .map(([y, m, d]) => `${y}-${pad(m)}-${pad(d)}`),
  fc.tuple(fc.integer({ min: 1900, max: LAST_BIRTH_YEAR }), fc.integer({ min: 0, max: 12 })).map(([y, m]) => `${y}-${pad(m)}-00`),
  fc.integer({ min: 1900, max: LAST_BIRTH_YEAR }).map((y) => `${y}-00-15`),
  // February 30th and 31st, Feb 29 of a common year, day 31 of a 30-day month.
  fc.tuple(fc.integer({ min: 1900, max: LAST_BIRTH_YEAR }), fc.constantFrom(30, 31)).map(([y, d]) => `${y}-02-${d}`),
  fc
    .integer({ min: 1900, max: LAST_BIRTH_YEAR })
    .filter((y) => !isLeap(y))
    .map((y) => `${y}-02-29`),
  fc.tuple(fc.integer({ min: 1900, max: LAST_BIRTH_YEAR }), fc.constantFrom(4, 6, 9, 11)).map(([y, m]) => `${y}-${pad(m)}-31`),
  // A real date written otherwise: separators, no padding, a time part, white space.
  fc.tuple(dateOfBirth, fc.constantFrom('/', '.', ' ', '', '_')).map(([date, sep]) => date.replace(/-/g, sep)),
  dateOfBirth.map((date) => date.replace(/-0(\d)/g, '-$1')).filter((d) => d.length < 10),
  fc.tuple(dateOfBirth, fc.constantFrom('T00:00:00Z', 'T00:00:00', ' 00:00:00', 'T12:30:00+02:00', 'Z')).map(([date, time]) => date + time),
  fc.tuple(dateOfBirth, fc.constantFrom(' ', '\t', '\n')).chain(([date, ws]) => fc.constantFrom(`${ws}${date}`, `${date}${ws}`)),
  fc
    .tuple(fc.integer({ min: 1, max: 28 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1900, max: LAST_BIRTH_YEAR }))
    .map(([d, m, y]) => `${pad(d)}-${pad(m)}-${y}`),
);

/** The twin: the same body with a real date of birth. */
const withDateOfBirth = (label: string, date_of_birth: string, twinDate: string, person: Body = ADA) =>
  withControl(create(label, 'invalid', { person_details: { ...person, date_of_birth }, tax_details_not_required: true }, 'id.dob.invalid-rejected'), {
    person_details: { ...person, date_of_birth: twinDate },
    tax_details_not_required: true,
  });

const invalidDateOfBirth: CaseFamily = {
  rule: 'id.dob.invalid-rejected',
  examples: INVALID_DATES.map((date) => withDateOfBirth(`date_of_birth ${JSON.stringify(date)}`, date, ADA.date_of_birth)),
  arbitrary: fc
    .tuple(invalidDate, dateOfBirth, personDetails)
    .map(([date, twinDate, person]) => withDateOfBirth(`random impossible date_of_birth ${JSON.stringify(date)}`, date, twinDate, person)),
};

const malformedBody = malformedBodyFamily('id.rejection-4xx', create, MINIMAL);

export const createIdentityFamilies: CaseFamily[] = [
  valid,
  taxAbsentRejected,
  taxFalseRejected,
  taxNotRequiredAccepted,
  wrongTypes,
  invalidDateOfBirth,
  malformedBody,
  // The collection path, without an id: PUT, PATCH and DELETE there name no record to change.
  otherMethodsFamily('createIdentity', 'id.other-methods-refused', [
    { method: 'PUT', expect: 'refused', body: MINIMAL },
    { method: 'PATCH', expect: 'refused', body: MINIMAL },
    { method: 'DELETE', expect: 'refused' },
    { method: 'GET', expect: 'readOnly' },
    { method: 'OPTIONS', expect: 'readOnly' },
  ]),
  emptyBodyFamily('createIdentity', 'id.empty-body', true),
];
