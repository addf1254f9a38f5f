/**
 * The schema battery of fixtures/schema-cases: every case validates (or not) as it says, and
 * every rejection comes back as data that names the place, the keyword and the document section.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { registry } from '../../src/schema/registry.ts';

interface SchemaCase {
  description: string;
  data: unknown;
  valid: boolean;
}
interface CaseGroup {
  description: string;
  schema: string;
  tests: SchemaCase[];
}

const CASES_DIR = path.resolve('fixtures/schema-cases');
const groups: (CaseGroup & { file: string })[] = readdirSync(CASES_DIR)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .flatMap((file) => (JSON.parse(readFileSync(path.join(CASES_DIR, file), 'utf8')) as CaseGroup[]).map((g) => ({ ...g, file })));

describe('schema battery', () => {
  it('holds at least 60 cases, valid and invalid, each naming a known schema', () => {
    const all = groups.flatMap((g) => g.tests);
    expect(all.length).toBeGreaterThanOrEqual(60);
    expect(all.filter((t) => t.valid).length).toBeGreaterThan(10);
    expect(all.filter((t) => !t.valid).length).toBeGreaterThan(10);
    for (const g of groups) expect(registry().has(g.schema), `${g.file}: ${g.schema}`).toBe(true);
  });

  for (const group of groups) {
    describe(`${group.file}: ${group.description}`, () => {
      it.each(group.tests.map((t) => [t.description, t] as const))('%s', (_name, t) => {
        const errors = registry().validate(group.schema, t.data);
        expect(errors.length === 0, JSON.stringify(errors)).toBe(t.valid);
        // Errors are data: a place, a keyword, a message and the section of the document.
        for (const error of errors) {
          expect(typeof error.instancePath).toBe('string');
          expect(error.keyword).toMatch(/^[a-zA-Z$]+$/);
          expect(error.message).not.toBe('');
          expect(error.section, `${error.instancePath} ${error.keyword}`).toMatch(/^\d+(\.\d+)?$/);
        }
      });
    });
  }
});

describe('errors as data', () => {
  it('points at the failing field with its keyword and section', () => {
    const errors = registry().validate('create-identity-request', {
      person_details: { email: 42, date_of_birth: '1990-02-30' },
      tax_details_not_required: true,
    });
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ instancePath: '/person_details/email', keyword: 'type', section: '2.6' }),
        expect.objectContaining({ instancePath: '/person_details/date_of_birth', keyword: 'format', section: '2.6' }),
      ]),
    );
    expect(errors).toHaveLength(2);
  });

  it('names the tax rule of 4.2 when tax_details is missing', () => {
    const errors = registry().validate('create-identity-request', { person_details: {} });
    expect(errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ instancePath: '', keyword: 'required', section: '4.2', params: { missingProperty: 'tax_details' } })]),
    );
  });

  it('counts metadata lengths in code points: 100 emoji pass, 101 fail with the limit of section 8', () => {
    expect(registry().validate('fiat-account-metadata', { k: '😀'.repeat(100) })).toEqual([]);
    const [error] = registry().validate('fiat-account-metadata', { k: '😀'.repeat(101) });
    expect(error).toMatchObject({ instancePath: '/k', keyword: 'maxLength', section: '8', params: { limit: 100 } });
  });

  it('reports a status in neither place as a root anyOf of section 2.1', () => {
    const errors = registry().validate('fiat-account', {
      id: '3f2b9c1e-5d4a-4e7b-8c6d-1a2b3c4d5e6f',
      created_at: '2024-01-01T00:00:00Z',
      fiat_network_instructions: {},
    });
    expect(errors.filter((e) => e.instancePath === '' && e.keyword === 'anyOf')).toEqual([expect.objectContaining({ section: '2.1' })]);
  });
});
