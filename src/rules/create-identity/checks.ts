/**
 * Checks of the Identity returned by a successful create (sections 2.5, 2.6, 4.2). What the
 * schema states (the id, enums, booleans, timestamp and date_of_birth formats) is judged from its
 * errors, tagged with their rule (x-rule in schemas/identity*.schema.json); the code here judges
 * only what a schema cannot say.
 */
import type { Check, Problem } from '../check.ts';
import { pass, problem } from '../check.ts';
import type { Operation } from '../../core/catalogue.ts';
import { dig, isObject, isRfc3339, sameText, shown } from '../checks/exchange-facts.ts';
import { successCheckOf } from '../checks/success-check.ts';
import { responseErrors, schemaCheck, schemaRuleCheck, whenAnyPresent } from '../checks/schema-errors.ts';

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
/** person_details fields that the response transforms, judged by their own rules (here: only that they came back). */
const TRANSFORMED = new Set(['date_of_birth']);
/** person_details timestamps: the same instant in another spelling (+00:00 for Z) is the same value. */
const INSTANTS = new Set(['passthrough_verified_at']);

const onCreate = successCheckOf('createIdentity');

const pointer = (keys: string[]) => '/' + keys.join('/');

/** Fields of the Identity with an enumerated type, and its booleans (section 2.5). */
const ENUMS = [['status'], ['status_details'], ['type'], ['summary_tin_verification_status']];
const BOOLEANS = [['user_disabled'], ['admin_disabled'], ['tax_details_not_required'], ['is_merchant']];
const each = (fields: string[][]) => fields.map((keys) => [keys]);

export const identityChecks: Check[] = [
  schemaCheck('id.response.schema', CREATE),
  // The schema requires an id and types it; an empty one is no id either.
  schemaRuleCheck('id.response.id', CREATE, (body) =>
    body.id === '' ? problem('id is ""', { kind: 'format', params: { field: '/id', format: 'non-empty', received: '' } }, '/id') : pass,
  ),
  schemaRuleCheck('id.enums', CREATE, whenAnyPresent(...each(ENUMS))),
  schemaRuleCheck('id.booleans', CREATE, whenAnyPresent(...each(BOOLEANS))),
  schemaRuleCheck('id.timestamps.rfc3339', CREATE, (body) => {
    if (!TIMESTAMPS.some((keys) => dig(body, ...keys) !== undefined)) return null;
    return TIMESTAMPS.flatMap((keys) => {
      const value = dig(body, ...keys);
      if (value === undefined || isRfc3339(value)) return [];
      const field = pointer(keys);
      return problem(
        `${field} is ${shown(value)}, not RFC 3339 with an offset`,
        { kind: 'format', params: { field, format: 'rfc3339', received: value } },
        field,
      );
    });
  }),
  // The schema says midnight UTC; only the date sent says which day. A date_of_birth missing from
  // the answer is the person-details rule's finding.
  schemaRuleCheck(
    'id.dob.midnight-utc',
    CREATE,
    (body, request) => {
      const sent = dig(request, 'person_details', 'date_of_birth');
      const got = dig(body, 'person_details', 'date_of_birth');
      if (typeof sent !== 'string' || got === undefined) return null;
      const midnight = /^(\d{4}-\d{2}-\d{2})[Tt]00:00:00(\.0+)?(Z|z|[+-]00:00)$/.exec(typeof got === 'string' ? got : '');
      return midnight?.[1] === sent
        ? pass
        : problem(
            `date_of_birth sent ${sent}, returned ${shown(got)} (expected ${sent}T00:00:00Z)`,
            { kind: 'mismatch', params: { field: '/person_details/date_of_birth', expected: `${sent}T00:00:00Z`, received: got } },
            '/person_details/date_of_birth',
          );
    },
    'body-and-request',
  ),
  // govt_id mirrors cip_id (2.6): "returned with the same content", so present when its source
  // was sent, and equal to the sent cip_id and the response's own, whichever are there. A response
  // without person_details is id.person-details.returned's finding, not this one's.
  onCreate('id.govt-id.mirrors-cip', 'body-and-request', (body, request) => {
    const person = body.person_details;
    if (!isObject(person)) return null;
    const problems: Problem[] = [];
    let judged = false;
    for (const [cip, govt] of [
      ['cip_id', 'govt_id'],
      ['cip_id_type', 'govt_id_type'],
    ]) {
      const got = person[govt];
      const sent = dig(request, 'person_details', cip);
      const field = `/person_details/${govt}`;
      if (got === undefined) {
        if (sent === undefined) continue;
        judged = true;
        problems.push({
          message: `${govt} absent from the response, though ${cip} was sent ${shown(sent)}`,
          instancePath: field,
          kind: 'not-reflected',
          params: { field, sent },
        });
        continue;
      }
      for (const [where, value] of [
        ['sent', sent],
        ['returned', person[cip]],
      ] as const) {
        if (value === undefined) continue;
        judged = true;
        if (!sameText(got, value))
          problems.push({
            message: `${govt} is ${shown(got)}, ${cip} ${where} ${shown(value)}`,
            instancePath: field,
            ...(where === 'sent'
              ? { kind: 'not-reflected' as const, params: { field, sent: value, received: got } }
              : { kind: 'mismatch' as const, params: { field, expected: value, received: got } }),
          });
      }
    }
    return judged ? problems : null;
  }),
  onCreate('id.person-details.returned', 'body-and-request', (body, request) => {
    const sent = request.person_details;
    if (!isObject(sent) || !Object.keys(sent).length) return null;
    const got = body.person_details;
    if (!isObject(got))
      return problem(
        `person_details sent, ${got === undefined ? 'absent from the response' : `returned as ${shown(got)}`}`,
        { kind: 'not-reflected', params: { field: '/person_details', sent, ...(got !== undefined ? { received: got } : {}) } },
        '/person_details',
      );
    return Object.entries(sent)
      .filter(([key, value]) => !(TRANSFORMED.has(key) ? got[key] !== undefined : (INSTANTS.has(key) ? sameInstant : containsDeep)(got[key], value)))
      .map(([key, value]): Problem => {
        const field = `/person_details/${key}`;
        return {
          message: `person_details.${key} sent ${shown(value)}, returned ${shown(got[key])}`,
          instancePath: field,
          kind: 'not-reflected',
          params: { field, sent: value, ...(got[key] !== undefined ? { received: got[key] } : {}) },
        };
      });
  }),
  onCreate('id.is-merchant.returned', 'body-and-request', (body, request) =>
    request.is_merchant !== true || body.is_merchant === undefined
      ? null
      : body.is_merchant === true
        ? pass
        : problem(
            `is_merchant sent true, returned ${shown(body.is_merchant)}`,
            { kind: 'not-reflected', params: { field: '/is_merchant', sent: true, received: body.is_merchant } },
            '/is_merchant',
          ),
  ),
  onCreate('id.initial-statuses', 'new-record', (body) => {
    const status = body.status;
    const screening = SCREENING.map((keys) => ({ keys, value: dig(body, ...keys) })).filter((s) => s.value !== undefined);
    if (status === undefined && !screening.length) return null;
    // A status outside the enum is the enum rule's finding, not this one's.
    const outsideEnum = () => responseErrors(CREATE, body).some((error) => error.rule === 'id.enums' && error.instancePath === '/status');
    const problems =
      status === undefined || status === 'PENDING' || outsideEnum()
        ? []
        : problem(
            `/status of a new identity is ${shown(status)}, not PENDING`,
            { kind: 'not-pending', params: { field: '/status', received: status } },
            '/status',
          );
    for (const { keys, value } of screening) {
      const field = pointer(keys);
      if (FINAL_VERDICTS.includes(value as string))
        problems.push(
          ...problem(`${field} of a new identity is already ${shown(value)}, not pending`, { kind: 'not-pending', params: { field, received: value } }, field),
        );
    }
    return problems;
  }),
  onCreate('id.type-person', 'body-and-request', (body, request) => {
    if (!isObject(request.person_details) || request.institution_details !== undefined || body.type === undefined) return null;
    return body.type === 'PERSON'
      ? pass
      : problem(
          `type is ${shown(body.type)} for an identity sent with person_details`,
          { kind: 'mismatch', params: { field: '/type', expected: 'PERSON', received: body.type } },
          '/type',
        );
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
