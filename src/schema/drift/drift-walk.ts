/**
 * Walks our schema of a body and the OpenAPI's side by side, member by member (entries of arrays,
 * values and keys of maps too), and collects the differences of each node: its keywords, its
 * required members, the members one side lists and the other does not, and what the OpenAPI
 * holds that cannot be read (not compared, with its pointer).
 */
import type { Operation } from '../../core/operations.ts';
import type { DriftNode } from './drift-context.ts';
import { findingAt } from './drift-context.ts';
import type { DriftFinding } from './drift-finding.ts';
import type { GuaranteedValues } from './guaranteed-values.ts';
import { keywordDrifts } from './keyword-drift.ts';
import { requiredDrifts } from './required-drift.ts';
import { type Fragment, flatten, marked, propertiesOf, type RefResolver, type SchemaView, sectionOf, subschemaOf, isObject } from './schema-view.ts';

export interface WalkSides {
  operation: Operation;
  direction: 'request' | 'response';
  ours: RefResolver;
  theirs: RefResolver;
  shown: GuaranteedValues;
}

interface Place {
  field: string;
  ours: Fragment[];
  theirs: Fragment[];
  /** Where each side's node would be when it has none (a map without value schema). */
  oursAt?: string;
  theirsAt: string;
  /** A map's keys: JSON keys are strings, their type is no difference. */
  keys?: boolean;
  /** The enclosing node's section, for a node our schema does not state. */
  section?: string;
  /** The values shown, when not the samples' at the node (a map's keys). */
  shown?: unknown[];
}

const member = (field: string, name: string) => (field ? `${field}.${name}` : name);

/** Where a node is defined: its first fragment that is not only a reference (a component rather than the member that refers to it). */
const definition = (view: SchemaView): string | undefined =>
  (view.fragments.find((f) => typeof f.schema.$ref !== 'string' && !Array.isArray(f.schema.allOf)) ?? view.fragments[0])?.pointer;

/** The members of both sides: those both list are walked, the others are one finding per side. */
function memberDrifts(sides: WalkSides, node: DriftNode, walk: (p: Place) => void): DriftFinding[] {
  const hidden = sides.direction === 'request' ? 'readOnly' : 'writeOnly';
  const ours = propertiesOf(node.ours);
  const theirs = new Map([...propertiesOf(node.theirs)].filter(([, fragments]) => !marked(fragments, hidden)));
  const closed = subschemaOf(node.theirs, 'additionalProperties') === false;
  const findings: DriftFinding[] = [];
  const unlisted: string[] = [];
  for (const [name, fragments] of ours) {
    const other = theirs.get(name);
    if (other) walk({ field: member(node.field, name), ours: fragments, theirs: other, theirsAt: other[0].pointer });
    else if (closed) {
      const parts = { keyword: 'additionalProperties', document: `lists ${name}`, openapi: 'no other members' };
      findings.push(
        findingAt({ ...node, field: member(node.field, name) }, 'contradiction', { ...parts, reason: `refuses ${name}, a member the document lists` }),
      );
    } else unlisted.push(name);
  }
  if (unlisted.length && theirs.size) {
    const list = unlisted.join(', ');
    findings.push(
      findingAt(node, 'other', {
        keyword: 'properties',
        document: `lists ${list}`,
        openapi: `does not list ${list}`,
        reason: `does not describe ${list} (its object is open: they pass unchecked)`,
      }),
    );
  }
  const extra = [...theirs.keys()].filter((name) => !ours.has(name));
  if (extra.length && ours.size) {
    const list = extra.join(', ');
    findings.push(
      findingAt(node, 'other', {
        keyword: 'properties',
        document: `does not list ${list}`,
        openapi: `lists ${list}`,
        reason: `describes members the document does not list: ${list}`,
      }),
    );
  }
  return findings;
}

/** Entries of arrays, values and keys of maps: walked where our schema states them. */
function nestedPlaces(node: DriftNode): Place[] {
  const places: Place[] = [];
  // Our schema leads the walk: below a node it does not state, a recursive OpenAPI schema would never end.
  if (!node.ours.fragments.length) return places;
  const nested = (keyword: string, field: string, shown?: unknown[]) => {
    const ours = subschemaOf(node.ours, keyword);
    const theirs = subschemaOf(node.theirs, keyword);
    // Walked where either side states it: our limits the OpenAPI lacks, its restrictions of an open map.
    if (!ours || !theirs || (!ours.length && !theirs.length)) return;
    places.push({
      field,
      ours,
      theirs,
      section: node.section,
      oursAt: `${node.oursAt}/${keyword}`,
      theirsAt: `${node.theirsAt}/${keyword}`,
      keys: keyword === 'propertyNames',
      ...(shown ? { shown } : {}),
    });
  };
  nested('items', `${node.field}[]`);
  nested('additionalProperties', member(node.field, '*'));
  nested(
    'propertyNames',
    `${node.field} (keys)`,
    node.shown.filter(isObject).flatMap((o) => Object.keys(o)),
  );
  return places;
}

/** Every difference between our schema at `ours` and the OpenAPI's at `theirs`. */
export function walkBody(sides: WalkSides, ours: Fragment, theirs: Fragment): DriftFinding[] {
  const findings: DriftFinding[] = [];
  const walk = (place: Place) => {
    const oursView = flatten(place.ours, sides.ours);
    const theirsView = flatten(place.theirs, sides.theirs);
    const node: DriftNode = {
      operation: sides.operation,
      direction: sides.direction,
      field: place.field,
      section: sectionOf(oursView) ?? place.section,
      ours: oursView,
      theirs: theirsView,
      oursAt: definition(oursView) ?? place.oursAt ?? '',
      theirsAt: definition(theirsView) ?? place.theirsAt,
      shown: place.shown ?? sides.shown.at(oursView),
      ourResolver: sides.ours,
      theirResolver: sides.theirs,
      ...(place.keys ? { keys: true } : {}),
    };
    for (const u of theirsView.unreadable) {
      findings.push(
        findingAt(node, 'not-compared', { keyword: u.pointer.split('/').at(-1) ?? '', theirs: u.pointer, document: '', openapi: u.problem, reason: u.problem }),
      );
    }
    findings.push(...keywordDrifts(node), ...requiredDrifts(node), ...memberDrifts(sides, node, walk));
    for (const nested of nestedPlaces(node)) walk(nested);
  };
  walk({ field: '', ours: [ours], theirs: [theirs], theirsAt: theirs.pointer });
  return findings;
}
