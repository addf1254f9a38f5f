/**
 * The one validation registry: a single Ajv 2020-12 instance that compiles every schema of
 * `schemas/` once. Generators, checks, the embedded server and the CLI all look schemas up here
 * by name (the file name without `.schema.json`). Validation errors come back as data.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats ships CommonJS; under NodeNext its default export arrives wrapped.
type AddFormats = (ajv: Ajv2020, formats: string[]) => Ajv2020;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ??
  addFormatsModule) as unknown as AddFormats;

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
  };
}

export function createRegistry(dir: string = SCHEMA_DIR): SchemaRegistry {
  // Union types: a response metadata value is a string or an integer, and only strings have a
  // length limit; one `type` keeps a wrong type apart from an exceeded limit.
  const ajv = new Ajv2020({ allErrors: true, strict: true, verbose: true, allowUnionTypes: true });
  addFormats(ajv, ['date-time', 'date', 'uuid', 'email', 'uri']);
  // Annotations only (they never change validity): the section of the API document a subschema
  // comes from, and the rule of the catalogue that owns the errors of a response subschema.
  ajv.addKeyword({ keyword: 'x-section', schemaType: 'string' });
  ajv.addKeyword({ keyword: 'x-rule', schemaType: 'string' });

  const files = readdirSync(dir).filter((f) => f.endsWith(SUFFIX)).sort();
  const hash = createHash('sha256');
  const documents = new Map<string, Record<string, unknown>>();
  for (const file of files) {
    const text = readFileSync(path.join(dir, file), 'utf8');
    hash.update(file).update('\0').update(text);
    const doc = JSON.parse(text) as Record<string, unknown>;
    documents.set(file.slice(0, -SUFFIX.length), doc);
    ajv.addSchema(doc);
  }
  const compiled = new Map<string, ValidateFunction>();
  for (const [name, doc] of documents) compiled.set(name, ajv.getSchema(String(doc.$id))!);

  const lookup = (name: string): ValidateFunction => {
    const fn = compiled.get(name);
    if (!fn) throw new Error(`unknown schema "${name}"; known: ${[...compiled.keys()].join(', ')}`);
    return fn;
  };

  return {
    hash: hash.digest('hex'),
    names: () => [...compiled.keys()],
    has: (name) => compiled.has(name),
    schema: (name) => {
      lookup(name);
      return documents.get(name)!;
    },
    validate(name, data) {
      const fn = lookup(name);
      return fn(data) ? [] : (fn.errors ?? []).map(toError);
    },
  };
}

let shared: SchemaRegistry | undefined;
/** The process-wide registry, compiled on first use. */
export function registry(): SchemaRegistry {
  shared ??= createRegistry();
  return shared;
}
