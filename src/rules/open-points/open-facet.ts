/**
 * An open point of a request (docs/design.md, "guaranteed, forbidden, open"): one field, one kind
 * of value, the values that probe it, and the guaranteed value its twin holds instead. An open case
 * is a guaranteed body with one open value put in; its valid twin is the same body with the
 * guaranteed value there, so a refusal of the case with the twin accepted is about that value.
 */
import fc from 'fast-check';
import type { TestCase } from '../../core/case.ts';
import type { OpenKind } from '../../core/open-point.ts';
import type { Operation } from '../../core/operations.ts';
import { caseBuilder } from '../cases/family.ts';
import type { OpenValue } from './open-values.ts';
import { withControl } from '../cases/twins.ts';

type Path = readonly (string | number)[];
type Body = Record<string, unknown>;

export interface OpenFacet {
  /** Dotted, as reports show it: "person_details.first_name", "tax_details[].tax_payer_id". */
  field: string;
  path: Path;
  kind: OpenKind;
  /**
   * Fields that likely share their limits (every address line, every country code): what a run
   * learns of one keeps its later cases on the others inside too. The contract stays per field.
   */
  domain: string;
  values: fc.Arbitrary<OpenValue>;
  /** Sent in every run, so the random cases after them can keep inside what the target refused. */
  examples: OpenValue[];
  /** The guaranteed value the twin holds at `path`. */
  twinValue: unknown;
  /** Makes the body ready for the value (a tax entry to put a member in). */
  ready?: (body: Body) => Body;
}

/** A copy of `body` with `value` at `path`, creating the objects and arrays on the way. */
export function setAt(body: unknown, path: Path, value: unknown): Body {
  const [head, ...rest] = path;
  const container = (Array.isArray(body) ? [...body] : typeof body === 'object' && body !== null ? { ...body } : {}) as Record<string | number, unknown>;
  container[head as string] = rest.length ? setAt(container[head as string] ?? (typeof rest[0] === 'number' ? [] : {}), rest, value) : value;
  return container as Body;
}

/** The field's name as reports show it: array positions as []. */
export const fieldName = (path: Path): string =>
  path
    .map((p) => (typeof p === 'number' ? '[]' : p))
    .join('.')
    .replace(/\.\[\]/g, '[]');

/** The open case of `facet` with `value` on top of the guaranteed `base`, its twin the same body with the guaranteed value. */
export function openCase(operation: Operation, facet: OpenFacet, base: Body, { value, probe }: OpenValue, prefix = ''): TestCase {
  const ready = facet.ready ? facet.ready(base) : base;
  const label = `${prefix}${facet.field} ${probe.value} (${facet.kind}, open)`;
  const c = caseBuilder(operation)(label, 'valid', setAt(ready, facet.path, value), undefined, { open: { field: facet.field, kind: facet.kind, ...probe } });
  return withControl(c, setAt(ready, facet.path, facet.twinValue));
}

/** Random open cases: a guaranteed body and one value of one facet. */
export function openCases(operation: Operation, facets: readonly OpenFacet[], base: fc.Arbitrary<Body>): fc.Arbitrary<TestCase> {
  return fc
    .tuple(
      base,
      fc.nat({ max: facets.length - 1 }).chain((i) => facets[i].values.map((v) => [facets[i], v] as const)),
    )
    .map(([body, [facet, v]]) => openCase(operation, facet, body, v, 'random '));
}

/** The fixed open cases: every facet's examples on one guaranteed body. */
export const openExamples = (operation: Operation, facets: readonly OpenFacet[], base: Body): TestCase[] =>
  facets.flatMap((facet) => facet.examples.map((v) => openCase(operation, facet, base, v)));
