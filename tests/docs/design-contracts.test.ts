/**
 * docs/design.md section 5.5 documents conformance.json field by field: every property of
 * schemas/conformance-report.schema.json, at every depth (the top level, the summary, a rule, a
 * failure, ...), must be named there by its path in backticks (`summary.reason`,
 * `rules[].coverage.minimum.fixed`), and every field the section's tables list must be one the
 * schema has. A field added to the schema without its line in the design fails here.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SCHEMA_DIR } from '../../src/schema/registry.ts';
import path from 'node:path';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const DESIGN = fileURLToPath(new URL('../../docs/design.md', import.meta.url));
const REPORT_SCHEMA = path.join(SCHEMA_DIR, 'conformance-report.schema.json');

const design = readFileSync(DESIGN, 'utf8');
const schema = JSON.parse(readFileSync(REPORT_SCHEMA, 'utf8')) as Json;

/** The subschema a local `$ref` (`#/$defs/rule`) points to. */
function resolve(root: Json, ref: string): Json {
  if (!ref.startsWith('#/')) throw new Error(`only local references are expected in the report schema, got ${ref}`);
  let at: unknown = root;
  for (const key of ref.slice(2).split('/')) at = isObject(at) ? at[key] : undefined;
  if (!isObject(at)) throw new Error(`${ref} resolves to nothing`);
  return at;
}

/**
 * Every property path of a schema, depth first: `summary`, `summary.verdict`, `rules`,
 * `rules[].id`, `rules[].failures[].case.mode`, ... Local `$ref`s are followed, array items add
 * `[]`, the branches of combinators and conditionals (`then`, `else`) are walked, and a reference
 * already on the way down is not followed again (no endless walk).
 */
function propertyPaths(root: Json): string[] {
  const paths: string[] = [];
  const walk = (node: unknown, prefix: string, refsOnTheWay: readonly string[]): void => {
    if (!isObject(node)) return;
    if (typeof node.$ref === 'string') {
      if (refsOnTheWay.includes(node.$ref)) return;
      walk(resolve(root, node.$ref), prefix, [...refsOnTheWay, node.$ref]);
    }
    if (isObject(node.items)) walk(node.items, `${prefix}[]`, refsOnTheWay);
    for (const combinator of ['allOf', 'anyOf', 'oneOf'] as const) {
      const branches = node[combinator];
      if (Array.isArray(branches)) for (const branch of branches) walk(branch, prefix, refsOnTheWay);
    }
    // A conditional's branches hold properties too (a failure's params, typed by its kind); its `if` only tests.
    for (const branch of [node.then, node.else]) walk(branch, prefix, refsOnTheWay);
    if (!isObject(node.properties)) return;
    for (const [name, sub] of Object.entries(node.properties)) {
      const here = prefix ? `${prefix}.${name}` : name;
      paths.push(here);
      walk(sub, here, refsOnTheWay);
    }
  };
  walk(root, '', []);
  return [...new Set(paths)];
}

/** The schema's property paths that the design does not name in backticks. */
function unnamedPaths(root: Json, text: string): string[] {
  return propertyPaths(root).filter((p) => !text.includes(`\`${p}\``));
}

/** The fields the tables of design section 5.5 list: the first cell of each row, in backticks. */
function fieldsListedInDesign(text: string): string[] {
  const start = text.indexOf('### 5.5 conformance.json');
  const end = text.indexOf('\n### ', start + 1);
  expect(start, 'docs/design.md has a section "### 5.5 conformance.json"').toBeGreaterThanOrEqual(0);
  return [...text.slice(start, end === -1 ? undefined : end).matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]);
}

describe('docs/design.md names every field of conformance.json', () => {
  const paths = propertyPaths(schema);

  it('walks the schema to every depth: the top level, the summary, a rule, its coverage, a failure and its response', () => {
    expect(paths).toEqual(
      expect.arrayContaining([
        'reportVersion',
        'shard.index',
        'summary.reason',
        'stopped.kind',
        'shrinking.cutShort',
        'transport.byKind.other',
        'rules[].blocking',
        'rules[].coverage.minimum.random',
        'rules[].reason',
        'rules[].failures[].case.mode',
        'rules[].failures[].response.truncated.receivedBytes',
        'undocumentedFields[].count',
        'observedContract.limits[].refused[].said',
        'rules[].failures[].case.open.kind',
        'rules[].failures[].kind',
        'rules[].failures[].params.keywordParams',
        'rules[].failures[].params.notBefore',
      ]),
    );
  });

  it('every property of schemas/conformance-report.schema.json is named in docs/design.md', () => {
    expect(unnamedPaths(schema, design)).toEqual([]);
  });

  it('every field the design lists in section 5.5 is a property of the schema (no stale field)', () => {
    const listed = fieldsListedInDesign(design);
    expect(listed.length).toBeGreaterThan(50);
    expect(listed.filter((field) => !paths.includes(field))).toEqual([]);
  });

  it('fails for a property the design does not name (the check can fail)', () => {
    const invented = structuredClone(schema) as Json & { properties: Json; $defs: Json };
    (invented.properties.summary as { properties: Json }).properties.retries = { type: 'integer' };
    (invented.$defs.rule as { properties: Json }).properties.flakiness = { type: 'number' };
    invented.properties.flakyContract = {
      type: 'object',
      properties: { limits: { type: 'array', items: { type: 'object', properties: { field: { type: 'string' } } } } },
    };
    expect(unnamedPaths(invented, design).sort()).toEqual([
      'flakyContract',
      'flakyContract.limits',
      'flakyContract.limits[].field',
      'rules[].flakiness',
      'summary.retries',
    ]);
  });

  it('fails for a field the design lists that the schema lacks (the reverse check can fail)', () => {
    const withStale = `${design.slice(0, design.indexOf('### 5.6'))}| \`summary.flaky\` | integer | a field no schema has | |\n\n${design.slice(design.indexOf('### 5.6'))}`;
    expect(fieldsListedInDesign(withStale).filter((field) => !paths.includes(field))).toEqual(['summary.flaky']);
  });
});
