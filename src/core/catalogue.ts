/**
 * The rule catalogue: every rule the harness judges, with the section of the API document it
 * comes from and its basis. `documented` rules are stated by the document; `convention` rules
 * are ordinary HTTP practice where the document is silent (they fail a run only with --strict).
 * Adding a rule is adding one entry here and registering a check for it.
 */

export type Basis = 'documented' | 'convention';
import type { Operation } from './operations.ts';

export type { Operation };

/**
 * What coverage accounting needs to know of a rule beyond its cases (engine/coverage.ts):
 * - `sometimes`: only some answers can judge it (a field sent only sometimes, a relation only
 *   some bodies show), so it asks a smaller share of the random cases;
 * - `needsFreshKeys`: its random cases need room for new metadata keys on an account, which a
 *   target that merges metadata never gives back: under merge its random minimum is waived.
 */
export interface CoverageFacts {
  sometimes?: true;
  needsFreshKeys?: true;
}

export interface RuleDefinition {
  id: string;
  operation: Operation;
  section: string;
  basis: Basis;
  title: string;
  coverage?: CoverageFacts;
}

const rule = (id: string, operation: Operation, section: string, basis: Basis, title: string, coverage?: CoverageFacts): RuleDefinition => ({
  id,
  operation,
  section,
  basis,
  title,
  ...(coverage ? { coverage } : {}),
});

const FA: Operation = 'updateFiatAccount';
const ID: Operation = 'createIdentity';

export const RULES = [
  // Update a fiat account (PUT /v2/transfer/fiat-accounts/{id})
  rule('fa.valid-accepted', FA, '4.1', 'documented', 'A valid update request is accepted (2xx)', { needsFreshKeys: true }),
  rule('fa.response.schema', FA, '2.1', 'documented', 'The response matches FiatAccount in either placement of status and metadata'),
  rule('fa.response.required', FA, '2.1', 'documented', 'The response carries id, created_at and fiat_network_instructions'),
  rule('fa.status.enum', FA, '2.1', 'documented', 'status is PENDING, APPROVED or REJECTED wherever it appears'),
  rule('fa.status.present', FA, '2.1', 'documented', 'status is present at the top level or inside fiat_network_instructions'),
  rule('fa.timestamps.rfc3339', FA, '2', 'documented', 'created_at and updated_at are RFC 3339 timestamps with an offset'),
  rule('fa.metadata.max-pairs-accepted', FA, '8', 'documented', 'Metadata with exactly 6 pairs is accepted', { sometimes: true, needsFreshKeys: true }),
  rule('fa.metadata.over-pairs-rejected', FA, '8', 'documented', 'Metadata with 7 or more pairs is rejected', { sometimes: true }),
  rule('fa.metadata.max-length-accepted', FA, '8', 'documented', 'Metadata keys and values of 100 characters (ASCII, multi-byte, astral) are accepted', {
    needsFreshKeys: true,
  }),
  rule('fa.metadata.over-length-rejected', FA, '8', 'documented', 'Metadata keys or values of 101 characters are rejected'),
  rule('fa.response.metadata-limits', FA, '8', 'documented', 'Response metadata holds at most 6 pairs of at most 100 characters', { sometimes: true }),
  // Types alone do not say how a wrong type is answered (section 7 shows no error): ordinary practice refuses it.
  rule('fa.wrong-types-rejected', FA, '4.1', 'convention', 'A request whose fields have the wrong JSON type is not accepted'),
  rule('fa.content-type', FA, '4', 'documented', 'Successful responses are JSON with Content-Type application/json'),
  rule('fa.response.id-matches-path', FA, '4.1', 'convention', 'The response id equals the id in the path'),
  rule('fa.update-reflected', FA, '4.1', 'convention', 'The response reflects the update (owner names, metadata)', { sometimes: true, needsFreshKeys: true }),
  rule('fa.updated-after-created', FA, '2.1', 'convention', 'updated_at is not before created_at'),
  rule('fa.unknown-id-404', FA, '4.1', 'convention', 'An unknown fiat account id gives 404'),
  rule('fa.malformed-id-4xx', FA, '4.1', 'convention', 'A malformed fiat account id gives a 4xx'),
  rule('fa.rejection-4xx', FA, '7', 'convention', 'An invalid update is rejected with a 4xx'),
  rule('fa.no-5xx', FA, '7', 'convention', 'No generated input, malformed JSON or wrong type yields a 5xx'),
  rule('fa.answers', FA, '1', 'convention', 'Every request gets an HTTP answer in time (no dropped connection, no timeout, no endless 429)'),
  rule('fa.auth-401', FA, '5', 'convention', 'A request without Authorization or with a wrong token gets 401 (RFC 6750 section 3 and 3.1)'),
  rule('fa.sequence.timestamps', FA, '2.1', 'documented', 'Across updates created_at stays one instant and updated_at moves forward, never back'),
  rule('fa.sequence.persisted', FA, '4.1', 'documented', 'What an update stored shows in the next answers about the account (replace and merge)'),
  rule('fa.sequence.isolation', FA, '4.1', 'documented', 'An update of one fiat account changes no other account'),
  // The document describes no error (section 7), so not what a refusal leaves behind: RFC 9110 sections 15.5.1 and
  // 15.5.21 (400, 422: the server cannot or will not process the request) make a refused update one that wrote nothing.
  rule('fa.refused-update.writes-nothing', FA, '8', 'convention', 'An update refused for a documented limit writes none of its body (RFC 9110 section 15.5)'),
  rule(
    'fa.updated-at.moves',
    FA,
    '2.1',
    'documented',
    "An update that changed a stored value carries updated_at no earlier than the request, by the target's Date header",
  ),

  // Create an identity (POST /v2/identity/identities)
  rule('id.valid-accepted', ID, '4.2', 'documented', 'A valid create request is accepted (2xx)'),
  rule('id.response.schema', ID, '2.5', 'documented', 'The response matches Identity'),
  rule('id.response.id', ID, '2.5', 'documented', 'The response carries an id'),
  rule('id.enums', ID, '2.5', 'documented', 'status, status_details, type and summary_tin_verification_status hold allowed values'),
  rule('id.booleans', ID, '2.5', 'documented', 'user_disabled, admin_disabled, tax_details_not_required and is_merchant are booleans'),
  rule('id.timestamps.rfc3339', ID, '2.5', 'documented', 'created_at, updated_at and the other timestamps are RFC 3339 with an offset'),
  rule('id.tax.absent-rejected', ID, '4.2', 'documented', 'tax_details absent with tax_details_not_required absent is rejected'),
  rule('id.tax.absent-false-rejected', ID, '4.2', 'documented', 'tax_details absent with tax_details_not_required false is rejected'),
  rule('id.tax.not-required-accepted', ID, '4.2', 'documented', 'tax_details absent with tax_details_not_required true is accepted'),
  rule('id.ref-id.sequential-duplicate', ID, '8', 'documented', 'A used ref_id never yields a second identity (sequential)'),
  rule('id.ref-id.concurrent-duplicate', ID, '8', 'documented', 'Concurrent duplicates of a ref_id yield one identity'),
  rule('id.distinct-identities', ID, '4.2', 'documented', 'Creates with different ref_ids yield different identities'),
  rule('id.dob.midnight-utc', ID, '2.6', 'documented', 'date_of_birth comes back as midnight UTC of the same day', { sometimes: true }),
  rule('id.govt-id.mirrors-cip', ID, '2.6', 'documented', 'govt_id and govt_id_type equal cip_id and cip_id_type', { sometimes: true }),
  rule('id.person-details.returned', ID, '2.6', 'documented', 'person_details sent are returned'),
  rule('id.is-merchant.returned', ID, '2.5', 'documented', 'is_merchant true comes back true', { sometimes: true }),
  rule('id.initial-statuses', ID, '4.2', 'documented', 'Created identities start with pending statuses as the sample shows'),
  rule('id.wrong-types-rejected', ID, '4.2', 'convention', 'A request whose fields have the wrong JSON type is not accepted'),
  rule('id.content-type', ID, '4', 'documented', 'Successful responses are JSON with Content-Type application/json'),
  rule('id.type-person', ID, '2.5', 'convention', 'An identity created with person_details has type PERSON'),
  rule('id.dob.invalid-rejected', ID, '2.6', 'convention', 'An invalid date_of_birth is rejected'),
  rule('id.rejection-4xx', ID, '7', 'convention', 'An invalid create is rejected with a 4xx'),
  rule('id.no-5xx', ID, '7', 'convention', 'No generated input, malformed JSON or wrong type yields a 5xx'),
  rule('id.answers', ID, '1', 'convention', 'Every request gets an HTTP answer in time (no dropped connection, no timeout, no endless 429)'),
  rule('id.auth-401', ID, '5', 'convention', 'A request without Authorization or with a wrong token gets 401 (RFC 6750 section 3 and 3.1)'),
  rule(
    'id.ref-id.across-tokens',
    ID,
    '8',
    'documented',
    'A used ref_id never yields a second identity when repeated on a renewed access token (section 5: one API user)',
  ),
  // Documented: a valid create is accepted (4.2), and the one refusal a ref_id earns is a used one, "unique among
  // identities created" (8); a refused create created none, so its ref_id is free.
  rule('id.refused-create.ref-id-free', ID, '8', 'documented', 'A refused create leaves its ref_id free: a valid create with it is accepted'),

  // HTTP around the two operations (docs/design.md section 2): conventions, each on cases of its own
  rule('fa.other-methods-refused', FA, '4.1', 'convention', 'Another method on the fiat account path is refused with a 4xx (GET and OPTIONS: never a 5xx)'),
  rule('id.other-methods-refused', ID, '4.2', 'convention', 'Another method on the identities path is refused with a 4xx (GET and OPTIONS: never a 5xx)'),
  rule('fa.empty-body', FA, '4', 'convention', 'An empty or missing update body gets a 4xx or is taken as {}, never a 5xx'),
  rule('id.empty-body', ID, '4.2', 'convention', 'An empty or missing create body is rejected with a 4xx (taken as {}, it lacks tax_details)'),
  rule('fa.auth-challenge', FA, '5', 'convention', 'A 401 carries a WWW-Authenticate challenge of the Bearer scheme (RFC 6750 section 3)'),
  rule('id.auth-challenge', ID, '5', 'convention', 'A 401 carries a WWW-Authenticate challenge of the Bearer scheme (RFC 6750 section 3)'),
] as const satisfies readonly RuleDefinition[];

export type RuleId = (typeof RULES)[number]['id'];

const byId = new Map<string, RuleDefinition>(RULES.map((r) => [r.id, r]));

/** The rule with this id; throws for an unknown id (a programming error, not user input). */
export function getRule(id: string): RuleDefinition {
  const found = byId.get(id);
  if (!found) throw new Error(`unknown rule id: ${id}`);
  return found;
}

export function isRuleId(id: string): id is RuleId {
  return byId.has(id);
}
