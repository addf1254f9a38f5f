/**
 * What a failure is about, for choosing the target's words on it (target-words.ts): the fields
 * and values of the case (the open point it varied, the rule its payload breaks or sits on, the
 * fields its label names) and of the rule that failed (its fields, where the failure points). On a
 * success (a 2xx that failed a rule) only the rule's fields count: words on anything else in the
 * answer are unrelated to the failure.
 */
import type { ReportFailure } from './model.ts';
import { fieldsNamedIn, ruleFields } from './rule-fields.ts';
import { nodesAt, type WordsFocus } from '../../core/target-reason.ts';
import { dottedPath } from '../../core/word-candidates.ts';

export type FocusedFailure = Pick<ReportFailure, 'message' | 'response'> & Partial<Pick<ReportFailure, 'case' | 'request' | 'instancePath'>>;

const TWIN_SUFFIX = '(valid twin)';

const isSuccess = (f: FocusedFailure): boolean => f.response !== undefined && f.response.status >= 200 && f.response.status < 300;

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
    // A twin's label names the field its case varied, which the twin leaves as the sample has it.
    ...(success || !c || c.label.endsWith(TWIN_SUFFIX) ? {} : { hints: fieldsNamedIn(c.label).map(dottedPath) }),
    ...(values.length ? { values } : {}),
    ...(body !== undefined ? { request: body } : {}),
    ...(success ? { onlyConcerning: true, known: failure.message } : {}),
  };
}
