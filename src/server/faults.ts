/**
 * The defects the embedded server can inject, one at a time, each against the rule of the
 * catalogue it breaks. This file is the list (names and rules are a contract: tests, docs and
 * `conformance self-test` use them); what each one changes lives in `deviations.ts`.
 */
import type { RuleId } from '../core/catalogue.ts';

const FAULT_LIST = [
  // Documented rules: update a fiat account
  { name: 'metadata-over-pairs-accepted', ruleId: 'fa.metadata.over-pairs-rejected', description: 'accepts metadata with 7 or more pairs (keeps the first 6)' },
  {
    name: 'metadata-over-pairs-500',
    ruleId: 'fa.metadata.over-pairs-rejected',
    // The 500 is itself a server error.
    alsoFails: ['fa.no-5xx'],
    description: 'fails with 500 on metadata with 7 or more pairs instead of rejecting it',
  },
  {
    name: 'metadata-exact-pairs-rejected',
    ruleId: 'fa.metadata.max-pairs-accepted',
    // Valid updates with 6 pairs are refused too.
    alsoFails: ['fa.valid-accepted'],
    description: 'rejects metadata with exactly 6 pairs (limit 5)',
  },
  {
    name: 'metadata-over-length-accepted',
    ruleId: 'fa.metadata.over-length-rejected',
    description: 'accepts metadata keys and values of 101+ characters (stores them cut to 100)',
  },
  {
    name: 'metadata-counts-bytes',
    ruleId: 'fa.metadata.max-length-accepted',
    // Valid updates with 100 'é' are refused too.
    alsoFails: ['fa.valid-accepted'],
    description: "counts UTF-8 bytes, not characters (rejects 100 'é')",
  },
  {
    name: 'metadata-counts-utf16',
    ruleId: 'fa.metadata.max-length-accepted',
    // Valid updates with 100 emoji are refused too.
    alsoFails: ['fa.valid-accepted'],
    description: 'counts UTF-16 code units, not characters (rejects 100 emoji)',
  },
  { name: 'fa-status-lowercase', ruleId: 'fa.status.enum', description: 'returns status "pending"' },
  { name: 'fa-status-missing', ruleId: 'fa.status.present', description: 'returns no status anywhere' },
  { name: 'fa-created-at-no-offset', ruleId: 'fa.timestamps.rfc3339', description: 'returns created_at without an offset ("2024-01-02T03:04:05")' },
  { name: 'fa-id-missing', ruleId: 'fa.response.required', description: 'returns no id' },
  { name: 'fa-routing-details-string', ruleId: 'fa.response.schema', description: 'returns wire.routing_details as a string, not an object' },
  { name: 'fa-content-type-text', ruleId: 'fa.content-type', description: 'answers updates with Content-Type text/plain (the body is still JSON)' },
  {
    name: 'fa-response-metadata-extra-pair',
    ruleId: 'fa.response.metadata-limits',
    description: 'adds a server pair to the response metadata (7 pairs when 6 are sent)',
  },
  {
    name: 'fa-wrong-types-accepted',
    ruleId: 'fa.wrong-types-rejected',
    // The wrongly typed values it stored come back in the answer.
    alsoFails: ['fa.response.schema'],
    description: 'does not check the types of the update body (the metadata limits still apply)',
  },
  {
    name: 'fa-null-written',
    ruleId: 'fa.response.schema',
    description: 'takes a null in an update as a value and writes it (the owner name becomes null) instead of refusing or ignoring it',
  },
  {
    name: 'fa-non-ascii-rejected',
    ruleId: 'fa.metadata.max-length-accepted',
    // Valid updates with non-ASCII owner names are refused too.
    alsoFails: ['fa.valid-accepted'],
    description: 'rejects any non-ASCII character anywhere in an update, owner names and metadata alike (metadata in any script is guaranteed, section 8)',
  },
  // Documented rules: create an identity
  { name: 'id-tax-absent-accepted', ruleId: 'id.tax.absent-rejected', description: 'accepts tax_details absent when tax_details_not_required is absent' },
  { name: 'id-tax-false-accepted', ruleId: 'id.tax.absent-false-rejected', description: 'accepts tax_details absent when tax_details_not_required is false' },
  {
    name: 'id-tax-not-required-rejected',
    ruleId: 'id.tax.not-required-accepted',
    // Valid identities that say tax_details_not_required are refused too.
    alsoFails: ['id.valid-accepted'],
    description: 'demands tax_details even when tax_details_not_required is true',
  },
  {
    name: 'id-ref-id-not-unique',
    ruleId: 'id.ref-id.sequential-duplicate',
    // No uniqueness at all: concurrent repeats and repeats on a renewed token create identities too.
    alsoFails: ['id.ref-id.concurrent-duplicate', 'id.ref-id.across-tokens'],
    description: 'does not keep ref_id unique (a repeat creates a second identity)',
  },
  {
    name: 'id-ref-id-race',
    ruleId: 'id.ref-id.concurrent-duplicate',
    description: 'checks ref_id, then inserts after an await: concurrent repeats create several identities',
  },
  { name: 'id-dob-unchanged', ruleId: 'id.dob.midnight-utc', description: 'returns date_of_birth as sent (YYYY-MM-DD), not as midnight UTC' },
  { name: 'id-dob-previous-day', ruleId: 'id.dob.midnight-utc', description: 'local-time bug: returns date_of_birth as the day before at 23:00:00Z' },
  { name: 'id-govt-id-differs', ruleId: 'id.govt-id.mirrors-cip', description: 'returns govt_id as cip_id with its dashes removed (or otherwise altered)' },
  { name: 'id-person-details-dropped', ruleId: 'id.person-details.returned', description: 'drops phone_number and address from the returned person_details' },
  { name: 'id-is-merchant-ignored', ruleId: 'id.is-merchant.returned', description: 'returns is_merchant false whatever was sent' },
  { name: 'id-starts-approved', ruleId: 'id.initial-statuses', description: 'returns status APPROVED on a new identity' },
  { name: 'id-status-lowercase', ruleId: 'id.enums', description: 'returns status_details "pending"' },
  { name: 'id-boolean-as-string', ruleId: 'id.booleans', description: 'returns user_disabled as the string "false"' },
  { name: 'id-created-at-no-offset', ruleId: 'id.timestamps.rfc3339', description: 'returns created_at without an offset' },
  { name: 'id-id-missing', ruleId: 'id.response.id', description: 'returns no id' },
  { name: 'id-tax-details-object', ruleId: 'id.response.schema', description: 'returns tax_details as an object, not an array' },
  {
    name: 'id-wrong-types-accepted',
    ruleId: 'id.wrong-types-rejected',
    description: 'does not check the types of the create body (the tax rule still applies)',
  },
  { name: 'id-content-type-text', ruleId: 'id.content-type', description: 'answers creates with Content-Type text/plain (the body is still JSON)' },
  {
    name: 'id-astral-name-500',
    ruleId: 'id.valid-accepted',
    hiddenByStrict: 'the strict variant refuses a name outside its ASCII pattern before storing it',
    // The 500 is itself a server error.
    alsoFails: ['id.no-5xx'],
    description: 'fails with 500 on a create whose first_name or last_name holds an astral character (emoji; a 3-byte utf8 column)',
  },
  // Convention rules
  { name: 'fa-unknown-id-400', ruleId: 'fa.unknown-id-404', description: 'answers 400, not 404, for an unknown fiat account id' },
  { name: 'fa-id-mismatch', ruleId: 'fa.response.id-matches-path', description: 'answers with another id than the one in the path' },
  {
    name: 'fa-update-not-applied',
    ruleId: 'fa.update-reflected',
    // What is not stored is not there at the next update either.
    alsoFails: ['fa.sequence.persisted'],
    description: 'does not store owner names (the old ones come back)',
  },
  {
    name: 'fa-updated-before-created',
    ruleId: 'fa.updated-after-created',
    // Every answer of a sequence carries the day-early updated_at.
    alsoFails: ['fa.sequence.timestamps', 'fa.updated-at.moves'],
    description: 'returns updated_at a day before created_at',
  },
  {
    name: 'fa-malformed-json-500',
    ruleId: 'fa.no-5xx',
    // An empty body is malformed JSON to this server: 500 too.
    alsoFails: ['fa.empty-body'],
    description: 'answers 500 to an update with malformed JSON',
  },
  { name: 'fa-no-auth-accepted', ruleId: 'fa.auth-401', description: 'accepts updates without an Authorization header' },
  { name: 'fa-drops-astral', ruleId: 'fa.answers', description: 'destroys the connection when the update body holds an astral character' },
  { name: 'id-wrong-token-403', ruleId: 'id.auth-401', description: 'answers 403, not 401, to a create with a wrong token' },
  { name: 'id-type-institution', ruleId: 'id.type-person', description: 'returns type INSTITUTION for an identity sent with person_details' },
  { name: 'id-invalid-dob-accepted', ruleId: 'id.dob.invalid-rejected', description: 'accepts impossible (1990-02-30) and unparseable dates of birth' },
  {
    name: 'id-malformed-json-500',
    ruleId: 'id.no-5xx',
    // An empty body is malformed JSON to this server: 500 too.
    alsoFails: ['id.empty-body'],
    description: 'answers 500 to a create with malformed JSON',
  },
  // Faults that judge the harness itself: too few cases, a target that stops, wrong blame, narrow generators
  {
    name: 'id-near-empty-body',
    ruleId: 'id.enums',
    expect: 'inconclusive',
    // The person_details sent are not in the answer.
    alsoFails: ['id.person-details.returned'],
    description: 'answers every create with only {id, summary_status}',
  },
  {
    name: 'id-same-identity',
    ruleId: 'id.distinct-identities',
    description: 'answers every create with the identity of the first create, whatever the ref_id',
  },
  {
    name: 'dies-mid-run',
    ruleId: 'id.answers',
    expect: 'unreachable',
    // The dead server answers neither operation.
    alsoFails: ['fa.answers'],
    description: 'after its 150th request, destroys every connection and takes no more, like a crashed process',
  },
  {
    name: 'fa-500-always',
    ruleId: 'fa.valid-accepted',
    notBlamed: ['fa.metadata.over-pairs-rejected', 'fa.metadata.over-length-rejected', 'fa.wrong-types-rejected'],
    // The 500 is itself a server error.
    alsoFails: ['fa.no-5xx'],
    description: 'answers every non-empty update with 500 {"error":"internal"} (the empty update still works)',
  },
  {
    name: 'id-long-name-rejected',
    ruleId: 'id.valid-accepted',
    notBlamed: ['id.tax.not-required-accepted'],
    description: 'rejects (422) a first_name or last_name of 65 to 128 characters but accepts longer ones (a check on the wrong column)',
  },
  { name: 'id-names-truncated', ruleId: 'id.person-details.returned', description: 'stores and returns first_name and last_name cut to 64 characters' },
  {
    name: 'id-dob-epoch-rejected',
    ruleId: 'id.valid-accepted',
    description: 'rejects date_of_birth 1970-01-01 as missing (a zero timestamp), the days around it accepted',
  },
  {
    name: 'id-ref-id-remembers-last',
    ruleId: 'id.ref-id.sequential-duplicate',
    // The repeats on a renewed token are of older ref_ids too.
    alsoFails: ['id.ref-id.across-tokens'],
    description: 'remembers only the last ref_id used (a repeat of an older one creates a new identity)',
  },
  {
    name: 'fa-routing-type-case-sensitive',
    ruleId: 'fa.valid-accepted',
    description: 'rejects (422) routing_number_type "ABA" as the sample writes it (compares with a lower-case "aba")',
  },
  {
    name: 'id-leap-day-rejected',
    ruleId: 'id.valid-accepted',
    description: 'rejects a date_of_birth on February 29 (a calendar check that forgets leap years)',
  },
  {
    name: 'id-tax-entry-types-unchecked',
    ruleId: 'id.wrong-types-rejected',
    description: 'does not check the types inside tax_details entries (tax_payer_id 123 accepted)',
  },
  {
    name: 'id-duplicate-bad-timestamp',
    ruleId: 'id.timestamps.rfc3339',
    // A created_at without its offset (or fraction) is no other instant: not a re-creation.
    notBlamed: ['id.ref-id.sequential-duplicate'],
    description: 'answers a repeat of a used ref_id with the identity, its created_at without an offset',
  },
  {
    name: 'id-govt-id-internal-mismatch',
    ruleId: 'id.govt-id.mirrors-cip',
    description: 'without a cip_id sent, returns cip_id "123-45-6789" and govt_id "987-65-4321"',
  },
  {
    name: 'id-person-details-missing',
    ruleId: 'id.person-details.returned',
    notBlamed: ['id.dob.midnight-utc'],
    description: 'returns no person_details at all',
  },
  { name: 'id-empty-bearer-accepted', ruleId: 'id.auth-401', description: 'accepts a create with "Authorization: Bearer " (an empty token)' },
  { name: 'fa-basic-scheme-accepted', ruleId: 'fa.auth-401', description: 'accepts an update with an Authorization header of another scheme (Basic ...)' },
  { name: 'id-refuses-most-creates', ruleId: 'id.valid-accepted', description: 'rejects creates with a non-ASCII name or an empty address2' },
  // Where the vendor's OpenAPI contradicts the API document: a server built from it
  {
    name: 'address2-empty-refused',
    ruleId: 'id.valid-accepted',
    // The refusal holds in fiat account addresses too.
    alsoFails: ['fa.valid-accepted'],
    description: 'refuses address2 "" in any address, identity or fiat account (the vendor\'s pattern demands a character; section 2.4 allows "")',
  },
  {
    name: 'id-address-members-required',
    ruleId: 'id.valid-accepted',
    description: "refuses an identity address without country, address1, city or province (the vendor's required members; no field is required)",
  },
  {
    name: 'fa-owner-both-names-required',
    ruleId: 'fa.valid-accepted',
    description: "refuses an update whose owner person_details lacks first_name or last_name (the vendor's required members; every field is optional)",
  },
  // Across exchanges: what an update leaves behind (sequences of updates)
  {
    name: 'fa-created-at-reset',
    ruleId: 'fa.sequence.timestamps',
    description: 'stamps created_at anew on every update (the record is re-inserted: created_at equals updated_at)',
  },
  {
    name: 'fa-updated-at-frozen',
    ruleId: 'fa.sequence.timestamps',
    // Thirty days old, the stamp is also long before the Date of the answer before each update.
    alsoFails: ['fa.updated-at.moves'],
    description: 'never moves updated_at: every answer carries the creation time (30 days old on the seeded accounts)',
  },
  {
    name: 'fa-owner-names-not-persisted',
    ruleId: 'fa.sequence.persisted',
    description: 'answers an update with the owner names sent, but its store keeps the old ones (the next answer shows them)',
  },
  {
    name: 'fa-owner-names-every-account',
    ruleId: 'fa.sequence.isolation',
    description: "writes an update's owner names into every fiat account (an UPDATE that lost its WHERE clause)",
  },
  // "Returned" means present (2.6), and servers that normalise what they store or key
  {
    name: 'id-govt-id-omitted',
    ruleId: 'id.govt-id.mirrors-cip',
    description: 'returns no govt_id and no govt_id_type, though cip_id and cip_id_type were sent',
  },
  {
    name: 'id-govt-id-dropped-on-other-kind',
    ruleId: 'id.govt-id.mirrors-cip',
    description: 'returns govt_id and govt_id_type only when cip_id_type is absent or "SSN" (an open kind beside cip_id drops them)',
  },
  {
    name: 'id-names-trimmed',
    ruleId: 'id.person-details.returned',
    description: 'stores first_name and last_name with outer spaces trimmed and inner runs of spaces collapsed',
  },
  {
    name: 'id-combining-marks-stripped',
    ruleId: 'id.person-details.returned',
    hiddenByStrict: 'the strict variant refuses a name outside its ASCII pattern before storing it',
    description: 'stores names decomposed with their combining marks stripped ("Zoë" comes back "Zoe")',
  },
  {
    name: 'id-govt-id-leading-zeros-dropped',
    ruleId: 'id.govt-id.mirrors-cip',
    description: 'returns govt_id from a numeric column: "001-23-4567" comes back "1-23-4567"',
  },
  {
    name: 'id-ref-id-case-folded',
    ruleId: 'id.distinct-identities',
    description: 'keys ref_ids in lower case and answers a used one with its identity: a ref_id that differs in letter case only gets that identity',
  },
  {
    name: 'id-ref-id-keyed-on-body',
    ruleId: 'id.ref-id.sequential-duplicate',
    description: 'keys ref_ids with the rest of the body: a repeat of a used ref_id with other details creates a second identity',
  },
  {
    name: 'id-dob-far-date-500',
    ruleId: 'id.valid-accepted',
    hiddenByStrict: 'the strict variant refuses a date of birth before 1900 or after today before storing it',
    // The 500 is itself a server error.
    alsoFails: ['id.no-5xx'],
    description: 'fails with 500 on a date_of_birth before the year 1000 or after 9000 (a date column of a narrower range)',
  },
  {
    name: 'fa-owner-names-case-folded',
    ruleId: 'fa.update-reflected',
    description: 'stores owner names capitalised ("JANE" and "jane" come back "Jane")',
  },
  // HTTP around the two operations (conventions)
  {
    name: 'fa-other-method-500',
    ruleId: 'fa.other-methods-refused',
    description: 'fails with 500 on PATCH to a fiat account path instead of refusing it with 405',
  },
  {
    name: 'id-other-method-accepted',
    ruleId: 'id.other-methods-refused',
    description: 'handles PUT and PATCH on the identities path like a create (2xx), not with 405',
  },
  { name: 'fa-empty-body-500', ruleId: 'fa.empty-body', description: 'fails with 500 on an update with an empty or missing body' },
  {
    name: 'id-empty-body-accepted',
    ruleId: 'id.empty-body',
    description: 'takes an empty or missing create body as {} without validating it, and creates an identity (2xx)',
  },
  { name: 'fa-auth-no-challenge', ruleId: 'fa.auth-challenge', description: 'answers 401 to an update without a WWW-Authenticate header' },
  {
    name: 'id-auth-basic-challenge',
    ruleId: 'id.auth-challenge',
    description: 'answers 401 to a create with a WWW-Authenticate challenge of the Basic scheme only',
  },
  {
    name: 'id-repeat-created-anew',
    ruleId: 'id.ref-id.sequential-duplicate',
    // A repeat on a renewed token is created anew as well.
    alsoFails: ['id.ref-id.across-tokens'],
    description: 'answers a repeat of a used ref_id with the same identity created anew (a fresh created_at and updated_at: an upsert)',
  },
  {
    name: 'id-repeat-upserts',
    ruleId: 'id.ref-id.sequential-duplicate',
    description: "writes a repeat's body over the identity of its ref_id (same id, same created_at) and answers with it: an upsert, whatever the reading",
  },
  {
    name: 'id-ref-id-forgets-after-time',
    ruleId: 'id.ref-id.sequential-duplicate',
    description: 'keeps its ref_id index in a cache that forgets an entry 2 s after storing it: a later repeat creates a second identity',
    // A default run shows it by its repeats of identities made long enough before; a short one
    // (--rule, few random cases on a fast machine) only by waiting.
    runSettings: { lifetimeMs: 3000, why: 'a run shorter than the cache time repeats nothing old enough: --lifetime 3s makes it wait' },
  },
  {
    name: 'id-ref-id-scoped-by-token',
    ruleId: 'id.ref-id.across-tokens',
    // The later repeats of the run's first ref_ids go on the renewed token too.
    alsoFails: ['id.ref-id.sequential-duplicate'],
    description: 'keeps its ref_id index per access token, not per API user: a used ref_id repeated on a renewed token creates a second identity',
  },
  // A refusal changes nothing (issue 32): what a refused request leaves behind
  {
    name: 'id-refused-create-reserves-ref-id',
    ruleId: 'id.refused-create.ref-id-free',
    // The create it refuses is valid, its ref_id held by no identity.
    alsoFails: ['id.valid-accepted'],
    description: 'keeps the ref_id of a refused create as used: a later valid create with it gets 409, though no identity holds it',
  },
  {
    name: 'fa-refused-update-writes-part',
    ruleId: 'fa.refused-update.writes-nothing',
    description: 'writes the owner names of an update, then refuses it for its metadata (7 pairs, 101 characters): the names stay',
  },
  // Issue 32: the updated_at of a sandbox made fresh for CI, and the body-less JSON request
  {
    name: 'fa-updated-at-frozen-fresh',
    ruleId: 'fa.updated-at.moves',
    description: 'never moves updated_at, on accounts made as the server starts: every answer carries the start time, seconds old when the run begins',
  },
  {
    name: 'bodyless-json-500',
    ruleId: 'fa.empty-body',
    // Creates fail the same way: only a 4xx is right there.
    alsoFails: ['id.empty-body'],
    description:
      "fails with 500 on a PUT or POST labelled application/json with no body at all (no Content-Length, what curl -X PUT -H 'Content-Type: application/json' sends): the framework leaves the body undefined and the handler reads it",
  },
  // Issue 32, rules over the open space: each shows only when a rule is judged with an open value the target accepted.
  {
    name: 'id-tax-rule-one-country',
    ruleId: 'id.tax.absent-rejected',
    // The same body with tax_details_not_required false is accepted too.
    alsoFails: ['id.tax.absent-false-rejected'],
    description: "enforces the tax rule only for the sample's country: a create whose nationality or cip_id_country is another needs no tax_details",
  },
  {
    name: 'id-govt-id-normalised',
    ruleId: 'id.govt-id.mirrors-cip',
    description: 'returns govt_id normalised: spaces removed, letters in upper case (a cip_id like 123-45-6789 comes back unchanged)',
  },
  {
    name: 'id-ref-id-case-insensitive-repeat',
    ruleId: 'id.ref-id.sequential-duplicate',
    description:
      'creates a new identity for a ref_id that differs from a used one in letter case only, but answers its repeat (2xx) with the older identity, looked up without regard to case',
  },
] as const satisfies readonly FaultEntry[];

/** What a run under a fault must end with (see FaultDefinition.expect). */
export type FaultExpectation = 'failed' | 'inconclusive' | 'unreachable';

interface FaultEntry {
  name: string;
  ruleId: RuleId;
  description: string;
  expect?: FaultExpectation;
  notBlamed?: readonly RuleId[];
  alsoFails?: readonly RuleId[];
  hiddenByStrict?: string;
  runSettings?: { lifetimeMs: number; why: string };
}

/** The name of one injectable fault. */
export type FaultName = (typeof FAULT_LIST)[number]['name'];

/** One fault: its name, the rule it breaks, and what the server does wrong. */
export interface FaultDefinition {
  name: FaultName;
  ruleId: RuleId;
  description: string;
  /**
   * What a run under this fault must end with; default `failed`: `ruleId` fails. `inconclusive`:
   * `ruleId` ends inconclusive and the run does not exit 0. `unreachable`: the run exits 3.
   */
  expect?: FaultExpectation;
  /** Rules that must not fail under this fault (the wrong-blame guard). */
  notBlamed?: readonly RuleId[];
  /**
   * The other rules the fault genuinely breaks (a second root cause: the refusal of a limit also
   * refuses valid bodies, a 500 is also a server error), each with a comment why. A run under the
   * fault fails `ruleId` and these, nothing else: any other failed rule is a wrong blame.
   */
  alsoFails?: readonly RuleId[];
  /**
   * Why the strict variant of the server never reaches the defect (it refuses the input first,
   * as a correct server may), so there is nothing to catch there. Undefined: it shows on both.
   */
  hiddenByStrict?: string;
  /**
   * A setting every run under the fault is given (the self-test, the fault matrix): what it takes
   * to show the defect whatever the machine's speed, and why.
   */
  runSettings?: { lifetimeMs: number; why: string };
}

/** Every fault, in the order `--list-faults` prints them. */
export const FAULTS: readonly FaultDefinition[] = FAULT_LIST;

/** True for a known fault name (user input from flags). */
export function isFaultName(name: string): name is FaultName {
  return FAULTS.some((f) => f.name === name);
}
