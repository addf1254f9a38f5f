/**
 * Every check against recorded exchanges: a faithful exchange fails no rule, and each defect
 * fails exactly the rule that owns it (so a report names one cause per defect).
 */
import { describe, expect, it } from 'vitest';
import { judge } from '../../src/rules/judge.ts';
import type { Exchange } from '../../src/core/exchange.ts';
import { ACCOUNT_ID, exchange, fiatAccountBody, identityBody, identityRequest } from './exchange-builders.ts';

const context = { fiatAccountIds: [ACCOUNT_ID], mergeMayExceedLimit: () => false };
const failing = (e: Exchange) =>
  judge(e, context)
    .filter((j) => j.problems.length)
    .map((j) => j.rule)
    .sort();
const judged = (e: Exchange) => judge(e, context).map((j) => j.rule);

const update = (body: unknown = {}, extra: object = {}) => ({ operation: 'updateFiatAccount' as const, body, ...extra });
const create = (body: unknown = identityRequest(), extra: object = {}) => ({ operation: 'createIdentity' as const, body, ...extra });
const nested = fiatAccountBody();
const owner = nested.fiat_account_owner as Record<string, Record<string, unknown>>;
const withNested = (changes: Record<string, unknown>) =>
  fiatAccountBody({ fiat_account_owner: { ...owner, fiat_network_instructions: { ...owner.fiat_network_instructions, ...changes } } });
const sixPairs = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`k${i}`, 'v']));
const sevenPairs = { ...sixPairs, k6: 'v' };
const person = (changes: Record<string, unknown>) => identityBody({ person_details: { ...(identityBody().person_details as object), ...changes } });

const rows: [string, Exchange, string[]][] = [
  ['faithful update, nested placement', exchange(update(), 200, nested), []],
  [
    'faithful update, top-level placement',
    exchange(
      update(),
      200,
      fiatAccountBody({ status: 'APPROVED', metadata: { a: 'b' }, fiat_account_owner: undefined, fiat_network_instructions: { wire: {} } }),
    ),
    [],
  ],
  ['status in lower case', exchange(update(), 200, withNested({ status: 'pending' })), ['fa.status.enum']],
  ['status in no place', exchange(update(), 200, withNested({ status: undefined })), ['fa.status.present']],
  ['created_at without offset', exchange(update(), 200, fiatAccountBody({ created_at: '2024-01-02T03:04:05' })), ['fa.timestamps.rfc3339']],
  ['id missing', exchange(update(), 200, fiatAccountBody({ id: undefined })), ['fa.response.required']],
  ['routing_details a string', exchange(update(), 200, withNested({ wire: { routing_details: 'ABA' } })), ['fa.response.schema']],
  ['text/plain success', exchange(update(), 200, nested, { 'content-type': 'text/plain' }), ['fa.content-type']],
  [
    '7 pairs accepted',
    exchange(update({ metadata: sevenPairs }, { mode: 'invalid', violates: 'fa.metadata.over-pairs-rejected' }), 200, nested),
    ['fa.metadata.over-pairs-rejected'],
  ],
  [
    '7 pairs rejected with 422',
    exchange(update({ metadata: sevenPairs }, { mode: 'invalid', violates: 'fa.metadata.over-pairs-rejected' }), 422, { title: 'no' }),
    [],
  ],
  [
    '7 pairs answered 500',
    exchange(update({ metadata: sevenPairs }, { mode: 'invalid', violates: 'fa.metadata.over-pairs-rejected' }), 500, 'oops'),
    ['fa.metadata.over-pairs-rejected', 'fa.no-5xx'],
  ],
  [
    '6 pairs rejected',
    exchange(update({ metadata: sixPairs }, { mode: 'boundary', exercises: 'fa.metadata.max-pairs-accepted' }), 400, {}),
    ['fa.metadata.max-pairs-accepted'],
  ],
  [
    '6 pairs sent, 7 returned',
    exchange(update({ metadata: sixPairs }, { mode: 'boundary', exercises: 'fa.metadata.max-pairs-accepted' }), 200, withNested({ metadata: sevenPairs })),
    ['fa.response.metadata-limits'],
  ],
  [
    'response id differs from the path',
    exchange(update(), 200, fiatAccountBody({ id: 'aaaaaaaa-8a3d-4c5e-9f70-1a2b3c4d5e6f' })),
    ['fa.response.id-matches-path'],
  ],
  ['response id echoing the path UUID in upper case', exchange(update(), 200, fiatAccountBody({ id: ACCOUNT_ID.toUpperCase() })), []],
  [
    'response id another UUID in upper case',
    exchange(update(), 200, fiatAccountBody({ id: 'AAAAAAAA-8A3D-4C5E-9F70-1A2B3C4D5E6F' })),
    ['fa.response.id-matches-path'],
  ],
  ['updated_at before created_at', exchange(update(), 200, fiatAccountBody({ updated_at: '2023-01-01T00:00:00Z' })), ['fa.updated-after-created']],
  ['names not applied', exchange(update({ fiat_account_owner: { person_details: { first_name: 'Grace' } } }), 200, nested), ['fa.update-reflected']],
  ['metadata merged with more pairs is still reflected', exchange(update({ metadata: { a: '1' } }), 200, withNested({ metadata: { a: '1', old: '2' } })), []],
  ['unknown id answered 400', exchange(update({}, { fiatAccountId: '11111111-1111-4111-8111-111111111111' }), 400, {}), ['fa.unknown-id-404']],
  [
    'malformed id answered 200',
    exchange(update({}, { fiatAccountId: 'not-a-uuid', mode: 'invalid', violates: 'fa.malformed-id-4xx' }), 200, nested),
    ['fa.malformed-id-4xx'],
  ],
  [
    'malformed JSON answered 500',
    exchange({ operation: 'updateFiatAccount', rawBody: '{', mode: 'invalid', violates: 'fa.rejection-4xx' }, 500, 'oops'),
    ['fa.no-5xx'],
  ],
  ['invalid rejected with 303', exchange(update({ metadata: 'x' }, { mode: 'invalid', violates: 'fa.wrong-types-rejected' }), 303, ''), ['fa.rejection-4xx']],
  ['update without credentials accepted', exchange(update({}, { auth: 'none' }), 200, nested), ['fa.auth-401']],
  ['faithful identity', exchange(create(), 201, identityBody()), []],
  ['identity status in lower case', exchange(create(), 201, identityBody({ status: 'pending' })), ['id.enums']],
  ['identity boolean as a string', exchange(create(), 201, identityBody({ user_disabled: 'false' })), ['id.booleans']],
  ['identity created_at without offset', exchange(create(), 201, identityBody({ created_at: '2024-01-02T03:04:05' })), ['id.timestamps.rfc3339']],
  ['identity id missing', exchange(create(), 201, identityBody({ id: undefined })), ['id.response.id']],
  ['identity metadata an array', exchange(create(), 201, identityBody({ metadata: [] })), ['id.response.schema']],
  ['date_of_birth returned unchanged', exchange(create(), 201, person({ date_of_birth: '1990-01-01' })), ['id.dob.midnight-utc']],
  ['date_of_birth of another day', exchange(create(), 201, person({ date_of_birth: '1990-01-02T00:00:00Z' })), ['id.dob.midnight-utc']],
  ['govt_id differs from cip_id', exchange(create(), 201, person({ govt_id: 'other' })), ['id.govt-id.mirrors-cip']],
  ['a sent person field dropped', exchange(create(), 201, person({ cip_id: undefined })), ['id.person-details.returned']],
  // 2.6: govt_id and govt_id_type are returned: absent while their source was sent is a failure.
  ['govt_id absent though cip_id was sent', exchange(create(), 201, person({ govt_id: undefined })), ['id.govt-id.mirrors-cip']],
  ['govt_id_type absent though cip_id_type was sent', exchange(create(), 201, person({ govt_id_type: undefined })), ['id.govt-id.mirrors-cip']],
  [
    'govt_id absent beside an open cip_id_type, cip_id sent',
    exchange(
      create(identityRequest({ person_details: { cip_id_type: 'ITIN' } })),
      201,
      person({ cip_id_type: 'ITIN', govt_id: undefined, govt_id_type: undefined }),
    ),
    ['id.govt-id.mirrors-cip'],
  ],
  [
    'names returned in Unicode normal form C',
    exchange(create(identityRequest({ person_details: { first_name: 'Zoe\u0308' } })), 201, person({ first_name: 'Zo\u00eb' })),
    [],
  ],
  [
    'passthrough_verified_at returned with +00:00 for Z',
    exchange(
      create(identityRequest({ person_details: { passthrough_verified_at: '2024-01-02T03:04:05Z' } })),
      201,
      person({ passthrough_verified_at: '2024-01-02T03:04:05+00:00' }),
    ),
    [],
  ],
  [
    'an empty address2 returned absent',
    exchange(
      create(identityRequest({ person_details: { address: { address1: '1 Main St', address2: '' } } })),
      201,
      person({ address: { address1: '1 Main St' } }),
    ),
    [],
  ],
  [
    'passthrough_verified_at returned as another instant',
    exchange(
      create(identityRequest({ person_details: { passthrough_verified_at: '2024-01-02T03:04:05Z' } })),
      201,
      person({ passthrough_verified_at: '2024-01-02T04:04:05+00:00' }),
    ),
    ['id.person-details.returned'],
  ],
  [
    'email and phone_number of any layout returned as sent (no format stated)',
    exchange(
      create(identityRequest({ person_details: { email: 'ada at example', phone_number: '555 0100 ext. 7' } })),
      201,
      person({ email: 'ada at example', phone_number: '555 0100 ext. 7' }),
    ),
    [],
  ],
  [
    'email returned in another letter case',
    exchange(create(identityRequest({ person_details: { email: 'Ada@Example.com' } })), 201, person({ email: 'ada@example.com' })),
    ['id.person-details.returned'],
  ],
  [
    'phone_number returned in another layout',
    exchange(create(identityRequest({ person_details: { phone_number: '+1 555 555 0100' } })), 201, person({ phone_number: '+15555550100' })),
    ['id.person-details.returned'],
  ],
  ['summary_status not PENDING (undocumented field)', exchange(create(), 201, identityBody({ summary_status: 'IN_REVIEW' })), []],
  ['a screening status of a value the document does not list', exchange(create(), 201, person({ sanctions_verification_status: 'NOT_STARTED' })), []],
  ['a screening status already APPROVED', exchange(create(), 201, person({ sanctions_verification_status: 'APPROVED' })), ['id.initial-statuses']],
  // Returned means present when the source was sent (2.6); without cip_id and cip_id_type sent, nothing to mirror.
  [
    'govt_id and govt_id_type absent, cip_id sent',
    exchange(create(), 201, person({ govt_id: undefined, govt_id_type: undefined })),
    ['id.govt-id.mirrors-cip'],
  ],
  [
    'govt_id and govt_id_type absent, neither cip_id nor cip_id_type sent nor returned',
    exchange(
      create(identityRequest({ person_details: { first_name: 'Ada' } })),
      201,
      identityBody({ person_details: { first_name: 'Ada', id_verification_status: 'APPROVED' } }),
    ),
    [],
  ],
  ['created_at on a leap second', exchange(create(), 201, identityBody({ created_at: '2016-12-31T23:59:60Z' })), []],
  ['date_of_birth with a lower-case t', exchange(create(), 201, person({ date_of_birth: '1990-01-01t00:00:00Z' })), []],
  [
    'a valid update still 429 after the retries',
    {
      ...exchange(update({ metadata: sixPairs }, { mode: 'boundary', exercises: 'fa.metadata.max-pairs-accepted' }), 429, {}),
      error: { kind: 'rate-limited', message: 'still 429' },
    },
    ['fa.answers'],
  ],
  ['is_merchant true returned false', exchange(create(identityRequest({ is_merchant: true })), 201, identityBody()), ['id.is-merchant.returned']],
  ['starts APPROVED', exchange(create(), 201, identityBody({ status: 'APPROVED' })), ['id.initial-statuses']],
  ['person typed INSTITUTION', exchange(create(), 201, identityBody({ type: 'INSTITUTION' })), ['id.type-person']],
  [
    'tax rule ignored',
    exchange(create({ person_details: {} }, { mode: 'invalid', violates: 'id.tax.absent-rejected' }), 201, identityBody()),
    ['id.tax.absent-rejected'],
  ],
  [
    'invalid date_of_birth accepted',
    exchange(
      create(identityRequest({ person_details: { date_of_birth: '1990-02-30' } }), { mode: 'invalid', violates: 'id.dob.invalid-rejected' }),
      201,
      person({ date_of_birth: '1990-02-30' }),
    ),
    ['id.dob.invalid-rejected'],
  ],
  ['identity without credentials answered 403', exchange(create(identityRequest(), { auth: 'invalid' }), 403, {}), ['id.auth-401']],
  ['identity success with JSON null', exchange(create(), 201, 'null'), ['id.response.schema']],
  ['update success with a JSON array', exchange(update(), 200, [nested]), ['fa.response.schema']],
  ['identity success with a non-JSON body (the content-type rule: successes are JSON)', exchange(create(), 201, '<html>'), ['id.content-type']],
  ['update answered 204 with no body', exchange(update(), 204, ''), ['fa.content-type']],
];

describe('checks on recorded exchanges', () => {
  it.each(rows)('%s', (_name, e, expected) => {
    expect(failing(e)).toEqual(expected);
  });

  it('records a dropped connection under the answers rule and judges nothing else by status', () => {
    const e: Exchange = { ...exchange(update(), 200, {}), response: undefined, error: { kind: 'connection', message: 'socket hang up' } };
    expect(failing(e)).toEqual(['fa.answers']);
  });

  it('does not judge a valid-looking rejection as a fault when merged metadata may exceed the limit', () => {
    const e = exchange(update({ metadata: sixPairs }, { mode: 'boundary', exercises: 'fa.metadata.max-pairs-accepted' }), 422, {});
    expect(judge(e, { ...context, mergeMayExceedLimit: () => true }).map((j) => j.rule)).not.toContain('fa.metadata.max-pairs-accepted');
    expect(judged(e)).toContain('fa.metadata.max-pairs-accepted');
  });

  it.each([401, 403, 429])('does not count an invalid request refused with %i as rejected: the refusal is about access', (status) => {
    const e = exchange(update({ metadata: sevenPairs }, { mode: 'invalid', violates: 'fa.metadata.over-pairs-rejected' }), status, {});
    expect(judged(e)).not.toContain('fa.metadata.over-pairs-rejected');
    expect(judged(exchange(update({ metadata: sevenPairs }, { mode: 'invalid', violates: 'fa.metadata.over-pairs-rejected' }), 422, {}))).toContain(
      'fa.metadata.over-pairs-rejected',
    );
  });

  it('takes a response id in lower case for an account given in upper case: one UUID', () => {
    const upper = ACCOUNT_ID.toUpperCase();
    const e = exchange(update({}, { fiatAccountId: upper }), 200, nested);
    const found = judge(e, { ...context, fiatAccountIds: [upper] });
    expect(found.find((j) => j.rule === 'fa.response.id-matches-path')?.problems).toEqual([]);
    expect(found.filter((j) => j.problems.length)).toEqual([]);
  });

  it('judges no response rule on a near-empty identity: nothing there is no pass', () => {
    const e = exchange(create(), 201, { id: '0b8e7c52-44c1-4d4b-9b0a-2f3e4d5c6b7a', summary_status: 'PENDING' });
    const rules = judged(e);
    for (const rule of [
      'id.enums',
      'id.booleans',
      'id.timestamps.rfc3339',
      'id.initial-statuses',
      'id.dob.midnight-utc',
      'id.govt-id.mirrors-cip',
      'id.type-person',
    ])
      expect(rules).not.toContain(rule);
    expect(failing(e)).toEqual(['id.person-details.returned']);
    expect(judged(exchange(create(), 201, identityBody()))).toEqual(
      expect.arrayContaining(['id.enums', 'id.booleans', 'id.timestamps.rfc3339', 'id.initial-statuses']),
    );
  });

  it('judges no fiat account rule on fields the response does not carry', () => {
    const e = exchange(update(), 200, { id: ACCOUNT_ID, status: 'PENDING' });
    const rules = judged(e);
    for (const rule of ['fa.timestamps.rfc3339', 'fa.response.metadata-limits', 'fa.updated-after-created']) expect(rules).not.toContain(rule);
    expect(rules).toContain('fa.status.enum');
  });

  it('blames a missing person_details once, on its own rule, and says "absent"', () => {
    const e = exchange(create(), 201, identityBody({ person_details: undefined }));
    const found = judge(e, context).filter((j) => j.problems.length);
    expect(found.map((j) => j.rule)).toEqual(['id.person-details.returned']);
    expect(found[0].problems).toHaveLength(1);
    expect(found[0].problems[0].message).toContain('absent');
    expect(JSON.stringify(judge(exchange(create(), 201, person({ first_name: undefined })), context))).not.toContain('undefined');
  });

  it('checks govt_id against the response cip_id even when the request sent none', () => {
    const request = identityRequest();
    delete (request.person_details as Record<string, unknown>).cip_id;
    delete (request.person_details as Record<string, unknown>).cip_id_type;
    expect(failing(exchange(create(request), 201, person({ govt_id: '987-65-4321' })))).toEqual(['id.govt-id.mirrors-cip']);
    expect(failing(exchange(create(request), 201, identityBody()))).toEqual([]);
  });

  it('validates the answer to a repeated ref_id like any other identity', () => {
    const e = exchange(create(identityRequest(), { mode: 'duplicate' }), 200, identityBody({ created_at: '2024-01-02T03:04:05' }));
    expect(failing(e)).toEqual(['id.timestamps.rfc3339']);
    expect(failing(exchange(create(identityRequest(), { mode: 'duplicate' }), 409, {}))).toEqual([]);
  });

  it('turns a crashing check into a finding instead of throwing', () => {
    const e = exchange(update(), 200, nested);
    const crashing = {
      ...context,
      get fiatAccountIds(): string[] {
        throw new Error('boom');
      },
    };
    const result = judge(e, crashing);
    expect(result.some((j) => j.crashed && j.problems[0].message.includes('boom'))).toBe(true);
    expect(result.find((j) => j.crashed)?.problems[0]).toMatchObject({ kind: 'check-crashed', params: { error: 'boom' } });
  });
});
