/**
 * The schemas of schemas/ as the named parts of one document: what an OpenAPI `components.schemas`
 * and the generated TypeScript types are both built from. Each file becomes one component named
 * after it (`fiat-account` -> `FiatAccount`), without `$schema` and `$id`, and every `$ref` is
 * rewritten to point inside the one document: to another component (`address.schema.json` ->
 * `${refBase}Address`) or into the component's own `$defs` (`#/$defs/status` ->
 * `${refBase}FiatAccount/$defs/status`). Nothing else changes: limits, combinators and the
 * `x-section`/`x-rule` annotations stay as the files say.
 */
import type { SchemaRegistry } from './registry.ts';

type Json = Record<string, unknown>;

/** The component name of a schema file name: `update-fiat-account-request` -> `UpdateFiatAccountRequest`. */
export function componentName(schemaName: string): string {
  return schemaName
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join('');
}

/** Every `$ref` value in a schema, in document order. */
export function refsOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsOf);
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => (key === '$ref' && typeof inner === 'string' ? [inner] : refsOf(inner)));
}

/** Registry names by `$id`, the form in which one file refers to another. */
function namesById(registry: Pick<SchemaRegistry, 'names' | 'schema'>): Map<string, string> {
  return new Map(registry.names().map((name) => [String(registry.schema(name).$id ?? `${name}.schema.json`), name]));
}

/** The schemas `roots` refer to, directly or not, roots first, then in the order they are met. */
export function reachableSchemas(registry: Pick<SchemaRegistry, 'names' | 'schema'>, roots: readonly string[]): string[] {
  const byId = namesById(registry);
  const seen: string[] = [];
  const visit = (name: string): void => {
    if (seen.includes(name)) return;
    seen.push(name);
    for (const ref of refsOf(registry.schema(name))) {
      const file = ref.split('#')[0];
      if (!file) continue;
      const target = byId.get(file);
      if (!target) throw new Error(`schema ${name} refers to ${ref}, which is no schema of the registry`);
      visit(target);
    }
  };
  for (const root of roots) visit(root);
  // Roots first, as given; the rest in the order met.
  return [...roots, ...seen.filter((name) => !roots.includes(name))];
}

/** A deep copy of a schema with its references rewritten by `rewrite`. */
function rewriteRefs(value: unknown, rewrite: (ref: string) => string): unknown {
  if (Array.isArray(value)) return value.map((inner) => rewriteRefs(inner, rewrite));
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, key === '$ref' && typeof inner === 'string' ? rewrite(inner) : rewriteRefs(inner, rewrite)]),
  );
}

/**
 * The schemas reachable from `roots` as components of one document, keyed by component name (in
 * the order of {@link reachableSchemas}); `refBase` is where the components sit in it, e.g.
 * `#/components/schemas/` or `#/$defs/`.
 */
export function bundleSchemas(registry: Pick<SchemaRegistry, 'names' | 'schema'>, roots: readonly string[], refBase: string): Record<string, Json> {
  const byId = namesById(registry);
  const components: Record<string, Json> = {};
  for (const name of reachableSchemas(registry, roots)) {
    const own = componentName(name);
    const { $schema: _dialect, $id: _id, ...schema } = registry.schema(name);
    components[own] = rewriteRefs(schema, (ref) => {
      const [file, fragment = ''] = ref.split('#');
      // reachableSchemas has already refused a file that is no schema of the registry.
      const target = file ? componentName(byId.get(file)!) : own;
      return `${refBase}${target}${fragment}`;
    }) as Json;
  }
  return components;
}
