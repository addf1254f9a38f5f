/**
 * How each side of a drift comparison follows a `$ref`: our schemas refer to each other by file
 * name (`address.schema.json`, `#/$defs/status`), an OpenAPI document to its own components
 * (`#/components/schemas/MailingAddress`). A reference an OpenAPI document makes to another file
 * or to nothing is reported as not compared, with its pointer.
 */
import type { SchemaRegistry } from '../registry.ts';
import { type Fragment, isObject, type Json, type RefResolver, type Unreadable } from './schema-view.ts';

const SUFFIX = '.schema.json';

/** The value at a JSON pointer's fragment (`/a/b~1c`), or undefined. */
export function atPointer(root: unknown, fragment: string): unknown {
  if (fragment === '' || fragment === '/') return fragment === '' ? root : (root as Json)?.[''];
  let node: unknown = root;
  for (const raw of fragment.replace(/^\//, '').split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Json)[key];
  }
  return node;
}

/** Our schemas: pointers read `<file>#<pointer>`. */
export function ourResolver(registry: Pick<SchemaRegistry, 'schema' | 'has'>): RefResolver {
  return {
    unreadableKeywords: [],
    resolve(ref: string, from: Fragment): Fragment | Unreadable {
      const [file, fragment = ''] = ref.split('#');
      const target = file || from.pointer.split('#')[0];
      const name = target.endsWith(SUFFIX) ? target.slice(0, -SUFFIX.length) : target;
      if (!registry.has(name)) return { pointer: from.pointer, problem: `$ref ${ref} names no schema` };
      const schema = atPointer(registry.schema(name), fragment);
      if (!isObject(schema)) return { pointer: from.pointer, problem: `$ref ${ref} names nothing` };
      return { schema, pointer: `${target}#${fragment}` };
    },
  };
}

/** The root of one of our schemas as a fragment. */
export const ourRoot = (registry: Pick<SchemaRegistry, 'schema'>, name: string): Fragment => ({ schema: registry.schema(name), pointer: `${name}${SUFFIX}#` });

/**
 * What the comparison does not read in an OpenAPI document: alternatives and conditions (if/else:
 * required-drift.ts reads its required members), and constraints it does not weigh. Each is
 * reported as not compared, so that none is skipped silently.
 */
const NOT_READ = [
  'oneOf',
  'anyOf',
  'not',
  'then',
  'discriminator',
  'multipleOf',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'uniqueItems',
  'patternProperties',
  'dependentRequired',
  'dependentSchemas',
  'prefixItems',
  'contains',
  'unevaluatedProperties',
  'unevaluatedItems',
];

/** An OpenAPI document: local references only. */
export function openApiResolver(document: Json): RefResolver {
  return {
    unreadableKeywords: NOT_READ,
    resolve(ref: string, from: Fragment): Fragment | Unreadable {
      const problem = (why: string): Unreadable => ({ pointer: `${from.pointer}/$ref`, problem: `$ref ${ref} ${why}` });
      if (!ref.startsWith('#')) return problem('points outside the document (only local references are followed)');
      const schema = atPointer(document, ref.slice(1));
      if (!isObject(schema)) return problem('names nothing in the document');
      return { schema, pointer: ref };
    },
  };
}
