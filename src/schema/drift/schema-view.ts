/**
 * A schema node seen through its `$ref`s and `allOf`s: the list of schema objects that apply at
 * one place of an instance, each with its JSON pointer. Both sides of a drift comparison read
 * nodes this way; only the resolution of a `$ref` differs (our schemas' file refs, an OpenAPI
 * document's local refs), and OpenAPI 3.0's `nullable` adds null to a node's types.
 */
export type Json = Record<string, unknown>;

/** One schema object and where it is. */
export interface Fragment {
  schema: Json;
  pointer: string;
}

/** A construct a side cannot read, with its pointer. */
export interface Unreadable {
  pointer: string;
  problem: string;
}

export interface RefResolver {
  /** The schema a `$ref` of `from` names, or why it cannot be read. */
  resolve(ref: string, from: Fragment): Fragment | Unreadable;
  /** Keywords of alternatives this side reports as unreadable (the OpenAPI's); ours are the shape note's placements. */
  readonly unreadableKeywords: readonly string[];
}

/** Every fragment that applies at a node, and what could not be read there. */
export interface SchemaView {
  fragments: Fragment[];
  unreadable: Unreadable[];
}

/** A JSON object (not an array, not null). */
export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** RFC 6901: `~` and `/` inside a pointer's segment. */
export const pointerSegment = (key: string | number): string => String(key).replace(/~/g, '~0').replace(/\//g, '~1');

export const childPointer = (pointer: string, ...keys: (string | number)[]): string => [pointer, ...keys.map(pointerSegment)].join('/');

/** Follows `$ref` and `allOf` (a `$ref` chain that comes back is read once). */
export function flatten(start: readonly Fragment[], resolver: RefResolver): SchemaView {
  const fragments: Fragment[] = [];
  const unreadable: Unreadable[] = [];
  const seen = new Set<string>();
  const visit = (f: Fragment) => {
    if (seen.has(f.pointer)) return;
    seen.add(f.pointer);
    fragments.push(f);
    for (const keyword of resolver.unreadableKeywords) {
      if (f.schema[keyword] !== undefined) unreadable.push({ pointer: childPointer(f.pointer, keyword), problem: `${keyword} is not compared` });
    }
    if (typeof f.schema.$ref === 'string') {
      const target = resolver.resolve(f.schema.$ref, f);
      if ('problem' in target) unreadable.push(target);
      else visit(target);
    }
    if (Array.isArray(f.schema.allOf)) {
      f.schema.allOf.forEach((member, i) => {
        if (isObject(member)) visit({ schema: member, pointer: childPointer(f.pointer, 'allOf', i) });
      });
    }
  };
  for (const f of start) visit(f);
  return { fragments, unreadable };
}

/** The first fragment holding `keyword`, with its value. */
export function keywordOf(view: SchemaView, keyword: string): { value: unknown; pointer: string } | undefined {
  const bound = keyword.startsWith('max') ? Math.min : keyword.startsWith('min') ? Math.max : undefined;
  let found: { value: unknown; pointer: string } | undefined;
  for (const f of view.fragments) {
    const value = f.schema[keyword];
    if (value === undefined) continue;
    // Bounds of several fragments all apply: the tightest is the node's.
    if (!found || (bound && typeof value === 'number' && bound(value, found.value as number) !== found.value)) {
      found = { value, pointer: childPointer(f.pointer, keyword) };
    }
    if (!bound) break;
  }
  return found;
}

/** The JSON types a node allows (undefined: any); `nullable: true` (OpenAPI 3.0) adds null. */
export function typesOf(view: SchemaView): Set<string> | undefined {
  let types: Set<string> | undefined;
  let nullable = false;
  for (const f of view.fragments) {
    if (f.schema.nullable === true) nullable = true;
    const t = f.schema.type;
    if (t === undefined) continue;
    const here = new Set(Array.isArray(t) ? t.map(String) : [String(t)]);
    types = types ? new Set([...types].filter((x) => here.has(x) || (x === 'integer' && here.has('number')))) : here;
  }
  if (types && nullable) types.add('null');
  return types;
}

/** The members a node lists, each with the fragments that apply to it. */
export function propertiesOf(view: SchemaView): Map<string, Fragment[]> {
  const members = new Map<string, Fragment[]>();
  for (const f of view.fragments) {
    if (!isObject(f.schema.properties)) continue;
    for (const [name, schema] of Object.entries(f.schema.properties)) {
      if (!isObject(schema)) continue;
      members.set(name, [...(members.get(name) ?? []), { schema, pointer: childPointer(f.pointer, 'properties', name) }]);
    }
  }
  return members;
}

/** The members a node requires, each with the pointer of the `required` that names it. */
export function requiredOf(view: SchemaView): Map<string, string> {
  const required = new Map<string, string>();
  for (const f of view.fragments) {
    if (!Array.isArray(f.schema.required)) continue;
    f.schema.required.forEach((name, i) => {
      if (typeof name === 'string' && !required.has(name)) required.set(name, childPointer(f.pointer, 'required', i));
    });
  }
  return required;
}

/** The fragments of a sub-schema keyword (`items`, `additionalProperties`, `propertyNames`); `false` when one forbids it. */
export function subschemaOf(view: SchemaView, keyword: string): Fragment[] | false {
  const found: Fragment[] = [];
  for (const f of view.fragments) {
    const value = f.schema[keyword];
    if (value === false) return false;
    if (isObject(value)) found.push({ schema: value, pointer: childPointer(f.pointer, keyword) });
  }
  return found;
}

/** The first `x-section` of the node (the referring member's, before its target's). */
export const sectionOf = (view: SchemaView): string | undefined =>
  view.fragments.map((f) => f.schema['x-section']).find((s): s is string => typeof s === 'string');

/** True when a fragment marks the node `readOnly` or `writeOnly` (OpenAPI: not in requests, not in responses). */
export const marked = (fragments: readonly Fragment[], keyword: 'readOnly' | 'writeOnly'): boolean => fragments.some((f) => f.schema[keyword] === true);
