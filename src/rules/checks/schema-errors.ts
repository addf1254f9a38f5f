/**
 * The schema errors of a success response, split by rule so that one defect fails one rule: an
 * error whose failing subschema carries `x-rule` belongs to that rule (a lowercase status fails
 * the enum rule), and the response-schema rule takes the errors that carry none.
 */
import type { Check, CheckReads, Problem } from '../check.ts';
import type { ProblemParams } from '../problem-kinds.ts';
import { pass } from '../check.ts';
import type { Operation, RuleId } from '../../core/catalogue.ts';
import { OPERATIONS } from '../../core/operations.ts';
import { registry, type SchemaError } from '../../schema/registry.ts';
import { formatSchemaError } from '../../schema/format-error.ts';
import { dig, isObject, isOperation, requestBody, successBody, unreadableBody } from './exchange-facts.ts';

/** Every check of an exchange reads the same body: validate it once, not once per tagged rule. */
const validated = new WeakMap<object, SchemaError[]>();

/** The errors of the operation's response schema for a body. */
export function responseErrors(operation: Operation, body: Record<string, unknown>): SchemaError[] {
  const known = validated.get(body);
  if (known) return known;
  const errors = registry().validate(OPERATIONS[operation].responseSchema, body);
  validated.set(body, errors);
  return errors;
}

/** For a value outside an enum: what came back and what is allowed (ajv's message says neither). */
function enumDetail(error: SchemaError): string {
  const allowed = error.params?.allowedValues;
  if (error.keyword !== 'enum' || !Array.isArray(allowed)) return '';
  return `: got ${JSON.stringify(error.data)}, allowed ${allowed.map(String).join(', ')}`;
}

/** The value that failed, when it is a scalar: an object or array would copy the body into the finding. */
const scalar = (value: unknown): { received?: unknown } => (value !== undefined && (value === null || typeof value !== 'object') ? { received: value } : {});

/** An ajv error as a finding's params: its keyword and params, the pointer, the value when a scalar. */
const schemaParams = (error: SchemaError): ProblemParams['schema'] => ({
  field: error.instancePath,
  keyword: error.keyword,
  keywordParams: error.params ?? {},
  ...scalar(error.data),
});

/** One problem per line: combinator branches and shared schemas can report one failure twice. */
function problemsOf(errors: SchemaError[]): Problem[] {
  const byLine = new Map<string, Problem>();
  // A failed anyOf first: it says what was wanted; its branches' errors follow as detail.
  const ordered = [...errors].sort((a, b) => Number(b.keyword === 'anyOf') - Number(a.keyword === 'anyOf'));
  for (const error of ordered) {
    const message = formatSchemaError(error) + enumDetail(error);
    if (!byLine.has(message)) byLine.set(message, { message, instancePath: error.instancePath, kind: 'schema', params: schemaParams(error) });
  }
  return [...byLine.values()];
}

/**
 * The response-schema rule: a success that is JSON but not an object, or errors that no rule
 * claims. A success that is not JSON at all (or unreadable) is the content-type rule's: one defect, one rule.
 */
export function schemaCheck(rule: RuleId, operation: Operation): Check {
  return {
    rule,
    reads: 'body',
    judge(e) {
      if (!isOperation(e, operation)) return null;
      if (e.testCase.mode !== 'invalid' && e.response?.json && e.response.status >= 200 && e.response.status < 300 && !unreadableBody(e)) {
        // Every other check reads an object; null or an array would leave them all silent.
        if (!isObject(e.response.body))
          return [
            {
              message: `the success response is JSON but not an object: ${e.response.rawBody.slice(0, 120)}`,
              kind: 'schema',
              params: { field: '', keyword: 'type', keywordParams: { type: 'object' }, ...scalar(e.response.body) },
            },
          ];
      }
      const body = successBody(e);
      if (!body) return null;
      const problems = problemsOf(responseErrors(operation, body).filter((error) => error.rule === undefined));
      return problems.length ? problems : pass;
    },
  };
}

/** What a rule adds to its tagged errors: null when the exchange says nothing about the rule. */
export type MoreJudge = (body: Record<string, unknown>, request: Record<string, unknown>) => Problem[] | null;

/**
 * For a rule about optional fields: a response holding none of them says nothing about it (no
 * vacuous pass). Each entry is a list of places one field may sit.
 */
export const whenAnyPresent =
  (...fields: string[][][]): MoreJudge =>
  (body) =>
    fields.some((places) => places.some((keys) => dig(body, ...keys) !== undefined)) ? pass : null;

const judgedByTagChecks = new WeakSet<Check>();

/** True for a check built by `schemaRuleCheck` (tests prove the schemas tag its rule). */
export const judgedByTag = (check: Check): boolean => judgedByTagChecks.has(check);

/**
 * A rule judged from the response-schema errors tagged with its id. `more` judges what the schema
 * cannot say; its problems stand in for tagged errors at the same path (their messages say more).
 */
export function schemaRuleCheck(rule: RuleId, operation: Operation, more?: MoreJudge, reads: CheckReads = 'body'): Check {
  const check: Check = {
    rule,
    reads,
    judge(e) {
      if (!isOperation(e, operation)) return null;
      const body = successBody(e);
      if (!body) return null;
      const extra = more ? more(body, requestBody(e)) : [];
      if (extra === null) return null;
      const covered = new Set(extra.map((p) => p.instancePath));
      const tagged = problemsOf(responseErrors(operation, body).filter((error) => error.rule === rule));
      const problems = [...extra, ...tagged.filter((p) => !covered.has(p.instancePath))];
      return problems.length ? problems : pass;
    },
  };
  judgedByTagChecks.add(check);
  return check;
}
