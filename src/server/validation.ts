/**
 * Validation of request bodies: the shared schema registry judges shapes and types; the
 * document's limits and rules are also checked here by the server's own code (and told apart by
 * concern), so that a fault can bend exactly one of them.
 */
import { registry, type SchemaError } from '../schema/registry.ts';
import { OPERATIONS } from '../core/operations.ts';
import type { Concern, Operation, ServerBehaviour, Violation } from './behaviour.ts';
import { isPlainObject } from './json-body.ts';
import { isCalendarDate } from './text.ts';
import { DEFAULT_READING, type Reading } from './reading.ts';

/** Section 8: each metadata key and value at most 100 characters. */
export const MAX_METADATA_LENGTH = 100;

/** Every reason the body is refused, after the behaviour's ignored concerns are dropped. */
export function violations(operation: Operation, body: Record<string, unknown>, behaviour: ServerBehaviour, reading: Reading = DEFAULT_READING): Violation[] {
  const found = [
    ...schemaViolations(operation, body),
    ...(operation === 'updateFiatAccount' ? metadataViolations(body.metadata, behaviour) : identityRuleViolations(body, behaviour, reading)),
    ...behaviour.extraViolations(operation, body),
  ];
  // The schema and the server's own count may both report one limit at one place: say it once.
  const seen = new Set<string>();
  return found.filter((v) => {
    const key = `${v.concern}|${v.instancePath}`;
    if (behaviour.ignores(operation, v.concern) || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function schemaViolations(operation: Operation, body: Record<string, unknown>): Violation[] {
  return registry()
    .validate(OPERATIONS[operation].requestSchema, operation === 'createIdentity' ? withTaxRuleSettled(body) : body)
    .map((error) => ({ concern: concernOf(operation, error), instancePath: error.instancePath, message: error.message }));
}

/**
 * The tax rule is judged by `identityRuleViolations` alone (a fault bends it there), so the schema
 * sees a body whose missing tax_details the flag already excuses. The flag's type is kept, so a
 * wrong-typed flag is still a schema error.
 */
function withTaxRuleSettled(body: Record<string, unknown>): Record<string, unknown> {
  const flag = body.tax_details_not_required;
  if (body.tax_details !== undefined || (flag !== undefined && typeof flag !== 'boolean')) return body;
  return { ...body, tax_details_not_required: true };
}

/** Which rule a schema error stands for; everything not a documented limit is shape. */
function concernOf(operation: Operation, error: SchemaError): Concern {
  const path = error.instancePath;
  if (operation === 'updateFiatAccount' && (path === '/metadata' || path.startsWith('/metadata/'))) {
    if (error.keyword === 'maxProperties') return 'metadata-pairs';
    if (error.keyword === 'maxLength' || error.keyword === 'propertyNames') return 'metadata-length';
  }
  if (operation === 'createIdentity' && path === '/person_details/date_of_birth' && ['format', 'pattern'].includes(error.keyword)) {
    return 'date-of-birth';
  }
  // A member of a tax_details entry (its type), told apart so one fault can skip exactly these.
  if (operation === 'createIdentity' && /^\/tax_details\/\d+\/./.test(path)) return 'tax-entry-types';
  return 'shape';
}

/** Section 8, counted by the server itself: pairs, then each key and string value. */
function metadataViolations(metadata: unknown, behaviour: ServerBehaviour): Violation[] {
  if (!isPlainObject(metadata)) return [];
  const entries = Object.entries(metadata);
  const found: Violation[] = [];
  if (entries.length > behaviour.maxMetadataPairs) {
    found.push({
      concern: 'metadata-pairs',
      instancePath: '/metadata',
      message: `must have at most ${behaviour.maxMetadataPairs} pairs, has ${entries.length}`,
    });
  }
  for (const [key, value] of entries) {
    const pointer = `/metadata/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    const keyLength = behaviour.metadataLength(key);
    if (keyLength > MAX_METADATA_LENGTH) {
      found.push({ concern: 'metadata-length', instancePath: pointer, message: `key must be at most ${MAX_METADATA_LENGTH} characters, has ${keyLength}` });
    }
    const valueLength = typeof value === 'string' ? behaviour.metadataLength(value) : 0;
    if (valueLength > MAX_METADATA_LENGTH) {
      found.push({ concern: 'metadata-length', instancePath: pointer, message: `value must be at most ${MAX_METADATA_LENGTH} characters, has ${valueLength}` });
    }
  }
  return found;
}

/** Section 4.2: the tax rule; section 2.6: date_of_birth is a real calendar date. */
function identityRuleViolations(body: Record<string, unknown>, behaviour: ServerBehaviour, reading: Reading): Violation[] {
  const found: Violation[] = [];
  if (reading.taxEntryMembers === 'required' && Array.isArray(body.tax_details)) {
    body.tax_details.forEach((entry, i) => {
      if (isPlainObject(entry) && (entry.tax_payer_country === undefined || entry.tax_payer_id === undefined))
        found.push({ concern: 'tax', instancePath: `/tax_details/${i}`, message: 'a tax_details entry must have tax_payer_country and tax_payer_id' });
    });
  }
  if (body.tax_details === undefined && behaviour.taxDetailsRequired(body.tax_details_not_required, body)) {
    found.push({ concern: 'tax', instancePath: '', message: 'must have tax_details unless tax_details_not_required is true' });
  }
  const dateOfBirth = isPlainObject(body.person_details) ? body.person_details.date_of_birth : undefined;
  if (typeof dateOfBirth === 'string' && !isCalendarDate(dateOfBirth)) {
    found.push({ concern: 'date-of-birth', instancePath: '/person_details/date_of_birth', message: 'must be a real calendar date written YYYY-MM-DD' });
  }
  return found;
}
