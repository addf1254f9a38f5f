/**
 * Cases for POST /v2/identity/identities (sections 2.5, 2.6, 4.2). The runner stamps every object
 * body with a fresh ref_id of the run, so no two cases collide on the target.
 */
import fc from 'fast-check';
import { caseBuilder, type CaseFamily } from './family.ts';
import type { RuleId } from '../../core/catalogue.ts';
import { personDetails, taxDetail } from './payload-parts.ts';
import { text } from './text.ts';
import { sample } from './samples.ts';
import { malformedBodyFamily, wrongTypeFamily } from './wrong-types.ts';

type Body = Record<string, unknown>;

const create = caseBuilder('createIdentity');

const ADA = { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1990-01-01' };
const TAX = [{ tax_payer_country: 'USA', tax_payer_id: '123456789' }];

/** Everything of a create request but the two tax fields. */
const identityWithoutTax = fc.record(
  {
    person_details: personDetails,
    metadata: fc.dictionary(text(1, 20), text(0, 30), { maxKeys: 4 }),
    is_merchant: fc.boolean(),
    customer_due_diligence: fc.constant({}),
  },
  { requiredKeys: ['person_details'] },
);

/** The ways to satisfy the tax rule: details given (flag absent, false or true), or the flag true. */
const satisfiedTax: fc.Arbitrary<Body> = fc.oneof(
  fc.array(taxDetail, { minLength: 1, maxLength: 3 }).map((tax_details) => ({ tax_details })),
  fc.constant({ tax_details_not_required: true }),
  fc
    .tuple(fc.array(taxDetail, { minLength: 1, maxLength: 3 }), fc.boolean())
    .map(([tax_details, tax_details_not_required]) => ({ tax_details, tax_details_not_required })),
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
    create('names with combining marks, right-to-left script and astral characters', 'valid', {
      person_details: { ...ADA, first_name: 'Zoe\u0308 😀', last_name: 'כהן' },
      tax_details_not_required: true,
    }),
    create('tax details with tax_details_not_required false', 'valid', { person_details: ADA, tax_details: TAX, tax_details_not_required: false }),
  ],
  arbitrary: validIdentityBody.map((body) => create(`random identity with ${describeTax(body)}`, 'valid', body)),
};

/**
 * The tax rule of section 4.2: tax_details must be set unless tax_details_not_required is true.
 * One family per value of the flag (absent, false, true), all without tax_details.
 */
function taxFamily(rule: RuleId, mode: 'invalid' | 'boundary', flag: boolean | undefined): CaseFamily {
  const withFlag = (body: Record<string, unknown>) => (flag === undefined ? body : { ...body, tax_details_not_required: flag });
  const described = flag === undefined ? 'no tax_details and no tax_details_not_required' : `no tax_details with tax_details_not_required ${flag}`;
  const random = flag === undefined ? 'random identity without tax_details nor tax_details_not_required' : `random identity without tax_details, tax_details_not_required ${flag}`;
  return {
    rule,
    examples: [create(described, mode, withFlag({ person_details: ADA }), rule)],
    arbitrary: identityWithoutTax.map((body) => create(random, mode, withFlag(body), rule)),
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
  ],
  (label, body) => create(label, 'invalid', body, 'id.wrong-types-rejected'),
);

/** Strings that are not a YYYY-MM-DD calendar date. */
const INVALID_DATES = ['1990-02-30', '1990-13-01', '1990-00-10', '01/02/1990', '1990-1-1', 'yesterday'];

const invalidDateOfBirth: CaseFamily = {
  rule: 'id.dob.invalid-rejected',
  examples: INVALID_DATES.map((date_of_birth) =>
    create(`date_of_birth "${date_of_birth}"`, 'invalid', { person_details: { ...ADA, date_of_birth }, tax_details_not_required: true }, 'id.dob.invalid-rejected'),
  ),
  arbitrary: fc
    .tuple(
      fc.integer({ min: 1920, max: 2008 }),
      fc.oneof(
        fc.tuple(fc.integer({ min: 13, max: 99 }), fc.integer({ min: 1, max: 28 })), // no such month
        fc.tuple(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 32, max: 99 })), // no such day
        fc.tuple(fc.constant(2), fc.constant(30)), // February 30th
      ),
    )
    .map(([year, [month, day]]) => {
      const date_of_birth = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
      return create(`random impossible date_of_birth "${date_of_birth}"`, 'invalid', { person_details: { ...ADA, date_of_birth }, tax_details_not_required: true }, 'id.dob.invalid-rejected');
    }),
};

const malformedBody = malformedBodyFamily('id.rejection-4xx', create);

export const createIdentityFamilies: CaseFamily[] = [
  valid,
  taxAbsentRejected,
  taxFalseRejected,
  taxNotRequiredAccepted,
  wrongTypes,
  invalidDateOfBirth,
  malformedBody,
];
