/**
 * Requests that break the document's types (an object where a string is typed, a string where a
 * boolean is, ...) and bodies that are not JSON objects at all. Each wrong type is applied to an
 * otherwise valid body, so a rejection can only be about that one field.
 */
import fc from 'fast-check';
import type { RuleId } from '../../core/catalogue.ts';
import type { TestCase } from '../../core/case.ts';
import type { CaseFamily } from './family.ts';
import { isObject } from '../checks/exchange-facts.ts';
import { withControl } from './twins.ts';

type Body = Record<string, unknown>;

/** One field set to a value of the wrong JSON type; `also` keeps the rest of the body valid. */
export interface WrongType {
  path: string[];
  value: unknown;
  also?: Body;
}

const typeName = (value: unknown) =>
  Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;

export const describeWrongType = (w: WrongType) => `${w.path.join('.')} as ${typeName(w.value)}`;

/** A copy of `body` with `value` at `path`, creating the objects on the way. */
export function withValueAt(body: Body, path: string[], value: unknown): Body {
  const [head, ...rest] = path;
  if (!rest.length) return { ...body, [head]: value };
  const child = isObject(body[head]) ? (body[head] as Body) : {};
  return { ...body, [head]: withValueAt(child, rest, value) };
}

const apply = (body: Body, w: WrongType): Body => withValueAt({ ...body, ...w.also }, w.path, w.value);

/** The valid body the wrong type was applied to (with `also`): the case's valid twin. */
const base = (body: Body, w: WrongType): Body => ({ ...body, ...w.also });

/**
 * Examples: each wrong type of `examples` on `minimal`; random cases: a random wrong type of
 * `examples` and `randomOnly` on a random valid body. Every case carries its valid twin.
 */
export function wrongTypeFamily(
  rule: RuleId,
  minimal: Body,
  validBody: fc.Arbitrary<Body>,
  examples: WrongType[],
  make: (label: string, body: Body) => TestCase,
  randomOnly: WrongType[] = [],
): CaseFamily {
  const caseOf = (label: string, body: Body, w: WrongType) => withControl(make(label, apply(body, w)), base(body, w));
  return {
    rule,
    examples: examples.map((w) => caseOf(describeWrongType(w), minimal, w)),
    arbitrary: fc
      .tuple(validBody, fc.constantFrom(...examples, ...randomOnly))
      .map(([body, w]) => caseOf(`random valid body with ${describeWrongType(w)}`, body, w)),
  };
}

/** Bodies that are not a JSON object: malformed JSON text, and JSON values of another kind. */
const MALFORMED_BODIES: { label: string; rawBody: string }[] = [
  { label: 'malformed JSON: an unclosed object', rawBody: '{' },
  { label: 'malformed JSON: a missing value', rawBody: '{"metadata": }' },
  { label: 'malformed JSON: plain text', rawBody: 'not json' },
  { label: 'malformed JSON: trailing garbage', rawBody: '{"a":"b"}}' },
  { label: 'a JSON array as the body', rawBody: '[]' },
  { label: 'a JSON string as the body', rawBody: '"text"' },
  { label: 'JSON null as the body', rawBody: 'null' },
];

/** Each malformed body, with `twinBody` (a minimal valid body of the operation) as its twin. */
export const malformedBodyFamily = (
  rule: RuleId,
  make: (label: string, mode: 'invalid', body: undefined, rule: RuleId, extra: Partial<TestCase>) => TestCase,
  twinBody: Body,
): CaseFamily => ({
  rule,
  examples: MALFORMED_BODIES.map(({ label, rawBody }) => withControl(make(label, 'invalid', undefined, rule, { rawBody }), structuredClone(twinBody))),
});
