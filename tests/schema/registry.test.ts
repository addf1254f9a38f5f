/** The registry compiles each schema on its first use: listing costs nothing, and every schema still compiles. */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRegistry, registry } from '../../src/schema/registry.ts';

describe('schema registry', () => {
  it('compiles every schema of schemas/', () => {
    const schemas = registry();
    expect(schemas.names().length).toBeGreaterThan(10);
    for (const name of schemas.names()) expect(() => schemas.validate(name, {}), name).not.toThrow();
  });

  it('lists and reads schemas without compiling them; a broken one fails when first validated against', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'registry-'));
    const schema = (id: string, body: object) => ({ $schema: 'https://json-schema.org/draft/2020-12/schema', $id: id, title: id, ...body });
    writeFileSync(path.join(dir, 'good.schema.json'), JSON.stringify(schema('good.schema.json', { type: 'string' })));
    // A $ref to nowhere passes the meta-schema but cannot compile.
    writeFileSync(path.join(dir, 'broken.schema.json'), JSON.stringify(schema('broken.schema.json', { $ref: 'missing.schema.json' })));
    const schemas = createRegistry(dir);
    expect(schemas.names()).toEqual(['broken', 'good']);
    expect(schemas.schema('broken').title).toBe('broken.schema.json');
    expect(schemas.validate('good', 'text')).toEqual([]);
    expect(schemas.validate('good', 1)).toHaveLength(1);
    expect(() => schemas.validate('broken', 'text')).toThrow(/missing\.schema\.json/);
    expect(() => schemas.validate('unknown', 'text')).toThrow(/unknown schema "unknown"/);
  });
});
