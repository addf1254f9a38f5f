/**
 * Checks of the Identity returned by a successful create (sections 2.5, 2.6, 4.2). What the
 * schema states (the id, enums, booleans, timestamp and date_of_birth formats) is judged from its
 * errors, tagged with their rule (x-rule in schemas/identity*.schema.json); the code here judges
 * only what a schema cannot say.
 */
import type { Check, Problem } from '../check.ts';
import { pass, problem } from '../check.ts';
import type { Operation, RuleId } from '../../core/catalogue.ts';
import { dig, isObject, isRfc3339, requestBody, sameText, successBody } from './exchange-facts.ts';
import { responseErrors, schemaCheck, schemaRuleCheck } from './schema-errors.ts';

const CREATE: Operation = 'createIdentity';
/**
 * The timestamps the schema tags with id.timestamps.rfc3339. Each of ajv's date-time and
 * isRfc3339 takes what the other refuses (ajv a space for the T and an offset without its colon,
 * isRfc3339 a leap second at another time than 23:59:60 UTC), so a timestamp must pass both.
 */
const TIMESTAMPS: string[][] = [['created_at'], ['updated_at'], ['last_kyc_refresh_date'], ['person_details', 'passthrough_verified_at']];
/**
 * A new identity starts pending (4.2, section 3): its status is PENDING. The screening statuses
 * have no listed values (section 2.6): only a final verdict on them contradicts "start with
 * pending verification statuses". summary_status is not a documented field and is not judged.
 */
const SCREENING: string[][] = [
  ['person_details', 'sanctions_verification_status'],
  ['person_details', 'additional_screening_status'],
];
const FINAL_VERDICTS = ['APPROVED', 'DENIED'];
/** person_details fields that the response transforms, judged by their own rules. */
const TRANSFORMED = new Set(['date_of_birth']);
/** person_details timestamps: the same instant in another spelling (+00:00 for Z) is the same value. */
const INSTANTS = new Set(['passthrough_verified_at']);

function onCreate(rule: RuleId, judge: (body: Record<string, unknown>, request: Record<string, unknown>) => Problem[] | null): Check {
  return {
    rule,
    judge(e) {
      if (e.testCase.operation !== 'createIdentity') return null;
      const body = successBody(e);
      return body ? judge(body, requestBody(e)) : null;
    },
  };
}

const pointer = (keys: string[]) => '/' + keys.join('/');

export const identityChecks: Check[] = [
  schemaCheck('id.response.schema', CREATE),
  // The schema requires an id and types it; an empty one is no id either.
  schemaRuleCheck('id.response.id', CREATE, (body) => (body.id === '' ? problem('id is ""', '/id') : pass)),
  schemaRuleCheck('id.enums', CREATE),
  schemaRuleCheck('id.booleans', CREATE),
  schemaRuleCheck('id.timestamps.rfc3339', CREATE, (body) =>
    TIMESTAMPS.flatMap((keys) => {
      const value = dig(body, ...keys);
      return value === undefined || isRfc3339(value) ? [] : problem(`${pointer(keys)} is ${JSON.stringify(value)}, not RFC 3339 with an offset`, pointer(keys));
    }),
  ),
  // The schema says midnight UTC; only the date sent says which day.
  schemaRuleCheck('id.dob.midnight-utc', CREATE, (body, request) => {
    const sent = dig(request, 'person_details', 'date_of_birth');
    if (typeof sent !== 'string') return null;
    const got = dig(body, 'person_details', 'date_of_birth');
    const midnight = /^(\d{4}-\d{2}-\d{2})[Tt]00:00:00(\.0+)?(Z|z|[+-]00:00)$/.exec(typeof got === 'string' ? got : '');
    return midnight?.[1] === sent
      ? pass
      : problem(`date_of_birth sent ${sent}, returned ${JSON.stringify(got)} (expected ${sent}T00:00:00Z)`, '/person_details/date_of_birth');
  }),
  onCreate('id.govt-id.mirrors-cip', (body, request) => {
    const problems: Problem[] = [];
    for (const [cip, govt] of [['cip_id', 'govt_id'], ['cip_id_type', 'govt_id_type']]) {
      const sent = dig(request, 'person_details', cip);
      if (sent === undefined) continue;
      const got = dig(body, 'person_details', govt);
      // govt_id is optional like every field not marked required: absent is no contradiction.
      if (got !== undefined && !sameText(got, sent)) problems.push({ message: `${govt} is ${JSON.stringify(got)}, ${cip} sent ${JSON.stringify(sent)}`, instancePath: `/person_details/${govt}` });
    }
    return problems.length || dig(request, 'person_details', 'cip_id') !== undefined ? problems : null;
  }),
  onCreate('id.person-details.returned', (body, request) => {
    const sent = request.person_details;
    if (!isObject(sent)) return null;
    const got = body.person_details;
    return Object.entries(sent)
      .filter(([key]) => !TRANSFORMED.has(key))
      .filter(([key, value]) => !(INSTANTS.has(key) ? sameInstant : containsDeep)(isObject(got) ? got[key] : undefined, value))
      .map(([key, value]) => ({
        message: `person_details.${key} sent ${JSON.stringify(value)}, returned ${JSON.stringify(isObject(got) ? got[key] : undefined)}`,
        instancePath: `/person_details/${key}`,
      }));
  }),
  onCreate('id.is-merchant.returned', (body, request) =>
    request.is_merchant !== true ? null : body.is_merchant === true ? pass : problem(`is_merchant sent true, returned ${JSON.stringify(body.is_merchant)}`, '/is_merchant'),
  ),
  onCreate('id.initial-statuses', (body) => {
    // A status outside the enum is the enum rule's finding, not this one's.
    const status = body.status;
    const outsideEnum = () => responseErrors(CREATE, body).some((error) => error.rule === 'id.enums' && error.instancePath === '/status');
    const problems = status === undefined || status === 'PENDING' || outsideEnum() ? [] : problem(`/status of a new identity is ${JSON.stringify(status)}, not PENDING`, '/status');
    for (const keys of SCREENING) {
      const value = dig(body, ...keys);
      if (FINAL_VERDICTS.includes(value as string)) problems.push(...problem(`${pointer(keys)} of a new identity is already ${JSON.stringify(value)}, not pending`, pointer(keys)));
    }
    return problems;
  }),
  onCreate('id.type-person', (body, request) => {
    if (!isObject(request.person_details) || request.institution_details !== undefined || body.type === undefined) return null;
    return body.type === 'PERSON' ? pass : problem(`type is ${JSON.stringify(body.type)} for an identity sent with person_details`, '/type');
  }),
];

/**
 * True when `actual` holds everything `expected` holds: objects may carry extra keys, text may
 * come back in another Unicode normal form, and an empty string sent may come back absent.
 */
function containsDeep(actual: unknown, expected: unknown): boolean {
  if (isObject(expected)) return isObject(actual) && Object.entries(expected).every(([k, v]) => containsDeep(actual[k], v));
  if (Array.isArray(expected)) return Array.isArray(actual) && expected.length === actual.length && expected.every((v, i) => containsDeep(actual[i], v));
  if (expected === '' && (actual === undefined || actual === null)) return true;
  return sameText(actual, expected);
}

const sameInstant = (actual: unknown, expected: unknown): boolean =>
  typeof actual === 'string' && typeof expected === 'string' && !Number.isNaN(Date.parse(actual)) && Date.parse(actual) === Date.parse(expected);
