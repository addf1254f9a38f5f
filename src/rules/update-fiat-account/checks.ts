/**
 * Checks of the FiatAccount returned by a successful update (sections 2.1, 2.2, 8). What the
 * schema states (required fields, where status sits and its values, the metadata limits) is judged
 * from its errors, tagged with their rule (x-rule in schemas/fiat-account*.schema.json); the code
 * here judges only what a schema cannot say.
 */
import type { Check, Problem } from '../check.ts';
import { pass, problem } from '../check.ts';
import type { Operation } from '../../core/catalogue.ts';
import { dig, isObject, isRfc3339, sameText, shown } from '../checks/exchange-facts.ts';
import { successCheckOf } from '../checks/success-check.ts';
import { schemaCheck, schemaRuleCheck, whenAnyPresent } from '../checks/schema-errors.ts';

const UPDATE: Operation = 'updateFiatAccount';

/** Where the document allows status and metadata to sit (2.1 shape note). */
const PLACEMENTS: string[][] = [[], ['fiat_network_instructions'], ['fiat_account_owner', 'fiat_network_instructions']];

/** Every place the document allows `key` to sit, for whenAnyPresent. */
const inPlacements = (key: string): string[][] => PLACEMENTS.map((prefix) => [...prefix, key]);

/** The values of `key` in every placement the document allows, with their JSON pointers. */
export function placed(body: Record<string, unknown>, key: string): { path: string; value: unknown }[] {
  return PLACEMENTS.map((prefix) => ({ path: '/' + [...prefix, key].join('/'), value: dig(body, ...prefix, key) })).filter((p) => p.value !== undefined);
}

/**
 * The client's metadata map in an answer: the top-level one where the answer has it (then a map
 * inside the instructions is the instructions' own, as in the document's sample, with its integer
 * counter), else the first the instructions hold.
 */
export function clientMetadata(body: Record<string, unknown>): Record<string, unknown> | undefined {
  const found = placed(body, 'metadata').find((p) => isObject(p.value));
  return found ? (found.value as Record<string, unknown>) : undefined;
}

const onUpdate = successCheckOf('updateFiatAccount');

/** A UUID's 128 bits as 32 lower-case hex digits, from the text ajv's uuid format accepts; undefined for other text. */
function uuidValue(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const m = /^(?:urn:uuid:)?([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})$/i.exec(value);
  return m ? m.slice(1).join('').toLowerCase() : undefined;
}

/**
 * The id is a UUID (2.1, 4.1): one value whatever the letter case of its hex digits (RFC 9562
 * section 4), so an id echoed in upper case is the same id. Text that is no UUID must be equal.
 */
export function sameUuid(a: unknown, b: unknown): boolean {
  const [x, y] = [uuidValue(a), uuidValue(b)];
  return x !== undefined && y !== undefined ? x === y : a === b;
}

/**
 * The timestamps the schema tags with fa.timestamps.rfc3339. Each of ajv's date-time and
 * isRfc3339 takes what the other refuses (ajv a space for the T and an offset without its colon,
 * isRfc3339 a leap second at another time than 23:59:60 UTC), so a timestamp must pass both.
 */
const TIMESTAMPS = ['created_at', 'updated_at'];

export const fiatAccountChecks: Check[] = [
  schemaCheck('fa.response.schema', UPDATE),
  schemaRuleCheck('fa.response.required', UPDATE),
  schemaRuleCheck('fa.status.present', UPDATE),
  schemaRuleCheck('fa.status.enum', UPDATE, whenAnyPresent(inPlacements('status'))),
  schemaRuleCheck('fa.timestamps.rfc3339', UPDATE, (body) => {
    if (!TIMESTAMPS.some((k) => body[k] !== undefined)) return null;
    return TIMESTAMPS.filter((k) => body[k] !== undefined && !isRfc3339(body[k])).flatMap((k) =>
      problem(
        `/${k} is ${shown(body[k])}, not an RFC 3339 timestamp with an offset`,
        { kind: 'format', params: { field: `/${k}`, format: 'rfc3339', received: body[k] } },
        `/${k}`,
      ),
    );
  }),
  schemaRuleCheck('fa.response.metadata-limits', UPDATE, whenAnyPresent(inPlacements('metadata'))),
  onUpdate('fa.response.id-matches-path', 'body-and-request', (body, _request, { fiatAccountId: pathId }) =>
    body.id === undefined
      ? null
      : sameUuid(body.id, pathId)
        ? pass
        : problem(
            `response id ${shown(body.id)} differs from the path id ${pathId}`,
            { kind: 'mismatch', params: { field: '/id', expected: pathId, received: body.id } },
            '/id',
          ),
  ),
  onUpdate('fa.update-reflected', 'body-and-request', (body, request) => reflectionProblems(body, request)),
  onUpdate('fa.updated-after-created', 'body', (body) => {
    const created = Date.parse(String(body.created_at));
    const updated = Date.parse(String(body.updated_at));
    if (Number.isNaN(created) || Number.isNaN(updated)) return null;
    return updated >= created
      ? pass
      : problem(
          `updated_at ${String(body.updated_at)} is before created_at ${String(body.created_at)}`,
          { kind: 'timestamp-order', params: { field: '/updated_at', received: String(body.updated_at), notBefore: String(body.created_at) } },
          '/updated_at',
        );
  }),
];

/**
 * Owner names sent come back; every metadata pair sent is in the response (replace or merge).
 * An update that sends neither says nothing about the rule. A null or an empty name may be
 * ignored (the field keeps its value) or, for the empty string, stored: any answer reflects it
 * (a null written comes back as a wrong type, fa.response.schema's finding).
 */
function reflectionProblems(body: Record<string, unknown>, request: Record<string, unknown>): Problem[] | null {
  if (dig(request, 'fiat_account_owner', 'person_details') === undefined && request.metadata === undefined) return null;
  const problems: Problem[] = [];
  for (const name of ['first_name', 'last_name']) {
    const sent = dig(request, 'fiat_account_owner', 'person_details', name);
    if (sent === undefined || sent === null || sent === '') continue;
    const got = dig(body, 'fiat_account_owner', 'person_details', name);
    const field = `/fiat_account_owner/person_details/${name}`;
    if (!sameText(got, sent))
      problems.push({
        message: `${name} sent ${shown(sent)}, returned ${shown(got)}`,
        instancePath: field,
        kind: 'not-reflected',
        params: { field, sent, ...(got !== undefined ? { received: got } : {}) },
      });
  }
  const sentMetadata = request.metadata;
  if (isObject(sentMetadata)) {
    const returned = placed(body, 'metadata')
      .map((p) => p.value)
      .filter(isObject);
    for (const [key, value] of Object.entries(sentMetadata)) {
      if (!returned.some((m) => Object.entries(m).some(([k, v]) => sameText(k, key) && sameText(v, value)))) {
        problems.push({
          message: `metadata pair ${JSON.stringify(key)} sent but not returned`,
          instancePath: '/metadata',
          kind: 'not-reflected',
          params: { field: '/metadata', sent: { [key]: value } },
        });
      }
    }
  }
  return problems;
}
