/**
 * The `x-rule` tags of the schemas and the rules judged from them agree: every tag names a rule of
 * the catalogue for the operation whose response reaches the schema, every rule judged from tags
 * has at least one, and the tags are annotations that never change what validates.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SCHEMA_DIR, createRegistry, registry } from '../../src/schema/registry.ts';
import { getRule, isRuleId } from '../../src/core/catalogue.ts';
import { OPERATIONS, OPERATION_IDS } from '../../src/core/operations.ts';
import { CHECKS } from '../../src/rules/checks/index.ts';
import { judgedByTag } from '../../src/rules/checks/schema-errors.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const names = readdirSync(SCHEMA_DIR)
  .filter((f) => f.endsWith('.schema.json'))
  .map((f) => f.slice(0, -'.schema.json'.length));
const load = (name: string): Json => JSON.parse(readFileSync(path.join(SCHEMA_DIR, `${name}.schema.json`), 'utf8'));

/** Every object inside a schema document (enum and const values hold data, not schemas). */
function* objects(value: unknown, pointer = ''): Generator<[string, Json]> {
  if (Array.isArray(value)) for (const [i, v] of value.entries()) yield* objects(v, `${pointer}/${i}`);
  if (!isObject(value)) return;
  yield [pointer, value];
  for (const [key, v] of Object.entries(value)) if (key !== 'enum' && key !== 'const') yield* objects(v, `${pointer}/${key}`);
}

const tags = names.flatMap((schema) =>
  [...objects(load(schema))].filter(([, s]) => 'x-rule' in s).map(([pointer, s]) => ({ schema, pointer, rule: s['x-rule'] as string })),
);

/** The schema and every schema it reaches through file $refs. */
function reach(name: string, seen = new Set<string>()): Set<string> {
  if (seen.has(name)) return seen;
  seen.add(name);
  for (const [, s] of objects(load(name))) {
    if (typeof s.$ref === 'string' && !s.$ref.startsWith('#')) reach(s.$ref.replace(/\.schema\.json$/, ''), seen);
  }
  return seen;
}

describe('x-rule tags', () => {
  it('exist', () => {
    expect(tags.length).toBeGreaterThan(0);
  });

  it.each(tags.map((t) => [`${t.schema}#${t.pointer}: ${t.rule}`, t] as const))('%s names a rule of the operation whose response reaches it', (_name, tag) => {
    expect(isRuleId(tag.rule)).toBe(true);
    const responseSchema = OPERATIONS[getRule(tag.rule).operation].responseSchema;
    expect([...reach(responseSchema)]).toContain(tag.schema);
  });

  it('tag exactly the rules judged from tagged errors: each such rule has a tag, and no tagged error goes unjudged', () => {
    const judged = CHECKS.filter(judgedByTag).map((c) => c.rule);
    expect(judged.length).toBeGreaterThan(0);
    expect([...new Set(tags.map((t) => t.rule))].sort()).toEqual([...new Set(judged)].sort());
  });

  it('come back on the errors of the tagged subschemas (required, anyOf, maxProperties, propertyNames, type)', () => {
    const rules = (name: string, data: unknown) =>
      registry()
        .validate(name, data)
        .map((e) => `${e.instancePath} ${e.keyword} ${e.rule ?? '-'}`);
    expect(rules('identity', { status: 'pending', user_disabled: 'no', metadata: [] })).toEqual(
      expect.arrayContaining(['/status enum id.enums', '/user_disabled type id.booleans', ' required id.response.id', '/metadata type -']),
    );
    const sevenLongKeys = Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`${i}`.repeat(101), true]));
    expect(rules('fiat-account', { metadata: sevenLongKeys })).toEqual(
      expect.arrayContaining([
        ' required fa.response.required',
        ' anyOf fa.response.required',
        ' anyOf fa.status.present',
        '/metadata maxProperties fa.response.metadata-limits',
        '/metadata propertyNames fa.response.metadata-limits',
        '/metadata maxLength fa.response.metadata-limits',
        `/metadata/${'0'.repeat(101)} type -`,
      ]),
    );
  });

  it('never change what validates: the schema battery gives the same verdicts without them', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'schemas-without-x-rule-'));
    try {
      for (const name of names) {
        const text = JSON.stringify(load(name), (key, value: unknown) => (key === 'x-rule' ? undefined : value));
        writeFileSync(path.join(dir, `${name}.schema.json`), text);
      }
      const untagged = createRegistry(dir);
      const cases = readdirSync('fixtures/schema-cases').flatMap((file) =>
        (JSON.parse(readFileSync(path.join('fixtures/schema-cases', file), 'utf8')) as { tests: { data: unknown }[] }[]).flatMap((g) =>
          g.tests.map((t) => t.data),
        ),
      );
      for (const data of cases) {
        for (const name of OPERATION_IDS.flatMap((op) => [OPERATIONS[op].requestSchema, OPERATIONS[op].responseSchema])) {
          expect(untagged.validate(name, data).length === 0, `${name} ${JSON.stringify(data).slice(0, 80)}`).toBe(registry().validate(name, data).length === 0);
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
