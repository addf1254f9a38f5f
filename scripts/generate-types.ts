/**
 * `npm run generate-types`: writes src/schema/api-types.ts, the TypeScript types of the request
 * and response bodies, generated from schemas/ with json-schema-to-typescript. The schemas of the
 * two operations are bundled as in the OpenAPI export (src/schema/bundle.ts), each named after its
 * file (`fiat-account` -> `FiatAccount`), and made fit for a type generator first:
 *
 * - annotations (`x-section`, `x-rule`) go: beside a `$ref` they would make each use of a schema
 *   a type of its own (Address1, Address2, ...);
 * - a `$defs` entry is named after its schema and key (`FiatAccountStatus`), not left anonymous;
 * - keywords a type cannot express (lengths, counts, formats, patterns) stay as they are, but an
 *   `allOf` member made of nothing else is dropped: it would only widen the type to unknown.
 *
 * `npm run generate-types -- --check` writes nothing and exits 1 when the committed file differs.
 * tests/schema/api-types.test.ts runs the same comparison.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compile, type JSONSchema } from 'json-schema-to-typescript';
import { OPERATIONS, OPERATION_IDS } from '../src/core/operations.ts';
import { bundleSchemas, componentName } from '../src/schema/bundle.ts';
import { registry } from '../src/schema/registry.ts';

type Json = Record<string, unknown>;

export const TYPES_FILE = fileURLToPath(new URL('../src/schema/api-types.ts', import.meta.url));
export const GENERATE_COMMAND = 'npm run generate-types';

const HEADER = `// generated from schemas/ by ${GENERATE_COMMAND}; do not edit.
// The request and response bodies of the API document's two operations (see OperationBodies).`;

const ROOT_NAME = 'OperationBodies';
const DEFS = '#/$defs/';

/** Keywords that constrain values but not their TypeScript type. */
const TYPE_NEUTRAL = new Set([
  'maxProperties',
  'minProperties',
  'propertyNames',
  'maxLength',
  'minLength',
  'pattern',
  'format',
  'description',
  'title',
  'maxItems',
  'minItems',
]);
const typeNeutral = (schema: unknown): boolean =>
  Boolean(schema) && typeof schema === 'object' && !Array.isArray(schema) && Object.keys(schema as Json).every((key) => TYPE_NEUTRAL.has(key));

/** A deep copy without annotations (x-*) and without allOf members that say nothing about types. */
function forTypes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(forTypes);
  if (!value || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key.startsWith('x-')) continue;
    if (key === 'allOf' && Array.isArray(inner)) {
      const kept = inner.map(forTypes).filter((member) => !typeNeutral(member));
      if (kept.length) out.allOf = kept;
      continue;
    }
    out[key] = forTypes(inner);
  }
  return out;
}

/** `identity` + `identity-status` -> `IdentityStatus`; `fiat-account` + `status` -> `FiatAccountStatus`. */
function defName(component: string, key: string): string {
  const own = componentName(key);
  return own.startsWith(component) ? own : `${component}${own}`;
}

/** The one schema the generator compiles: the operations' bodies by operationId, every component in $defs. */
export function typesSchema(): Json {
  const roots = OPERATION_IDS.flatMap((op) => [OPERATIONS[op].requestSchema, OPERATIONS[op].responseSchema]);
  const $defs: Json = {};
  for (const [name, component] of Object.entries(bundleSchemas(registry(), roots, DEFS))) {
    const schema = forTypes(component) as Json;
    // The file's title is prose: it opens the description, and the component's name names the type.
    if (typeof schema.title === 'string') schema.description = [schema.title, schema.description].filter(Boolean).join('. ');
    schema.title = name;
    for (const [key, def] of Object.entries((schema.$defs ?? {}) as Record<string, Json>)) def.title = defName(name, key);
    $defs[name] = schema;
  }
  const body = (schema: string) => ({ $ref: `${DEFS}${componentName(schema)}` });
  return {
    title: ROOT_NAME,
    description: 'The request and response body of each operation, by operationId (the OpenAPI export uses the same ids).',
    type: 'object',
    additionalProperties: false,
    required: [...OPERATION_IDS],
    properties: Object.fromEntries(
      OPERATION_IDS.map((op) => [
        op,
        {
          type: 'object',
          additionalProperties: false,
          required: ['request', 'response'],
          properties: { request: body(OPERATIONS[op].requestSchema), response: body(OPERATIONS[op].responseSchema) },
        },
      ]),
    ),
    $defs,
  };
}

/** The text of src/schema/api-types.ts as the schemas make it now. */
export async function generateTypes(): Promise<string> {
  return compile(typesSchema() as JSONSchema, ROOT_NAME, {
    bannerComment: HEADER,
    // Every $ref points inside the one schema: nothing to read from disk.
    cwd: path.dirname(TYPES_FILE),
    unknownAny: true,
    additionalProperties: true,
    strictIndexSignatures: false,
    format: true,
  });
}

/** The committed file, or '' when there is none. */
export function committedTypes(): string {
  try {
    return readFileSync(TYPES_FILE, 'utf8');
  } catch {
    return '';
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const text = await generateTypes();
  const relative = path.relative(process.cwd(), TYPES_FILE);
  if (process.argv.includes('--check')) {
    const same = committedTypes() === text;
    console.log(same ? `${relative} is up to date` : `${relative} differs from what schemas/ generate: run ${GENERATE_COMMAND} and commit it`);
    process.exitCode = same ? 0 : 1;
  } else {
    writeFileSync(TYPES_FILE, text);
    console.log(`wrote ${relative}`);
  }
}
