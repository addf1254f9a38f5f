/**
 * The values the document shows, by place in our schemas: its samples (fixtures/samples/, one per
 * request and response schema) walked along the schemas, each value recorded under every schema
 * fragment that applies to it. A shared schema shares its values: `address2: ""` of the identity's
 * address is a value of every address, the sample's ABA a routing kind of requests and responses.
 * A value the OpenAPI refuses here is one the document guarantees (or returns).
 */
import { readFileSync } from 'node:fs';
import type { SchemaRegistry } from '../registry.ts';
import { ourResolver, ourRoot } from './resolvers.ts';
import { type Fragment, flatten, propertiesOf, type SchemaView, subschemaOf, isObject } from './schema-view.ts';

const SAMPLES = new URL('../../../fixtures/samples/', import.meta.url);

/** A sample without the fields that hold one of the document's placeholders (`<passthrough_verifier_name>`): their real values are not shown. */
function readSample(name: string): unknown {
  const text = readFileSync(new URL(`${name}.json`, SAMPLES), 'utf8');
  return JSON.parse(text, (_key, value: unknown) => (typeof value === 'string' && /^<[^>]+>$/.test(value) ? undefined : value));
}

/**
 * Values the document guarantees beyond its samples (docs/design.md, the table of guaranteed
 * inputs): address lines like "1 Main Street" of up to 35 characters. A limit below them refuses
 * a guaranteed input.
 */
const READ_AS_GUARANTEED: Record<string, unknown[]> = {
  'address.schema.json#/properties/address1': ['1 Main Street, Building 12, Floor 3'],
  'address.schema.json#/properties/address2': ['1 Main Street, Building 12, Floor 3'],
};

export interface GuaranteedValues {
  /** The values shown at a node (every fragment's values, without repeats). */
  at(view: SchemaView): unknown[];
}

/** The values of the samples of `schemas` (names of our request and response schemas). */
export function guaranteedValues(registry: Pick<SchemaRegistry, 'schema' | 'has'>, schemas: readonly string[]): GuaranteedValues {
  const resolver = ourResolver(registry);
  const byPointer = new Map<string, unknown[]>(Object.entries(READ_AS_GUARANTEED));
  const record = (view: SchemaView, value: unknown) => {
    for (const f of view.fragments) byPointer.set(f.pointer, [...(byPointer.get(f.pointer) ?? []), value]);
  };
  const walk = (fragments: Fragment[], value: unknown) => {
    const view = flatten(fragments, resolver);
    record(view, value);
    if (Array.isArray(value)) {
      const items = subschemaOf(view, 'items');
      if (items) for (const entry of value) walk(items, entry);
    } else if (isObject(value)) {
      const members = propertiesOf(view);
      const rest = subschemaOf(view, 'additionalProperties');
      for (const [key, member] of Object.entries(value)) {
        const schema = members.get(key) ?? (rest || []);
        if (schema.length) walk(schema, member);
      }
    }
  };
  for (const name of new Set(schemas)) walk([ourRoot(registry, name)], readSample(name));
  return {
    at(view: SchemaView): unknown[] {
      const values = view.fragments.flatMap((f) => byPointer.get(f.pointer) ?? []);
      return [...new Map(values.map((v) => [JSON.stringify(v), v])).values()];
    },
  };
}
