/**
 * The schema files themselves: 2020-12, named by file, cross-file refs by file name, every
 * property annotated with its document section, objects open, and the undocumented fields unlisted.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { SCHEMA_DIR, registry } from '../../src/schema/registry.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

// The report schema is the tool's own format, not the document's: it carries no sections.
const NOT_FROM_THE_DOCUMENT = new Set(['conformance-report']);
const files = readdirSync(SCHEMA_DIR)
  .filter((f) => f.endsWith('.schema.json'))
  .map((f) => f.slice(0, -'.schema.json'.length))
  .filter((name) => !NOT_FROM_THE_DOCUMENT.has(name))
  .sort();
const load = (name: string): Json => JSON.parse(readFileSync(path.join(SCHEMA_DIR, `${name}.schema.json`), 'utf8'));

/** Every subschema of a document, with its JSON pointer. */
function* subschemas(schema: unknown, pointer = ''): Generator<[string, Json]> {
  if (Array.isArray(schema)) {
    for (const [i, s] of schema.entries()) yield* subschemas(s, `${pointer}/${i}`);
    return;
  }
  if (!isObject(schema)) return;
  yield [pointer, schema];
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'enum' || key === 'const' || key === 'required') continue;
    if (key === 'properties' || key === '$defs') {
      for (const [name, s] of Object.entries(value as Json)) yield* subschemas(s, `${pointer}/${key}/${name}`);
    } else yield* subschemas(value, `${pointer}/${key}`);
  }
}

describe('schema files', () => {
  it('include every resource and request the document describes', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'address',
        'routing-details',
        'wire',
        'fiat-network-instructions',
        'fiat-account-person-details',
        'fiat-account-owner',
        'fiat-account-metadata',
        'fiat-account',
        'update-fiat-account-request',
        'tax-detail',
        'identity-person-details',
        'identity-person-details-request',
        'create-identity-request',
        'identity',
      ]),
    );
    for (const name of files) expect(registry().has(name)).toBe(true);
  });

  it.each(files)('%s: 2020-12, $id is the file name, has a title', (name) => {
    const doc = load(name);
    expect(doc.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(doc.$id).toBe(`${name}.schema.json`);
    expect(typeof doc.title).toBe('string');
  });

  it.each(files)('%s: every property and every subschema carries x-section', (name) => {
    const missing = [...subschemas(load(name))].filter(([, s]) => typeof s['x-section'] !== 'string').map(([p]) => p || '(root)');
    expect(missing).toEqual([]);
    // Properties in particular: the brief's minimum, checked on its own so a regression names it.
    for (const [pointer, s] of subschemas(load(name))) {
      if (/\/properties\/[^/]+$/.test(pointer)) expect(s['x-section'], pointer).toMatch(/^\d+(\.\d+)?$/);
    }
  });

  it.each(files)('%s: refs are a known file name or a local $defs pointer', (name) => {
    for (const [pointer, s] of subschemas(load(name))) {
      if (typeof s.$ref !== 'string') continue;
      if (s.$ref.startsWith('#/$defs/')) continue;
      expect(s.$ref, pointer).toMatch(/^[a-z-]+\.schema\.json$/);
      expect(registry().has(s.$ref.replace(/\.schema\.json$/, '')), pointer).toBe(true);
    }
  });

  it.each(files)('%s: objects stay open and the undocumented fields stay unlisted', (name) => {
    for (const [pointer, s] of subschemas(load(name))) {
      expect(s.additionalProperties, pointer).not.toBe(false);
      expect(s.unevaluatedProperties, pointer).toBeUndefined();
      if (isObject(s.properties)) {
        expect(Object.keys(s.properties), pointer).not.toContain('summary_status');
        expect(Object.keys(s.properties), pointer).not.toContain("passthrough_verifier_type'");
      }
    }
  });

  it('the response person_details lists every field a request may send', () => {
    const sent = Object.keys(load('identity-person-details-request').properties as Json);
    const returned = Object.keys(load('identity-person-details').properties as Json);
    expect(returned).toEqual(expect.arrayContaining(sent));
  });
});
