/**
 * What a failure is about, for choosing the target's words on it (target-words.ts): the fields
 * and values of the case (the open point it varied, the rule its payload breaks or sits on, the
 * fields its label names) and of the rule that failed (its fields, where the failure points). On a
 * success (a 2xx that failed a rule) only the rule's fields count: words on anything else in the
 * answer are unrelated to the failure.
 */
import type { ReportFailure } from './model.ts';
import { fieldsNamedIn, ruleFields } from './rule-fields.ts';
import { dottedPath, isObject } from './word-candidates.ts';

export interface WordsFocus {
  /** Fields the words should name, dotted (`person_details.address.country`), the case's own first. */
  fields: readonly string[];
  /** Weaker hints: fields the case's label names. */
  hints?: readonly string[];
  /** Values the case sent at its fields, which a target may quote back. */
  values?: readonly string[];
  /** The request body: words naming one of its fields are more specific than words naming none. */
  request?: unknown;
  /** Quote only words that name one of `fields` (a success that failed a rule). */
  onlyConcerning?: boolean;
}

export type FocusedFailure = Pick<ReportFailure, 'message' | 'response'> & Partial<Pick<ReportFailure, 'case' | 'request' | 'instancePath'>>;

const isSuccess = (f: FocusedFailure): boolean => f.response !== undefined && f.response.status >= 200 && f.response.status < 300;

/** What a body holds at a dotted field (`tax_details[].tax_payer_id` reads every entry). */
export function nodesAt(body: unknown, field: string): unknown[] {
  let nodes: unknown[] = [body];
  for (const segment of field.split('.')) {
    const key = segment.replace(/\[\]$/, '');
    nodes = nodes.flatMap((n) => (isObject(n) && key in n ? [n[key]] : [])).flatMap((n) => (segment.endsWith('[]') && Array.isArray(n) ? n : [n]));
  }
  return nodes;
}

/** The values at a dotted field of a body, as text. */
export const valuesAt = (body: unknown, field: string): string[] =>
  nodesAt(body, field)
    .filter((v): v is string | number => typeof v === 'string' || typeof v === 'number')
    .map(String);

/** The focus of a failure of `ruleId` (the rule the failure belongs to, when known). */
export function failureFocus(failure: FocusedFailure, ruleId?: string): WordsFocus {
  const success = isSuccess(failure);
  const c = failure.case;
  const own = success ? [] : [c?.open?.field, ...[c?.violates, c?.exercises].flatMap((r) => (r ? ruleFields(r) : []))];
  const fields = [...own, failure.instancePath, ...(ruleId ? ruleFields(ruleId) : [])]
    .filter((f): f is string => typeof f === 'string' && f !== '')
    .map(dottedPath)
    .filter(Boolean);
  const body = failure.request?.body;
  const values = !success && c?.open && body !== undefined ? valuesAt(body, c.open.field) : [];
  return {
    fields: [...new Set(fields)],
    ...(success || !c ? {} : { hints: fieldsNamedIn(c.label).map(dottedPath) }),
    ...(values.length ? { values } : {}),
    ...(body !== undefined ? { request: body } : {}),
    ...(success ? { onlyConcerning: true } : {}),
  };
}
