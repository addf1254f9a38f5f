/**
 * What each fault of faults.ts changes: a few members of the server's behaviour, nothing else.
 * The record is keyed by every fault name, so a fault without a deviation does not compile.
 */
import { randomUUID } from 'node:crypto';
import { FAITHFUL, type Operation, type ServerBehaviour, type Violation } from './behaviour.ts';
import type { FaultName } from './faults.ts';
import { isPlainObject } from './json-body.ts';
import { MAX_METADATA_LENGTH } from './validation.ts';
import { firstCodePoints, hasAstral, hasNonAscii, isCalendarDate } from './text.ts';
import { addresses, names, namedPerson, personDetails, routingNumberType, strings, type Part } from './request-parts.ts';
import { codePoints } from '../core/text.ts';

type Body = Record<string, unknown>;
const UPDATE: Operation = 'updateFiatAccount';
const CREATE: Operation = 'createIdentity';
const DAY_MS = 24 * 60 * 60 * 1000;

/** The objects of a FiatAccount response that may carry status and metadata (2.1 shape note). */
function placements(body: Body): Body[] {
  const owner = body.fiat_account_owner;
  return [body, body.fiat_network_instructions, isPlainObject(owner) ? owner.fiat_network_instructions : undefined].filter(isPlainObject);
}

/** Sets `key` wherever the response carries it already. */
function replaceWherePresent(body: Body, key: string, value: unknown): Body {
  for (const place of placements(body)) if (key in place) place[key] = value;
  return body;
}

/** A timestamp with its offset (and fraction) cut off: "2024-01-02T03:04:05". */
const withoutOffset = (timestamp: unknown): unknown => (typeof timestamp === 'string' ? timestamp.slice(0, 19) : timestamp);

function nameRule(operation: Operation, test: (name: string) => boolean, message: string) {
  return (op: Operation, body: Body): Violation[] =>
    op !== operation
      ? []
      : names(op, body)
          .filter((n) => test(n.value))
          .map((n) => ({ concern: 'server-policy' as const, instancePath: n.pointer, message }));
}

/** The longest first_name or last_name some servers keep (a column width, not the document's). */
const NAME_COLUMN = 64;

/** A refusal of the server's own at `pointer`, with the reading's status. */
const policy = (instancePath: string, message: string): Violation => ({ concern: 'server-policy', instancePath, message });

/** One refusal naming every member of `members` the object lacks (one per place: violations are told apart by place). */
function missingMembers(part: Part<Record<string, unknown>>, members: string[]): Violation[] {
  const missing = members.filter((member) => part.value[member] === undefined);
  return missing.length
    ? [policy(part.pointer, `must have required propert${missing.length === 1 ? 'y' : 'ies'} ${missing.map((m) => `'${m}'`).join(', ')}`)]
    : [];
}

/** Members the vendor's OpenAPI marks required in an identity's address (IdentityMailingAddress). */
const VENDOR_ADDRESS_MEMBERS = ['country', 'address1', 'city', 'province'];

/**
 * How long the forgetting index keeps a ref_id: far longer than a repeat right after its create
 * takes, even on a loaded machine (the scenarios' repeats of the identities they just made, the
 * repeats on a renewed token), shorter than the --lifetime its fault's runs get (faults.ts).
 */
export const REF_ID_CACHE_MS = 2000;

/** The members each fault overrides. */
export const DEVIATIONS: { readonly [name in FaultName]: Partial<ServerBehaviour> } = {
  'metadata-over-pairs-accepted': {
    ignores: (op, concern) => op === UPDATE && concern === 'metadata-pairs',
    // Keeps the first 6, so later answers stay within the limit and only the rejection rule fails.
    storedMetadata: (metadata) => Object.fromEntries(Object.entries(metadata).slice(0, 6)),
  },
  'metadata-exact-pairs-rejected': { maxMetadataPairs: 5 },
  'metadata-over-pairs-500': { failsOn: (op, concern) => op === UPDATE && concern === 'metadata-pairs' },
  'metadata-over-length-accepted': {
    ignores: (op, concern) => op === UPDATE && concern === 'metadata-length',
    storedMetadata: (metadata) =>
      Object.fromEntries(
        Object.entries(metadata).map(([k, v]) => [
          firstCodePoints(k, MAX_METADATA_LENGTH),
          typeof v === 'string' ? firstCodePoints(v, MAX_METADATA_LENGTH) : v,
        ]),
      ),
  },
  'metadata-counts-bytes': { metadataLength: (text) => Buffer.byteLength(text, 'utf8') },
  'metadata-counts-utf16': { metadataLength: (text) => text.length },
  'fa-status-lowercase': { fiatAccountResponse: (body) => replaceWherePresent(body, 'status', 'pending') },
  'fa-status-missing': {
    fiatAccountResponse: (body) => {
      for (const place of placements(body)) delete place.status;
      return body;
    },
  },
  'fa-created-at-no-offset': { fiatAccountResponse: (body) => ({ ...body, created_at: withoutOffset(body.created_at) }) },
  'fa-id-missing': {
    fiatAccountResponse: ({ id: _dropped, ...rest }) => rest,
  },
  'fa-routing-details-string': {
    fiatAccountResponse: (body) => {
      for (const place of placements(body)) {
        const routing = isPlainObject(place.wire) ? place.wire.routing_details : undefined;
        if (isPlainObject(routing) && isPlainObject(place.wire))
          place.wire.routing_details = `${String(routing.routing_number_type)} ${String(routing.routing_number)}`;
      }
      return body;
    },
  },
  'fa-content-type-text': { successContentType: (op) => (op === UPDATE ? 'text/plain' : 'application/json') },
  'fa-response-metadata-extra-pair': {
    fiatAccountResponse: (body) => {
      // A server value next to the client's pairs, like the sample's attempt counter.
      for (const place of placements(body)) if (isPlainObject(place.metadata)) place.metadata = { ...place.metadata, _server_attempts: 1 };
      return body;
    },
  },
  'fa-wrong-types-accepted': { ignores: (op, concern) => op === UPDATE && concern === 'shape' },
  'fa-null-written': { writesNulls: true },
  'fa-non-ascii-rejected': {
    extraViolations: (op, body) => (op === UPDATE && strings(body).some(hasNonAscii) ? [policy('', 'must hold ASCII characters only')] : []),
  },

  'id-tax-absent-accepted': { taxDetailsRequired: (notRequired) => notRequired === false },
  'id-tax-false-accepted': { taxDetailsRequired: (notRequired) => notRequired === undefined },
  'id-tax-not-required-rejected': { taxDetailsRequired: () => true },
  'id-ref-id-not-unique': { refIdUniqueness: 'none' },
  'id-ref-id-race': { refIdUniqueness: 'racy' },
  'id-dob-unchanged': {
    identityResponse: (body, request) => {
      const sent = personDetails(request)?.date_of_birth;
      const returned = personDetails(body);
      if (returned && sent !== undefined) returned.date_of_birth = sent;
      return body;
    },
  },
  'id-dob-previous-day': {
    identityResponse: (body, request) => {
      const sent = personDetails(request)?.date_of_birth;
      const returned = personDetails(body);
      if (returned && typeof sent === 'string' && isCalendarDate(sent)) {
        // Midnight in a zone an hour east of UTC, written as UTC: 23:00 the day before.
        returned.date_of_birth = new Date(Date.parse(`${sent}T00:00:00Z`) - DAY_MS / 24).toISOString().replace('.000Z', 'Z');
      }
      return body;
    },
  },
  'id-govt-id-differs': {
    identityResponse: (body) => {
      const returned = personDetails(body);
      if (returned && typeof returned.govt_id === 'string') {
        const stripped = returned.govt_id.replace(/-/g, '');
        returned.govt_id = stripped !== returned.govt_id ? stripped : `0${stripped}`;
      }
      return body;
    },
  },
  'id-person-details-dropped': {
    identityResponse: (body) => {
      const returned = personDetails(body);
      if (returned) {
        delete returned.phone_number;
        delete returned.address;
      }
      return body;
    },
  },
  'id-is-merchant-ignored': { identityResponse: (body) => ({ ...body, is_merchant: false }) },
  'id-starts-approved': { identityResponse: (body) => ({ ...body, status: 'APPROVED' }) },
  'id-status-lowercase': { identityResponse: (body) => ({ ...body, status_details: 'pending' }) },
  'id-boolean-as-string': { identityResponse: (body) => ({ ...body, user_disabled: 'false' }) },
  'id-created-at-no-offset': { identityResponse: (body) => ({ ...body, created_at: withoutOffset(body.created_at) }) },
  'id-id-missing': { identityResponse: ({ id: _dropped, ...rest }) => rest },
  'id-tax-details-object': {
    identityResponse: (body) => (Array.isArray(body.tax_details) ? { ...body, tax_details: { ...(body.tax_details[0] ?? {}) } } : body),
  },
  'id-wrong-types-accepted': { ignores: (op, concern) => op === CREATE && (concern === 'shape' || concern === 'tax-entry-types') },
  'id-content-type-text': { successContentType: (op) => (op === CREATE ? 'text/plain' : 'application/json') },
  'id-astral-name-500': { failsToStore: (op, body) => op === CREATE && names(op, body).some((n) => hasAstral(n.value)) },

  'fa-unknown-id-400': { unknownAccountStatus: 400 },
  'fa-id-mismatch': { fiatAccountResponse: (body) => ({ ...body, id: randomUUID() }) },
  'fa-update-not-applied': { storesOwnerNames: false },
  'fa-updated-before-created': {
    fiatAccountResponse: (body) => ({ ...body, updated_at: new Date(Date.parse(String(body.created_at)) - DAY_MS).toISOString() }),
  },
  'fa-malformed-json-500': { malformedJsonStatus: (op) => (op === UPDATE ? 500 : 400) },
  'fa-no-auth-accepted': { requiresAuthorization: (op) => op !== UPDATE },
  'fa-drops-astral': { dropsConnection: (op, text) => op === UPDATE && hasAstral(text) },
  'id-wrong-token-403': { wrongTokenStatus: (op) => (op === CREATE ? 403 : 401) },
  'id-type-institution': { identityResponse: (body) => ({ ...body, type: 'INSTITUTION' }) },
  'id-invalid-dob-accepted': { ignores: (op, concern) => op === CREATE && concern === 'date-of-birth' },
  'id-malformed-json-500': { malformedJsonStatus: (op) => (op === CREATE ? 500 : 400) },

  'id-near-empty-body': { identityResponse: (body) => ({ id: body.id, summary_status: body.summary_status }) },
  'id-same-identity': { refIdUniqueness: 'single' },
  'dies-mid-run': { diesAfterRequests: 150 },
  // The empty update is how a client reads the current state: it keeps working, so the run starts.
  'fa-500-always': { crashesOn: (op, body) => op === UPDATE && Object.keys(body).length > 0 },
  // A width check on the wrong column: 65 to 128 are refused, longer names get through.
  'id-long-name-rejected': {
    extraViolations: (op, body) =>
      nameRule(
        CREATE,
        (name) => codePoints(name) > NAME_COLUMN && codePoints(name) <= 2 * NAME_COLUMN,
        `must be at most ${NAME_COLUMN} characters`,
      )(op, body).map((v) => ({ ...v, status: 422 })),
  },
  'id-names-truncated': {
    identityResponse: (body) => {
      const returned = personDetails(body);
      for (const key of ['first_name', 'last_name']) {
        if (returned && typeof returned[key] === 'string') returned[key] = firstCodePoints(returned[key], NAME_COLUMN);
      }
      return body;
    },
  },
  'id-dob-epoch-rejected': {
    extraViolations: (op, body) =>
      op === CREATE && personDetails(body)?.date_of_birth === '1970-01-01' ? [policy('/person_details/date_of_birth', 'is required')] : [],
  },
  'id-ref-id-remembers-last': { refIdUniqueness: 'last-only' },
  'fa-routing-type-case-sensitive': {
    extraViolations: (op, body) => {
      const kind = op === UPDATE ? routingNumberType(body) : undefined;
      // Its list holds "aba": the sample's "ABA" is the one kind it refuses.
      return kind !== 'ABA'
        ? []
        : [
            {
              concern: 'server-policy',
              instancePath: '/fiat_network_instructions/wire/routing_details/routing_number_type',
              message: 'unsupported routing_number_type',
              status: 422,
            },
          ];
    },
  },
  'id-leap-day-rejected': {
    extraViolations: (op, body) => {
      const dateOfBirth = op === CREATE ? personDetails(body)?.date_of_birth : undefined;
      return typeof dateOfBirth === 'string' && /^\d{4}-02-29$/.test(dateOfBirth)
        ? [{ concern: 'server-policy', instancePath: '/person_details/date_of_birth', message: 'must be a real calendar date' }]
        : [];
    },
  },
  'id-tax-entry-types-unchecked': { ignores: (op, concern) => op === CREATE && concern === 'tax-entry-types' },
  'id-duplicate-bad-timestamp': { duplicateResponse: (identity) => ({ ...identity, created_at: withoutOffset(identity.created_at) }) },
  'id-govt-id-internal-mismatch': {
    identityResponse: (body, request) => {
      const returned = personDetails(body);
      // Filled from another record when the request had none: the pair no longer agrees.
      if (returned && personDetails(request)?.cip_id === undefined) Object.assign(returned, { cip_id: '123-45-6789', govt_id: '987-65-4321' });
      return body;
    },
  },
  'id-person-details-missing': { identityResponse: ({ person_details: _dropped, ...rest }) => rest },
  'id-empty-bearer-accepted': { acceptsAuthorization: (op, header) => op === CREATE && /^Bearer\s*$/i.test(header) },
  'fa-basic-scheme-accepted': { acceptsAuthorization: (op, header) => op === UPDATE && /^Basic(\s|$)/i.test(header) },
  'id-refuses-most-creates': {
    extraViolations: (op, body) => [
      ...nameRule(CREATE, hasNonAscii, 'must hold ASCII characters only')(op, body),
      ...(op === CREATE ? addresses(op, body) : []).filter((a) => a.value.address2 === '').map((a) => policy(`${a.pointer}/address2`, 'must not be empty')),
    ],
  },

  'address2-empty-refused': {
    extraViolations: (op, body) =>
      addresses(op, body)
        .filter((a) => a.value.address2 === '')
        .map((a) => policy(`${a.pointer}/address2`, 'must not be empty')),
  },
  'id-address-members-required': {
    extraViolations: (op, body) => (op === CREATE ? addresses(op, body) : []).flatMap((a) => missingMembers(a, VENDOR_ADDRESS_MEMBERS)),
  },
  'fa-owner-both-names-required': {
    extraViolations: (op, body) => {
      const person = op === UPDATE ? namedPerson(op, body) : undefined;
      return person ? missingMembers(person, ['first_name', 'last_name']) : [];
    },
  },
  'fa-created-at-reset': { fiatAccountResponse: (body) => ({ ...body, created_at: body.updated_at }) },
  'fa-updated-at-frozen': { fiatAccountResponse: (body) => ({ ...body, updated_at: body.created_at }) },
  'fa-owner-names-not-persisted': { keepsOwnerNames: false },
  'fa-owner-names-every-account': { ownerNamesOnEveryAccount: true },

  'id-govt-id-omitted': { identityResponse: (body) => withoutGovtId(body) },
  'id-govt-id-dropped-on-other-kind': {
    identityResponse: (body, request) => {
      const kind = personDetails(request)?.cip_id_type;
      return kind === undefined || kind === 'SSN' ? body : withoutGovtId(body);
    },
  },
  'id-names-trimmed': { identityResponse: (body) => withNames(body, (name) => name.trim().replace(/\s+/g, ' ')) },
  'id-combining-marks-stripped': { identityResponse: (body) => withNames(body, (name) => name.normalize('NFD').replace(/\p{M}/gu, '')) },
  'id-govt-id-leading-zeros-dropped': {
    identityResponse: (body) => {
      const returned = personDetails(body);
      if (returned && typeof returned.govt_id === 'string') returned.govt_id = returned.govt_id.replace(/^0+(?=\d)/, '');
      return body;
    },
  },
  // Answers a used ref_id with its identity, so a case variant gets another ref_id's identity.
  'id-ref-id-case-folded': { refIdKey: (refId) => refId.toLowerCase(), duplicateResponse: (identity) => identity },
  'id-ref-id-keyed-on-body': { refIdKey: (refId, body) => `${refId}\u0000${JSON.stringify({ ...body, ref_id: undefined })}` },
  'id-dob-far-date-500': {
    failsToStore: (op, body) => {
      const year = Number(/^(\d{4})-/.exec(String(op === CREATE ? personDetails(body)?.date_of_birth : ''))?.[1]);
      return year < 1000 || year > 9000;
    },
  },
  'fa-owner-names-case-folded': {
    fiatAccountResponse: (body) => {
      const owner = isPlainObject(body.fiat_account_owner) ? body.fiat_account_owner.person_details : undefined;
      for (const key of ['first_name', 'last_name']) {
        if (isPlainObject(owner) && typeof owner[key] === 'string') owner[key] = capitalised(owner[key]);
      }
      return body;
    },
  },
  'fa-other-method-500': { otherMethod: (op, method) => (op === UPDATE && method === 'PATCH' ? 'fail' : 'refuse') },
  'id-other-method-accepted': { otherMethod: (op, method) => (op === CREATE && (method === 'PUT' || method === 'PATCH') ? 'handle' : 'refuse') },
  'fa-empty-body-500': { emptyBody: (op) => (op === UPDATE ? 'fail' : 'as-read') },
  'id-empty-body-accepted': { emptyBody: (op) => (op === CREATE ? 'unchecked' : 'as-read') },
  'fa-auth-no-challenge': { authChallenge: (op, challenge) => (op === UPDATE ? undefined : challenge) },
  'id-auth-basic-challenge': { authChallenge: (op, challenge) => (op === CREATE ? 'Basic realm="conformance-embedded"' : challenge) },
  'id-repeat-created-anew': {
    duplicateResponse: (identity) => {
      const now = new Date().toISOString();
      return { ...identity, created_at: now, updated_at: now };
    },
  },
  // Answers the identity the repeat wrote, under every reading (a 409 would hide the write).
  'id-repeat-upserts': { refIdIndex: { upserts: true }, duplicateResponse: (identity) => identity },
  'id-ref-id-forgets-after-time': { refIdIndex: { forgetsAfterMs: REF_ID_CACHE_MS } },
  'id-ref-id-scoped-by-token': { refIdScope: 'access-token' },
  'id-refused-create-reserves-ref-id': { reservesRefusedRefIds: true },
  'fa-refused-update-writes-part': { writesNamesOfRefusedUpdate: true },
  'fa-updated-at-frozen-fresh': { seedsAccountsAtStart: true, fiatAccountResponse: (body) => ({ ...body, updated_at: body.created_at }) },
  'bodyless-json-500': { bodylessJson: () => 'fail' },
  // Required only of the sample's country: a person of another nationality or government id country needs no tax_details.
  'id-tax-rule-one-country': {
    taxDetailsRequired: (notRequired, body) => notRequired !== true && sampleCountryOnly(body),
  },
  'id-govt-id-normalised': {
    identityResponse: (body) => {
      const returned = personDetails(body);
      if (returned && typeof returned.govt_id === 'string') returned.govt_id = returned.govt_id.replace(/\s+/g, '').toUpperCase();
      return body;
    },
  },
  // A repeat is answered with an identity (not refused), looked up without regard to case: the older one.
  'id-ref-id-case-insensitive-repeat': { refIdUniqueness: 'repeat-folds-case', duplicateResponse: (identity) => identity },
};

/** Whether a create's person is of the sample's country (USA), or says no country: the one country a faulty tax rule covers. */
function sampleCountryOnly(body: Body): boolean {
  const person = personDetails(body);
  return [person?.nationality, person?.cip_id_country].every((country) => country === undefined || country === 'USA');
}

/** The identity without govt_id and govt_id_type in its person_details. */
function withoutGovtId(body: Body): Body {
  const returned = personDetails(body);
  if (returned) {
    delete returned.govt_id;
    delete returned.govt_id_type;
  }
  return body;
}

/** The identity with first_name and last_name changed by `change`, as a server that normalises them stores them. */
function withNames(body: Body, change: (name: string) => string): Body {
  const returned = personDetails(body);
  for (const key of ['first_name', 'last_name']) {
    if (returned && typeof returned[key] === 'string') returned[key] = change(returned[key]);
  }
  return body;
}

/** "JANE" and "jane" as "Jane": a server that tidies names. */
const capitalised = (name: string): string => name.charAt(0).toUpperCase() + name.slice(1).toLowerCase();

/**
 * The server's behaviour with `fault` injected (the faithful one without); `more` faults on top,
 * each overriding its members (a later one wins where two touch the same member).
 */
export function behaviourFor(fault?: FaultName, more: readonly FaultName[] = []): ServerBehaviour {
  const faults = [...(fault ? [fault] : []), ...more];
  return faults.length ? Object.assign({ ...FAITHFUL }, ...faults.map((f) => DEVIATIONS[f])) : FAITHFUL;
}
