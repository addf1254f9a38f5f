/** Checks of the FiatAccount returned by a successful update (sections 2.1, 2.2, 8). */
import type { Check, Problem } from '../check.ts';
import { pass, problem } from '../check.ts';
import type { RuleId } from '../../core/catalogue.ts';
import { codePoints, dig, isObject, isRfc3339, requestBody, sameText, successBody } from './exchange-facts.ts';
import { schemaCheck } from './schema-errors.ts';

const FIAT_STATUSES = ['PENDING', 'APPROVED', 'REJECTED'];

/** Where the document allows status and metadata to sit (2.1 shape note). */
const PLACEMENTS: string[][] = [[], ['fiat_network_instructions'], ['fiat_account_owner', 'fiat_network_instructions']];

/** The values of `key` in every placement the document allows, with their JSON pointers. */
export function placed(body: Record<string, unknown>, key: string): { path: string; value: unknown }[] {
  return PLACEMENTS.map((prefix) => ({ path: '/' + [...prefix, key].join('/'), value: dig(body, ...prefix, key) })).filter(
    (p) => p.value !== undefined,
  );
}

function onUpdate(rule: RuleId, judge: (body: Record<string, unknown>, request: Record<string, unknown>, pathId?: string) => Problem[] | null): Check {
  return {
    rule,
    judge(e) {
      if (e.testCase.operation !== 'updateFiatAccount') return null;
      const body = successBody(e);
      return body ? judge(body, requestBody(e), e.testCase.fiatAccountId) : null;
    },
  };
}

const TIMESTAMPS = ['created_at', 'updated_at'];

export const fiatAccountChecks: Check[] = [
  schemaCheck('fa.response.schema', 'updateFiatAccount', 'fiat-account', [
    /\/status\|/, // status values: fa.status.enum
    /^\|(required|anyOf)\|/, // root-level required/anyOf: fa.response.required and fa.status.present
    /^\/(created_at|updated_at)\|/, // timestamps: fa.timestamps.rfc3339
    /\/metadata(\/|\|)/, // metadata limits: fa.response.metadata-limits
    /^\/fiat_account_owner(\/fiat_network_instructions)?\|(required|anyOf)\|/,
  ]),
  onUpdate('fa.response.required', (body) => {
    const missing = ['id', 'created_at'].filter((k) => body[k] === undefined);
    if (dig(body, 'fiat_network_instructions') === undefined && dig(body, 'fiat_account_owner', 'fiat_network_instructions') === undefined) {
      missing.push('fiat_network_instructions (top level or in fiat_account_owner)');
    }
    return missing.length ? problem(`required field(s) missing: ${missing.join(', ')}`) : pass;
  }),
  onUpdate('fa.status.present', (body) =>
    placed(body, 'status').length ? pass : problem('status is neither at the top level nor inside fiat_network_instructions'),
  ),
  onUpdate('fa.status.enum', (body) =>
    placed(body, 'status').flatMap(({ path, value }) =>
      FIAT_STATUSES.includes(value as string) ? [] : problem(`${path} is ${JSON.stringify(value)}, not one of ${FIAT_STATUSES.join(', ')}`, path),
    ),
  ),
  onUpdate('fa.timestamps.rfc3339', (body) =>
    TIMESTAMPS.filter((k) => body[k] !== undefined && !isRfc3339(body[k])).flatMap((k) =>
      problem(`/${k} is ${JSON.stringify(body[k])}, not an RFC 3339 timestamp with an offset`, `/${k}`),
    ),
  ),
  onUpdate('fa.response.metadata-limits', (body) =>
    placed(body, 'metadata').flatMap(({ path, value }) => metadataLimitProblems(path, value)),
  ),
  onUpdate('fa.response.id-matches-path', (body, _request, pathId) =>
    body.id === undefined || body.id === pathId ? pass : problem(`response id ${JSON.stringify(body.id)} differs from the path id ${pathId}`, '/id'),
  ),
  onUpdate('fa.update-reflected', (body, request) => reflectionProblems(body, request)),
  onUpdate('fa.updated-after-created', (body) => {
    const created = Date.parse(String(body.created_at));
    const updated = Date.parse(String(body.updated_at));
    if (Number.isNaN(created) || Number.isNaN(updated)) return pass;
    return updated >= created ? pass : problem(`updated_at ${String(body.updated_at)} is before created_at ${String(body.created_at)}`, '/updated_at');
  }),
];

function metadataLimitProblems(path: string, metadata: unknown): Problem[] {
  if (!isObject(metadata)) return [];
  const entries = Object.entries(metadata);
  const problems: Problem[] = [];
  if (entries.length > 6) problems.push({ message: `${path} holds ${entries.length} pairs (at most 6)`, instancePath: path });
  for (const [key, value] of entries) {
    if (codePoints(key) > 100) problems.push({ message: `${path} key of ${codePoints(key)} characters (at most 100)`, instancePath: path });
    if (typeof value === 'string' && codePoints(value) > 100) {
      problems.push({ message: `${path}/${key} value of ${codePoints(value)} characters (at most 100)`, instancePath: `${path}/${key}` });
    }
  }
  return problems;
}

/**
 * Owner names sent come back; every metadata pair sent is in the response (replace or merge).
 * An update that sends neither says nothing about the rule.
 */
function reflectionProblems(body: Record<string, unknown>, request: Record<string, unknown>): Problem[] | null {
  if (dig(request, 'fiat_account_owner', 'person_details') === undefined && request.metadata === undefined) return null;
  const problems: Problem[] = [];
  for (const name of ['first_name', 'last_name']) {
    const sent = dig(request, 'fiat_account_owner', 'person_details', name);
    if (sent === undefined) continue;
    const got = dig(body, 'fiat_account_owner', 'person_details', name);
    if (!sameText(got, sent)) problems.push({ message: `${name} sent ${JSON.stringify(sent)}, returned ${JSON.stringify(got)}`, instancePath: `/fiat_account_owner/person_details/${name}` });
  }
  const sentMetadata = request.metadata;
  if (isObject(sentMetadata)) {
    const returned = placed(body, 'metadata').map((p) => p.value).filter(isObject);
    for (const [key, value] of Object.entries(sentMetadata)) {
      if (!returned.some((m) => Object.entries(m).some(([k, v]) => sameText(k, key) && sameText(v, value)))) {
        problems.push({ message: `metadata pair ${JSON.stringify(key)} sent but not returned`, instancePath: '/metadata' });
      }
    }
  }
  return problems;
}
