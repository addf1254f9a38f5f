/**
 * `conformance export openapi`: an OpenAPI 3.1 document that a real validator accepts, whose
 * references all resolve, with the document's limits, placements and readings, and whose schemas
 * judge the document's samples as schemas/ does.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { buildOpenApiDocument } from '../../src/schema/openapi.ts';
import { refsOf } from '../../src/schema/bundle.ts';
import { registry } from '../../src/schema/registry.ts';
import { conformance } from '../cli/binary.ts';

type Json = Record<string, any>;
const document = buildOpenApiDocument(registry()) as Json;

async function validate(doc: unknown): Promise<{ valid: boolean; errors: unknown }> {
  const validator = new Validator();
  const result = await validator.validate(structuredClone(doc) as Parameters<Validator['validate']>[0]);
  return { valid: result.valid, errors: result.errors };
}

/** The value a local JSON pointer reference points at, or undefined. */
function resolve(doc: Json, ref: string): unknown {
  return ref
    .replace(/^#\//, '')
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Json)[key] : undefined), doc);
}

describe('the OpenAPI export', () => {
  it('is a valid OpenAPI 3.1 document for a real validator', async () => {
    const result = await validate(document);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(document.openapi).toMatch(/^3\.1\./);
  });

  it('is refused when broken (the validator can fail)', async () => {
    const { info: _info, ...noInfo } = document;
    expect((await validate(noInfo)).valid).toBe(false);
    expect((await validate({ ...document, paths: { '/x': { put: { responses: 'none' } } } })).valid).toBe(false);
  });

  it('has every $ref resolve inside the document', () => {
    const refs = refsOf(document);
    expect(refs.length).toBeGreaterThan(10);
    expect(refs.filter((ref) => !ref.startsWith('#/') || resolve(document, ref) === undefined)).toEqual([]);
  });

  it('has the two operations with their bodies, security and rules', () => {
    const update = document.paths['/v2/transfer/fiat-accounts/{id}'].put;
    const create = document.paths['/v2/identity/identities'].post;
    expect(update.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/UpdateFiatAccountRequest');
    expect(update.responses['2XX'].content['application/json'].schema.$ref).toBe('#/components/schemas/FiatAccount');
    expect(update.parameters[0]).toMatchObject({ name: 'id', in: 'path', required: true });
    expect(create.responses['2XX'].content['application/json'].schema.$ref).toBe('#/components/schemas/Identity');
    expect(document.components.securitySchemes.oauth2.flows.clientCredentials).toBeDefined();
    expect(update['x-conformance-rules'].map((r: Json) => r.id)).toContain('fa.metadata.max-pairs-accepted');
  });

  it('states the prose limits as keywords, the placements as anyOf, the readings as x- notes with their sections', () => {
    const metadata = document.components.schemas.FiatAccountMetadata;
    expect(metadata.maxProperties).toBe(6);
    expect(metadata.propertyNames.maxLength).toBe(100);
    expect(metadata.additionalProperties.maxLength).toBe(100);
    expect(JSON.stringify(document.components.schemas.FiatAccount)).toContain('"anyOf"');
    expect(metadata['x-readings'].map((r: Json) => r.id)).toContain('characters-are-code-points');
    expect(metadata['x-readings'][0].sections.length).toBeGreaterThan(0);
    expect(document.paths['/v2/identity/identities'].post['x-readings'].map((r: Json) => r.id)).toContain('ref-id-duplicates');
  });

  it('judges the document samples as schemas/ does', () => {
    const ajv = new Ajv2020({ strict: false, allowUnionTypes: true });
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    ajv.addSchema({ $id: 'openapi', components: document.components }, 'openapi');
    const samples: [string, string][] = [
      ['update-fiat-account-request', 'UpdateFiatAccountRequest'],
      ['fiat-account', 'FiatAccount'],
      ['create-identity-request', 'CreateIdentityRequest'],
      ['identity', 'Identity'],
    ];
    for (const [file, component] of samples) {
      const sample = JSON.parse(readFileSync(path.join('fixtures/samples', `${file}.json`), 'utf8'));
      const check = ajv.getSchema(`openapi#/components/schemas/${component}`)!;
      expect(check(sample), `${file}: ${JSON.stringify(check.errors)}`).toBe(true);
      expect(registry().validate(file, sample)).toEqual([]);
    }
    // 7 pairs: refused by the export as by schemas/.
    const seven = { metadata: Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`k${i}`, 'v'])) };
    expect(ajv.getSchema('openapi#/components/schemas/UpdateFiatAccountRequest')!(seven)).toBe(false);
  });
});

describe('conformance export', () => {
  it('writes the document to --out and exits 0; an unknown kind is exit 2', async () => {
    const out = path.join(mkdtempSync(path.join(tmpdir(), 'openapi-')), 'api.json');
    const run = await conformance([
      'export',
      'openapi',
      '--out',
      out,
      '--base-url',
      'https://sandbox.example.com',
      '--auth-url',
      'https://auth.example.com/token',
    ]);
    expect(run.code).toBe(0);
    const written = JSON.parse(readFileSync(out, 'utf8'));
    expect(written.servers).toEqual([{ url: 'https://sandbox.example.com' }]);
    expect(written.components.securitySchemes.oauth2.flows.clientCredentials.tokenUrl).toBe('https://auth.example.com/token');
    expect((await validate(written)).valid).toBe(true);
    const unknown = await conformance(['export', 'graphql']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('cannot export "graphql"; known: openapi');
  });
});
