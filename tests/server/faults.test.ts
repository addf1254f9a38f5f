/**
 * Each fault changes the behaviour it names: one probe per fault, sent to a faithful server and
 * to a server with the fault, must observe the faithful value on the first and the faulty value
 * on the second.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createReferenceServer, type ReferenceServer } from '../../src/server/server.ts';
import { FAULTS, type FaultName } from '../../src/server/faults.ts';
import { REF_ID_CACHE_MS } from '../../src/server/deviations.ts';
import { accountPath, call, create, IDENTITIES, identityBody, nested, pairs, update } from './http-client.ts';

type Probe = (server: ReferenceServer) => Promise<unknown>;

const ADDRESS: Record<string, string> = { country: 'USA', address1: '1 Main St', address2: '', city: 'Austin', province: 'TX', zip_code: '73301' };

const status = (reply: { status: number }) => reply.status;
const updated = async (s: ReferenceServer, body: unknown = {}) => (await update(s, body)).json;
const created = async (s: ReferenceServer, extra: Record<string, unknown> = {}, person: Record<string, unknown> = {}) =>
  (await create(s, identityBody(extra, person))).json;
const noTax = () => {
  const { tax_details_not_required: _flag, ...rest } = identityBody();
  return rest;
};

/** fault -> [probe, observed on the faithful server, observed with the fault] */
const PROBES: Record<FaultName, [Probe, unknown, unknown]> = {
  'metadata-over-pairs-accepted': [async (s) => status(await update(s, { metadata: pairs(7) })), 400, 200],
  'metadata-over-pairs-500': [async (s) => status(await update(s, { metadata: pairs(7) })), 400, 500],
  'metadata-exact-pairs-rejected': [async (s) => status(await update(s, { metadata: pairs(6) })), 200, 400],
  'metadata-over-length-accepted': [async (s) => status(await update(s, { metadata: { k: 'a'.repeat(101) } })), 400, 200],
  'metadata-counts-bytes': [async (s) => status(await update(s, { metadata: { k: 'é'.repeat(100) } })), 200, 400],
  'metadata-counts-utf16': [async (s) => status(await update(s, { metadata: { k: '😀'.repeat(100) } })), 200, 400],
  'fa-status-lowercase': [async (s) => nested(await updated(s)).status, 'PENDING', 'pending'],
  'fa-status-missing': [async (s) => nested(await updated(s)).status, 'PENDING', undefined],
  'fa-created-at-no-offset': [async (s) => /(Z|[+-]\d\d:\d\d)$/.test((await updated(s)).created_at), true, false],
  'fa-id-missing': [async (s) => 'id' in (await updated(s)), true, false],
  'fa-routing-details-string': [async (s) => typeof nested(await updated(s)).wire?.routing_details, 'object', 'string'],
  'fa-content-type-text': [async (s) => (await update(s, {})).headers['content-type']?.split(';')[0], 'application/json', 'text/plain'],
  'fa-response-metadata-extra-pair': [async (s) => Object.keys(nested(await updated(s, { metadata: pairs(6) })).metadata ?? {}).length, 6, 7],
  'fa-wrong-types-accepted': [
    async (s) => [status(await update(s, { metadata: 'x' })), status(await update(s, { metadata: pairs(7) }))],
    [400, 400],
    [200, 400],
  ],
  'fa-null-written': [
    async (s) => {
      const reply = await update(s, { fiat_account_owner: { person_details: { first_name: null } } });
      return [status(reply), reply.json?.fiat_account_owner?.person_details?.first_name];
    },
    [400, undefined],
    [200, null],
  ],
  'fa-non-ascii-rejected': [
    async (s) => [
      status(await update(s, { metadata: { k: 'é'.repeat(100) } })),
      status(await update(s, { metadata: { clé: 'v' } })),
      status(await update(s, { fiat_account_owner: { person_details: { first_name: 'Zoë' } } })),
      status(await update(s, { fiat_network_instructions: { wire: { routing_details: { bank_name: 'Crédit' } } } })),
      status(await update(s, { metadata: { k: 'a'.repeat(100) } })),
      status(await create(s, identityBody({}, { first_name: 'Zoë' }))),
    ],
    [200, 200, 200, 200, 200, 201],
    [400, 400, 400, 400, 200, 201],
  ],

  'id-tax-absent-accepted': [async (s) => status(await create(s, noTax())), 400, 201],
  'id-tax-false-accepted': [async (s) => status(await create(s, { ...noTax(), tax_details_not_required: false })), 400, 201],
  'id-tax-not-required-rejected': [async (s) => status(await create(s, identityBody())), 201, 400],
  'id-ref-id-not-unique': [
    async (s) => {
      const body = identityBody();
      return [status(await create(s, body)), status(await create(s, body))];
    },
    [201, 409],
    [201, 201],
  ],
  'id-ref-id-race': [
    async (s) => {
      const body = identityBody();
      const replies = await Promise.all(Array.from({ length: 10 }, () => create(s, body)));
      return replies.filter((r) => r.status === 201).length > 1;
    },
    false,
    true,
  ],
  'id-dob-unchanged': [async (s) => (await created(s)).person_details.date_of_birth, '1990-01-01T00:00:00Z', '1990-01-01'],
  'id-dob-previous-day': [async (s) => (await created(s)).person_details.date_of_birth, '1990-01-01T00:00:00Z', '1989-12-31T23:00:00Z'],
  'id-govt-id-differs': [async (s) => (await created(s, {}, { cip_id: '123-45-6789' })).person_details.govt_id, '123-45-6789', '123456789'],
  'id-person-details-dropped': [async (s) => (await created(s, {}, { phone_number: '+15550100' })).person_details.phone_number, '+15550100', undefined],
  'id-is-merchant-ignored': [async (s) => (await created(s, { is_merchant: true })).is_merchant, true, false],
  'id-starts-approved': [async (s) => (await created(s)).status, 'PENDING', 'APPROVED'],
  'id-status-lowercase': [async (s) => (await created(s)).status_details, 'PENDING', 'pending'],
  'id-boolean-as-string': [async (s) => (await created(s)).user_disabled, false, 'false'],
  'id-created-at-no-offset': [async (s) => /(Z|[+-]\d\d:\d\d)$/.test((await created(s)).created_at), true, false],
  'id-id-missing': [async (s) => 'id' in (await created(s)), true, false],
  'id-tax-details-object': [
    async (s) => Array.isArray((await created(s, { tax_details: [{ tax_payer_country: 'USA', tax_payer_id: '1' }] })).tax_details),
    true,
    false,
  ],
  'id-wrong-types-accepted': [
    async (s) => [status(await create(s, identityBody({ is_merchant: 'true' }))), status(await create(s, noTax()))],
    [400, 400],
    [201, 400],
  ],
  'id-content-type-text': [async (s) => (await create(s, identityBody())).headers['content-type']?.split(';')[0], 'application/json', 'text/plain'],
  'id-astral-name-500': [
    async (s) => [
      status(await create(s, identityBody({}, { first_name: 'Ada 😀' }))),
      status(await create(s, identityBody({}, { last_name: '𝔏' }))),
      status(await create(s, identityBody({}, { first_name: 'Zoë 中村' }))),
      status(await create(s, identityBody({ is_merchant: 'yes' }, { first_name: '😀' }))),
      status(await update(s, { fiat_account_owner: { person_details: { first_name: '😀' } } })),
    ],
    [201, 201, 201, 400, 200],
    [500, 500, 201, 400, 200],
  ],

  'fa-unknown-id-400': [async (s) => status(await update(s, {}, {}, randomUUID())), 404, 400],
  'fa-id-mismatch': [async (s) => (await updated(s)).id === s.fiatAccountIds[0], true, false],
  'fa-update-not-applied': [
    async (s) => (await updated(s, { fiat_account_owner: { person_details: { first_name: 'Zed' } } })).fiat_account_owner.person_details.first_name,
    'Zed',
    'Ada',
  ],
  'fa-updated-before-created': [async (s) => ((b) => Date.parse(b.updated_at) >= Date.parse(b.created_at))(await updated(s)), true, false],
  'fa-malformed-json-500': [
    async (s) => [status(await call(s, 'PUT', accountPath(s.fiatAccountIds[0]), { raw: '{' })), status(await call(s, 'POST', IDENTITIES, { raw: '{' }))],
    [400, 400],
    [500, 400],
  ],
  'fa-no-auth-accepted': [async (s) => [status(await update(s, {}, { token: null })), status(await update(s, {}, { token: 'wrong' }))], [401, 401], [200, 401]],
  'fa-drops-astral': [
    async (s) => update(s, { fiat_account_owner: { person_details: { first_name: '😀' } } }).then(status, () => 'connection dropped'),
    200,
    'connection dropped',
  ],
  'id-wrong-token-403': [
    async (s) => [status(await create(s, identityBody(), { token: 'wrong' })), status(await create(s, identityBody(), { token: null }))],
    [401, 401],
    [403, 401],
  ],
  'id-type-institution': [async (s) => (await created(s)).type, 'PERSON', 'INSTITUTION'],
  'id-invalid-dob-accepted': [
    async (s) => [
      status(await create(s, identityBody({}, { date_of_birth: '1990-02-30' }))),
      status(await create(s, identityBody({}, { date_of_birth: 'soon' }))),
    ],
    [400, 400],
    [201, 201],
  ],
  'id-malformed-json-500': [
    async (s) => [status(await call(s, 'POST', IDENTITIES, { raw: '{' })), status(await call(s, 'PUT', accountPath(s.fiatAccountIds[0]), { raw: '{' }))],
    [400, 400],
    [500, 400],
  ],

  'id-near-empty-body': [
    async (s) => Object.keys(await created(s)).sort(),
    expect.arrayContaining(['id', 'person_details', 'status', 'summary_status', 'type']),
    ['id', 'summary_status'],
  ],
  'id-same-identity': [
    async (s) => {
      const [a, b] = [await created(s), await created(s, { ref_id: `other-${randomUUID()}`, is_merchant: true })];
      return [typeof a.id, a.id === b.id];
    },
    ['string', false],
    ['string', true],
  ],
  'dies-mid-run': [
    async (s) => {
      const statuses: unknown[] = [];
      for (let i = 0; i < 152; i++) statuses.push(await update(s, {}).then(status, () => 'connection dropped'));
      return [statuses.slice(0, 150).every((st) => st === 200), statuses[150], statuses[151]];
    },
    [true, 200, 200],
    [true, 'connection dropped', 'connection dropped'],
  ],
  'fa-500-always': [
    async (s) => {
      const full = await update(s, { metadata: { a: 'b' } });
      return [status(await update(s, {})), status(full), full.json];
    },
    [200, 200, expect.objectContaining({ id: expect.any(String) })],
    [200, 500, { error: 'internal' }],
  ],
  'id-long-name-rejected': [
    async (s) =>
      Promise.all([64, 65, 128, 129, 300].map(async (length) => status(await create(s, identityBody({}, { first_name: 'ä'.repeat(length), last_name: 'x' }))))),
    [201, 201, 201, 201, 201],
    [201, 422, 422, 201, 201],
  ],
  'id-names-truncated': [async (s) => [...(await created(s, {}, { first_name: '😀'.repeat(300) })).person_details.first_name].length, 300, 64],
  'id-dob-epoch-rejected': [
    async (s) =>
      Promise.all(
        ['1970-01-01', '1969-12-31', '1970-01-02', '1990-01-01'].map(async (date_of_birth) => status(await create(s, identityBody({}, { date_of_birth })))),
      ),
    [201, 201, 201, 201],
    [400, 201, 201, 201],
  ],
  'id-ref-id-remembers-last': [
    async (s) => {
      const [a, b] = [identityBody(), identityBody()];
      return [status(await create(s, a)), status(await create(s, b)), status(await create(s, b)), status(await create(s, a))];
    },
    [201, 201, 409, 409],
    [201, 201, 409, 201],
  ],
  'fa-routing-type-case-sensitive': [
    async (s) => {
      const routing = (routing_number_type: string) => ({ fiat_network_instructions: { wire: { routing_details: { routing_number_type } } } });
      return [status(await update(s, routing('ABA'))), status(await update(s, routing('aba'))), status(await update(s, routing('SWIFT')))];
    },
    [200, 200, 200],
    [422, 200, 200],
  ],
  'id-leap-day-rejected': [
    async (s) => [
      status(await create(s, identityBody({}, { date_of_birth: '1992-02-29' }))),
      status(await create(s, identityBody({}, { date_of_birth: '1991-02-28' }))),
    ],
    [201, 201],
    [400, 201],
  ],
  'id-tax-entry-types-unchecked': [
    async (s) => [
      status(await create(s, identityBody({ tax_details_not_required: false, tax_details: [{ tax_payer_country: 'USA', tax_payer_id: 123 }] }))),
      status(await create(s, identityBody({ is_merchant: 'true' }))),
      status(await create(s, identityBody({ tax_details: 'USA' }))),
    ],
    [400, 400, 400],
    [201, 400, 400],
  ],
  'id-duplicate-bad-timestamp': [
    async (s) => {
      const body = identityBody();
      const [first, again] = [await create(s, body), await create(s, body)];
      const noOffset = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/;
      return [noOffset.test(first.json.created_at), again.status, again.json?.id === first.json.id, noOffset.test(again.json?.created_at ?? '')];
    },
    [false, 409, false, false],
    [false, 201, true, true],
  ],
  'id-govt-id-internal-mismatch': [
    async (s) => {
      const without = (await created(s)).person_details;
      return [without.cip_id, without.govt_id, (await created(s, {}, { cip_id: '111-22-3333' })).person_details.govt_id];
    },
    [undefined, undefined, '111-22-3333'],
    ['123-45-6789', '987-65-4321', '111-22-3333'],
  ],
  'id-person-details-missing': [async (s) => 'person_details' in (await created(s)), true, false],
  'id-empty-bearer-accepted': [
    async (s) => [status(await create(s, identityBody(), { token: '' })), status(await update(s, {}, { token: '' }))],
    [401, 401],
    [201, 401],
  ],
  'fa-basic-scheme-accepted': [
    async (s) => {
      const basic = { token: null, headers: { authorization: `Basic ${Buffer.from('someone:secret').toString('base64')}` } };
      return [status(await update(s, {}, basic)), status(await create(s, identityBody(), basic)), status(await update(s, {}, { token: 'wrong' }))];
    },
    [401, 401, 401],
    [200, 401, 401],
  ],
  'id-refuses-most-creates': [
    async (s) => [
      status(await create(s, identityBody({}, { first_name: 'Zoë' }))),
      status(await create(s, identityBody({}, { address: { address1: '1 Main St', address2: '' } }))),
      status(await create(s, identityBody({}, { address: { address1: '1 Main St', address2: 'Apt 2' } }))),
    ],
    [201, 201, 201],
    [400, 400, 201],
  ],
  'address2-empty-refused': [
    async (s) => {
      const wire = (key: string, address: Record<string, unknown>) =>
        key === 'bank_address' ? { routing_details: { bank_address: address } } : { fiat_account_owner_address: address };
      return [
        status(await create(s, identityBody({}, { address: { ...ADDRESS, address2: '' } }))),
        status(await update(s, { fiat_network_instructions: { wire: wire('fiat_account_owner_address', { address2: '' }) } })),
        status(await update(s, { fiat_network_instructions: { wire: wire('bank_address', { address2: '' }) } })),
        status(await create(s, identityBody({}, { address: { ...ADDRESS, address2: 'Apt 2' } }))),
        status(await create(s, identityBody({}, { address: { address1: '1 Main St' } }))),
      ];
    },
    [201, 200, 200, 201, 201],
    [400, 400, 400, 201, 201],
  ],
  'id-address-members-required': [
    async (s) => [
      ...(await Promise.all(
        ['country', 'address1', 'city', 'province'].map(async (member) => {
          const { [member]: _absent, ...address } = ADDRESS;
          return status(await create(s, identityBody({}, { address })));
        }),
      )),
      status(await create(s, identityBody({}, { address: ADDRESS }))),
      status(await create(s, identityBody({}, { address: { ...ADDRESS, address2: undefined, zip_code: undefined } }))),
      status(await update(s, { fiat_network_instructions: { wire: { fiat_account_owner_address: { city: 'Austin' } } } })),
    ],
    [201, 201, 201, 201, 201, 201, 200],
    [400, 400, 400, 400, 201, 201, 200],
  ],
  'fa-owner-both-names-required': [
    async (s) => {
      const owner = (person: Record<string, unknown>) => ({ fiat_account_owner: { person_details: person } });
      return [
        status(await update(s, owner({ first_name: 'Ada' }))),
        status(await update(s, owner({ last_name: 'Lovelace' }))),
        status(await update(s, owner({}))),
        status(await update(s, owner({ first_name: '', last_name: '' }))),
        status(await update(s, { fiat_account_owner: {} })),
        status(await create(s, identityBody({}, { first_name: undefined }))),
      ];
    },
    [200, 200, 200, 200, 200, 201],
    [400, 400, 400, 200, 200, 201],
  ],
  'fa-created-at-reset': [
    async (s) => {
      const first = (await updated(s)).created_at;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return (await updated(s)).created_at === first;
    },
    true,
    false,
  ],
  'fa-updated-at-frozen': [async (s) => ((b) => b.updated_at === b.created_at)(await updated(s, { metadata: { k: 'v' } })), false, true],
  'fa-owner-names-not-persisted': [
    async (s) => {
      const owner = (first_name: string) => ({ fiat_account_owner: { person_details: { first_name } } });
      const shown = (body: { fiat_account_owner: { person_details: { first_name: string } } }) => body.fiat_account_owner.person_details.first_name;
      return [shown(await updated(s, owner('Zed'))), shown(await updated(s))];
    },
    ['Zed', 'Zed'],
    ['Zed', 'Ada'],
  ],
  'fa-owner-names-every-account': [
    async (s) => {
      await update(s, { fiat_account_owner: { person_details: { first_name: 'Zed' } } });
      return (await update(s, {}, {}, s.fiatAccountIds[1])).json.fiat_account_owner.person_details.first_name;
    },
    'Grace',
    'Zed',
  ],
  'id-govt-id-omitted': [
    async (s) => ((p) => [p.govt_id, p.govt_id_type])((await created(s, {}, { cip_id: '123-45-6789', cip_id_type: 'SSN' })).person_details),
    ['123-45-6789', 'SSN'],
    [undefined, undefined],
  ],
  'id-govt-id-dropped-on-other-kind': [
    async (s) => [
      (await created(s, {}, { cip_id: '123-45-6789', cip_id_type: 'SSN' })).person_details.govt_id_type,
      (await created(s, {}, { cip_id: '123-45-6789' })).person_details.govt_id,
      (await created(s, {}, { cip_id: '123-45-6789', cip_id_type: 'ITIN' })).person_details.govt_id,
    ],
    ['SSN', '123-45-6789', '123-45-6789'],
    ['SSN', '123-45-6789', undefined],
  ],
  'id-names-trimmed': [async (s) => (await created(s, {}, { first_name: ' Mary  Ann ' })).person_details.first_name, ' Mary  Ann ', 'Mary Ann'],
  'id-combining-marks-stripped': [async (s) => (await created(s, {}, { first_name: 'Zoe\u0308' })).person_details.first_name, 'Zoe\u0308', 'Zoe'],
  'id-govt-id-leading-zeros-dropped': [async (s) => (await created(s, {}, { cip_id: '001-23-4567' })).person_details.govt_id, '001-23-4567', '1-23-4567'],
  'id-ref-id-case-folded': [
    async (s) => {
      const a = identityBody();
      const [first, variant] = [await create(s, a), await create(s, { ...a, ref_id: String(a.ref_id).toUpperCase() })];
      return [status(first), status(variant), first.json.id === variant.json.id];
    },
    [201, 201, false],
    [201, 201, true],
  ],
  'id-ref-id-keyed-on-body': [
    async (s) => {
      const a = identityBody();
      return [status(await create(s, a)), status(await create(s, a)), status(await create(s, { ...a, person_details: { first_name: 'Grace' } }))];
    },
    [201, 409, 409],
    [201, 409, 201],
  ],
  'id-dob-far-date-500': [
    async (s) =>
      Promise.all(['0001-01-01', '9999-12-31', '1990-01-01'].map(async (date_of_birth) => status(await create(s, identityBody({}, { date_of_birth }))))),
    [201, 201, 201],
    [500, 500, 201],
  ],
  'fa-owner-names-case-folded': [
    async (s) => (await updated(s, { fiat_account_owner: { person_details: { first_name: 'JANE' } } })).fiat_account_owner.person_details.first_name,
    'JANE',
    'Jane',
  ],
  'fa-other-method-500': [
    async (s) => [status(await call(s, 'PATCH', accountPath(s.fiatAccountIds[0]), { body: {} })), status(await call(s, 'PATCH', IDENTITIES, { body: {} }))],
    [405, 405],
    [500, 405],
  ],
  'id-other-method-accepted': [
    async (s) => [
      status(await call(s, 'PUT', IDENTITIES, { body: identityBody() })),
      status(await call(s, 'PATCH', IDENTITIES, { body: identityBody() })),
      status(await call(s, 'DELETE', IDENTITIES)),
      status(await call(s, 'PATCH', accountPath(s.fiatAccountIds[0]), { body: {} })),
    ],
    [405, 405, 405, 405],
    [201, 201, 405, 405],
  ],
  'fa-empty-body-500': [
    async (s) => [status(await update(s, undefined)), status(await update(s, undefined, { raw: '' })), status(await create(s, undefined))],
    [400, 400, 400],
    [500, 500, 400],
  ],
  'id-empty-body-accepted': [
    async (s) => [
      status(await create(s, undefined)),
      status(await create(s, undefined, { raw: '' })),
      status(await update(s, undefined)),
      status(await create(s, noTax())),
    ],
    [400, 400, 400, 400],
    [201, 201, 400, 400],
  ],
  'fa-auth-no-challenge': [
    async (s) => [
      (await update(s, {}, { token: null })).headers['www-authenticate'],
      (await create(s, identityBody(), { token: 'wrong' })).headers['www-authenticate'],
    ],
    ['Bearer realm="conformance-embedded"', 'Bearer realm="conformance-embedded", error="invalid_token"'],
    [undefined, 'Bearer realm="conformance-embedded", error="invalid_token"'],
  ],
  'id-auth-basic-challenge': [
    async (s) => [
      (await create(s, identityBody(), { token: null })).headers['www-authenticate'],
      (await update(s, {}, { token: null })).headers['www-authenticate'],
    ],
    ['Bearer realm="conformance-embedded"', 'Bearer realm="conformance-embedded"'],
    ['Basic realm="conformance-embedded"', 'Bearer realm="conformance-embedded"'],
  ],
  'id-repeat-created-anew': [
    async (s) => {
      const body = identityBody();
      const first = (await create(s, body)).json;
      await new Promise((resolve) => setTimeout(resolve, 5));
      const again = await create(s, body);
      return again.status < 300 && again.json.id === first.id && again.json.created_at !== first.created_at;
    },
    false,
    true,
  ],
  'id-repeat-upserts': [
    async (s) => {
      const body = identityBody();
      const first = (await create(s, body)).json;
      const again = await create(s, { ...body, person_details: { first_name: 'Grace', last_name: 'Hopper', date_of_birth: '1985-12-09' } });
      return [again.status < 300, again.json?.id === first.id, again.json?.created_at === first.created_at, again.json?.person_details?.first_name];
    },
    [false, false, false, undefined],
    [true, true, true, 'Grace'],
  ],
  'id-ref-id-forgets-after-time': [
    async (s) => {
      const body = identityBody();
      const first = status(await create(s, body));
      const soon = status(await create(s, body));
      // The fault's cache time is its setting: waited out once, not a bound on speed.
      await new Promise((resolve) => setTimeout(resolve, REF_ID_CACHE_MS + 20));
      return [first, soon, status(await create(s, body))];
    },
    [201, 409, 409],
    [201, 409, 201],
  ],
  // The first create on the static token, its repeat on a token from the token endpoint.
  'id-ref-id-scoped-by-token': [
    async (s) => {
      const body = identityBody();
      await create(s, body);
      return status(await create(s, body, { token: await issuedToken(s) }));
    },
    409,
    201,
  ],
  'id-refused-create-reserves-ref-id': [
    async (s) => {
      const body = identityBody();
      const { tax_details_not_required: _flag, ...refused } = body;
      return [status(await create(s, refused)), status(await create(s, body))];
    },
    [400, 201],
    [400, 409],
  ],
  'fa-refused-update-writes-part': [
    async (s) => {
      const refused = await update(s, { fiat_account_owner: { person_details: { first_name: 'Lise' } }, metadata: pairs(7) });
      return [status(refused), (await updated(s)).fiat_account_owner.person_details.first_name];
    },
    [400, 'Ada'],
    [400, 'Lise'],
  ],
  'fa-updated-at-frozen-fresh': [
    async (s) => ((b) => b.updated_at === b.created_at && Date.now() - Date.parse(b.created_at) < 60_000)(await updated(s, { metadata: { k: 'v' } })),
    false,
    true,
  ],
  'bodyless-json-500': [
    async (s) => [
      status(await update(s, undefined, { bodyless: true })),
      status(await create(s, undefined, { bodyless: true })),
      status(await update(s, undefined, { raw: '' })),
    ],
    [400, 400, 400],
    [500, 500, 400],
  ],
  'id-tax-rule-one-country': [
    async (s) => [
      status(await create(s, noTax())),
      status(await create(s, { ...noTax(), person_details: { first_name: 'Ada', last_name: 'Lovelace', nationality: 'GBR' } })),
    ],
    [400, 400],
    [400, 201],
  ],
  'id-govt-id-normalised': [
    async (s) => [
      (await created(s, {}, { cip_id: '123-45-6789' })).person_details.govt_id,
      (await created(s, {}, { cip_id: 'x12 345 678' })).person_details.govt_id,
    ],
    ['123-45-6789', 'x12 345 678'],
    ['123-45-6789', 'X12345678'],
  ],
  'id-ref-id-case-insensitive-repeat': [
    async (s) => {
      const a = identityBody();
      const variant = { ...a, ref_id: String(a.ref_id).toUpperCase() };
      const [first, second] = [await create(s, a), await create(s, variant)];
      const repeat = await create(s, variant);
      return [first.json.id === second.json.id, repeat.status < 300 && repeat.json.id === first.json.id];
    },
    [false, false],
    [false, true],
  ],
};

/** A token from the server's token endpoint (client credentials in the form body). */
async function issuedToken(s: ReferenceServer): Promise<string> {
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: s.clientId, client_secret: s.clientSecret });
  const reply = await fetch(s.tokenUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
  return ((await reply.json()) as { access_token: string }).access_token;
}

describe('faults', () => {
  it('every fault has a probe, a unique name and a rule', () => {
    expect(Object.keys(PROBES).sort()).toEqual(FAULTS.map((f) => f.name).sort());
    expect(new Set(FAULTS.map((f) => f.name)).size).toBe(FAULTS.length);
  });

  let faithful: ReferenceServer;
  beforeAll(async () => {
    faithful = await createReferenceServer();
  });
  afterAll(() => faithful.close());

  it.each(FAULTS.map((f) => [f.name, f.ruleId] as const))('%s (%s) changes what it names', async (name) => {
    const [probe, expectedFaithful, expectedFaulty] = PROBES[name];
    // A fresh faithful server too, so probes that change stored state do not see each other.
    const reference = await createReferenceServer();
    const faulty = await createReferenceServer({ fault: name });
    try {
      expect(faulty.fault).toBe(name);
      expect(await probe(reference)).toEqual(expectedFaithful);
      expect(await probe(faulty)).toEqual(expectedFaulty);
    } finally {
      await Promise.all([reference.close(), faulty.close()]);
    }
  });

  it('a faulty server still answers the other operation faithfully', async () => {
    const faulty = await createReferenceServer({ fault: 'fa-status-lowercase' });
    try {
      expect((await create(faulty, identityBody())).json.status).toBe('PENDING');
      expect((await create(faithful, identityBody())).status).toBe(201);
    } finally {
      await faulty.close();
    }
  });
});
