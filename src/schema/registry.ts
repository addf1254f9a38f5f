/**
 * The one validation registry: a single Ajv 2020-12 instance over every schema of `schemas/`.
 * Generators, checks, the embedded server and the CLI all look schemas up here by name (the file
 * name without `.schema.json`). Validation errors come back as data.
 *
 * Ajv is loaded on the first validation and each schema is compiled on its first use: listing or
 * reading schemas (`conformance validate --list`) costs no compilation, and start-up stays short.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';

type AddFormats = (ajv: Ajv2020, formats: string[]) => Ajv2020;
// ajv and ajv-formats ship CommonJS: require() loads them synchronously, at the first validation.
const require = createRequire(import.meta.url);

export const SCHEMA_DIR = fileURLToPath(new URL('../../schemas/', import.meta.url));
const SUFFIX = '.schema.json';

/**
 * One validation error, as data. `section` is the document section of the failing keyword's
 * schema, when known; `rule` is the catalogue rule that owns the error, when that schema names one.
 */
export interface SchemaError {
  instancePath: string;
  keyword: string;
  message: string;
  section?: string;
  rule?: string;
  params?: Record<string, unknown>;
  /** The value that failed the keyword. */
  data?: unknown;
  /** Where the failing keyword sits in the schema (ajv's schemaPath): which branch of a combinator an error came from. */
  schemaPath?: string;
  /** For a failed anyOf or oneOf: the schema path each branch's errors start with, in order (applicable-branch.ts). */
  branches?: string[];
}

export interface SchemaRegistry {
  names(): string[];
  has(name: string): boolean;
  /** The raw schema document, for generators that read constraints from it. */
  schema(name: string): Record<string, unknown>;
  /** Validates and returns the errors; an empty array means valid. Throws only for an unknown name. */
  validate(name: string, data: unknown): SchemaError[];
  /** sha256 over every schema file, so a report says which schemas judged it. */
  readonly hash: string;
}

// With verbose: true, parentSchema is the subschema holding the failing keyword: its annotations
// say where the error comes from (x-section) and which rule owns it (x-rule).
const COMBINATORS = new Set(['anyOf', 'oneOf']);

function toError(e: ErrorObject): SchemaError {
  const schema = e.parentSchema as Record<string, unknown> | undefined;
  const section = schema?.['x-section'];
  const rule = schema?.['x-rule'];
  return {
    instancePath: e.instancePath,
    keyword: e.keyword,
    // A failed anyOf says only "must match a schema in anyOf": its description says what was wanted.
    message: COMBINATORS.has(e.keyword) && typeof schema?.description === 'string' ? schema.description : (e.message ?? e.keyword),
    ...(typeof section === 'string' ? { section } : {}),
    ...(typeof rule === 'string' ? { rule } : {}),
    params: e.params as Record<string, unknown>,
    // verbose: the value that failed, so a finding can say what came back.
    ...(e.data !== undefined ? { data: e.data } : {}),
    schemaPath: e.schemaPath,
    ...(COMBINATORS.has(e.keyword) && Array.isArray(e.schema) ? { branches: branchPaths(e.schemaPath, e.schema) } : {}),
  };
}

/** A branch reached through $ref reports its errors at the referenced schema's path, an inline one under the combinator's. */
const branchPaths = (combinatorPath: string, branches: unknown[]): string[] =>
  branches.map((b, i) => {
    const ref = (b as { $ref?: unknown } | null)?.$ref;
    return typeof ref === 'string' && ref.startsWith('#') ? ref : `${combinatorPath}/${i}`;
  });

/** Ajv with the formats and annotations of our schemas, every document added (none compiled yet). */
function createAjv(documents: Iterable<Record<string, unknown>>): Ajv2020 {
  const { Ajv2020: Ajv } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const addFormats = require('ajv-formats') as AddFormats;
  // Union types: a response metadata value is a string or an integer, and only strings have a
  // length limit; one `type` keeps a wrong type apart from an exceeded limit.
  const ajv = new Ajv({ allErrors: true, strict: true, verbose: true, allowUnionTypes: true });
  // Only formats the document states (UUID, date, date-time) and uri for the report's own schema:
  // it shows no email format, so a schema that asks for one fails to compile.
  addFormats(ajv, ['date-time', 'date', 'uuid', 'uri']);
  // Annotations only (they never change validity): the section of the API document a subschema
  // comes from, and the rule of the catalogue that owns the errors of a response subschema.
  ajv.addKeyword({ keyword: 'x-section', schemaType: 'string' });
  ajv.addKeyword({ keyword: 'x-rule', schemaType: 'string' });
  // addSchema checks each document against the 2020-12 meta-schema; getSchema compiles on demand.
  for (const doc of documents) ajv.addSchema(doc);
  return ajv;
}

export function createRegistry(dir: string = SCHEMA_DIR): SchemaRegistry {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(SUFFIX))
    .sort();
  const hash = createHash('sha256');
  const documents = new Map<string, Record<string, unknown>>();
  for (const file of files) {
    const text = readFileSync(path.join(dir, file), 'utf8');
    hash.update(file).update('\0').update(text);
    documents.set(file.slice(0, -SUFFIX.length), JSON.parse(text) as Record<string, unknown>);
  }
  let ajv: Ajv2020 | undefined;
  const compiled = new Map<string, ValidateFunction>();

  const lookup = (name: string): Record<string, unknown> => {
    const doc = documents.get(name);
    if (!doc) throw new Error(`unknown schema "${name}"; known: ${[...documents.keys()].join(', ')}`);
    return doc;
  };
  const validator = (name: string): ValidateFunction => {
    let fn = compiled.get(name);
    if (!fn) {
      const doc = lookup(name);
      ajv ??= createAjv(documents.values());
      fn = ajv.getSchema(String(doc.$id))!;
      compiled.set(name, fn);
    }
    return fn;
  };

  return {
    hash: hash.digest('hex'),
    names: () => [...documents.keys()],
    has: (name) => documents.has(name),
    schema: lookup,
    validate(name, data) {
      const fn = validator(name);
      return fn(data) ? [] : (fn.errors ?? []).map(toError);
    },
  };
}

let shared: SchemaRegistry | undefined;
/** The process-wide registry, read on first use (its schemas compile when first validated against). */
export function registry(): SchemaRegistry {
  shared ??= createRegistry();
  return shared;
}
