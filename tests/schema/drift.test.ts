import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.ts';
import type { DriftFinding, DriftResult } from '../../src/schema/drift/drift-finding.ts';
import { compareWithOpenApi } from '../../src/schema/drift/openapi-drift.ts';
import { parseOpenApi } from '../../src/schema/drift/openapi-source.ts';
import { buildOpenApiDocument } from '../../src/schema/openapi.ts';
import { registry } from '../../src/schema/registry.ts';

const FIXTURES = new URL('../fixtures/drift/', import.meta.url);
const load = (name: string) => parseOpenApi(readFileSync(new URL(name, FIXTURES), 'utf8'), name);
const drift = (name: string): DriftResult => compareWithOpenApi(load(name), registry());

const find = (result: DriftResult, kind: DriftFinding['kind'], operation: string, direction: string, field: string, keyword: string) =>
  result.findings.filter((f) => f.kind === kind && f.operation === operation && f.direction === direction && f.field === field && f.keyword === keyword);

describe('drift of the vendor-like stand-in (JSON, OpenAPI 3.0)', () => {
  const result = drift('vendor-like.openapi.json');

  it('matches both operations by operationId and path without the v2 segment', () => {
    expect(result.operations).toEqual([
      { operation: 'updateFiatAccount', openapi: 'PUT /transfer/fiat-accounts/{id}' },
      { operation: 'createIdentity', openapi: 'POST /identity/identities' },
    ]);
  });

  // Every contradiction the stand-in carries, with the OpenAPI pointer that holds it and the section.
  const CONTRADICTIONS: [string, string, string, string, string, string][] = [
    ['updateFiatAccount', 'request', 'fiat_account_owner.person_details.first_name', 'required', '#/components/schemas/OwnerPersonDetails/required/0', '2.3'],
    ['updateFiatAccount', 'request', 'fiat_account_owner.person_details.last_name', 'required', '#/components/schemas/OwnerPersonDetails/required/1', '2.3'],
    [
      'updateFiatAccount',
      'request',
      'fiat_network_instructions.wire.fiat_account_owner_address.address2',
      'pattern',
      '#/components/schemas/MailingAddress/properties/address2/pattern',
      '2.4',
    ],
    [
      'updateFiatAccount',
      'request',
      'fiat_network_instructions.wire.fiat_account_owner_address.country',
      'required',
      '#/components/schemas/MailingAddress/required/0',
      '2.2',
    ],
    [
      'updateFiatAccount',
      'request',
      'fiat_network_instructions.wire.routing_details.bank_address.address2',
      'pattern',
      '#/components/schemas/MailingAddress/properties/address2/pattern',
      '2.4',
    ],
    ['updateFiatAccount', 'request', 'metadata', 'maxProperties', '#/components/schemas/StringMap', '4.1'],
    ['updateFiatAccount', 'request', 'metadata.*', 'maxLength', '#/components/schemas/StringMap/additionalProperties', '8'],
    ['updateFiatAccount', 'request', 'metadata (keys)', 'maxLength', '#/components/schemas/StringMap/propertyNames', '8'],
    ['updateFiatAccount', 'response', 'status', 'required', '#/components/schemas/FiatAccount/allOf/1/required/1', '2.1'],
    ['updateFiatAccount', 'response', 'fiat_network_instructions', 'required', '#/components/schemas/FiatAccount/allOf/1/required/2', '2.1'],
    ['updateFiatAccount', 'response', 'metadata', 'maxProperties', '#/components/schemas/StringMap', '2.1'],
    ['createIdentity', 'request', 'person_details.address.address2', 'pattern', '#/components/schemas/MailingAddress/properties/address2/pattern', '2.4'],
    ['createIdentity', 'request', 'person_details.address.country', 'required', '#/components/schemas/MailingAddress/required/0', '2.6'],
    ['createIdentity', 'request', 'person_details.address.address1', 'required', '#/components/schemas/PersonMailingAddress/allOf/1/required/0', '2.6'],
    ['createIdentity', 'request', 'tax_details', 'required', '#/components/schemas/CreateIdentityRequest', '4.2'],
    ['createIdentity', 'response', 'person_details.date_of_birth', 'pattern', '#/components/schemas/PersonDetails/properties/date_of_birth/pattern', '2.6'],
  ];

  it.each(CONTRADICTIONS)('contradiction: %s %s %s (%s)', (operation, direction, field, keyword, theirs, section) => {
    const [finding] = find(result, 'contradiction', operation, direction, field, keyword);
    expect(finding, `${field} ${keyword}`).toBeDefined();
    expect(finding.theirs).toBe(theirs);
    expect(finding.section).toBe(section);
    expect(finding.ours).toMatch(/^[a-z-]+\.schema\.json#/);
    expect(finding.reason).not.toBe('');
  });

  it('lists exactly the contradictions the stand-in was written with, and nothing else as one', () => {
    const listed = result.findings.filter((f) => f.kind === 'contradiction').map((f) => `${f.operation} ${f.direction} ${f.field} ${f.keyword}`);
    const wire = 'fiat_network_instructions.wire';
    expect(listed.sort()).toEqual(
      [
        // A required member of an optional object (the owner's names, an address's members).
        'updateFiatAccount request fiat_account_owner.person_details.first_name required',
        'updateFiatAccount request fiat_account_owner.person_details.last_name required',
        `updateFiatAccount request ${wire}.fiat_account_owner_address.country required`,
        `updateFiatAccount request ${wire}.routing_details.bank_address.country required`,
        'createIdentity request person_details.address.country required',
        'createIdentity request person_details.address.address1 required',
        'createIdentity request person_details.address.city required',
        'createIdentity request person_details.address.province required',
        // A pattern refusing address2 "", in every address of both operations.
        `updateFiatAccount request ${wire}.fiat_account_owner_address.address2 pattern`,
        `updateFiatAccount request ${wire}.routing_details.bank_address.address2 pattern`,
        `updateFiatAccount response ${wire}.fiat_account_owner_address.address2 pattern`,
        `updateFiatAccount response ${wire}.routing_details.bank_address.address2 pattern`,
        'createIdentity request person_details.address.address2 pattern',
        'createIdentity response person_details.address.address2 pattern',
        // Metadata without its limits (6 pairs, 100 characters), and strings only where the sample returns an integer.
        'updateFiatAccount request metadata maxProperties',
        'updateFiatAccount request metadata.* maxLength',
        'updateFiatAccount request metadata (keys) maxLength',
        'updateFiatAccount response metadata maxProperties',
        'updateFiatAccount response metadata.* maxLength',
        'updateFiatAccount response metadata (keys) maxLength',
        'updateFiatAccount response metadata.* type',
        // Top-level fields the sample nests.
        'updateFiatAccount response status required',
        'updateFiatAccount response fiat_network_instructions required',
        // The tax rule not stated; a date where a timestamp is returned.
        'createIdentity request tax_details required',
        'createIdentity response person_details.date_of_birth pattern',
      ].sort(),
    );
  });

  it('quotes the value the document shows where a pattern refuses it', () => {
    const [address2] = find(result, 'contradiction', 'createIdentity', 'request', 'person_details.address.address2', 'pattern');
    expect(address2.reason).toContain('refuses ""');
    const [dob] = find(result, 'contradiction', 'createIdentity', 'response', 'person_details.date_of_birth', 'pattern');
    expect(dob.reason).toContain('"1990-05-17T00:00:00Z"');
    expect(dob.ours).toBe('identity-person-details.schema.json#/properties/date_of_birth/pattern');
  });

  // The restrictions of the strict server (src/server/strict-open-points.ts): names, addresses, nationality, kinds.
  const TIGHTENINGS: [string, string, string][] = [
    ['createIdentity', 'person_details.first_name', 'pattern'],
    ['createIdentity', 'person_details.first_name', 'maxLength'],
    ['createIdentity', 'person_details.last_name', 'pattern'],
    ['createIdentity', 'person_details.address.address1', 'maxLength'],
    ['createIdentity', 'person_details.address.city', 'pattern'],
    ['createIdentity', 'person_details.nationality', 'pattern'],
    ['createIdentity', 'person_details.cip_id_type', 'enum'],
    ['createIdentity', 'person_details.verifier_type', 'enum'],
    ['createIdentity', 'tax_details[].tax_payer_id', 'maxLength'],
    ['updateFiatAccount', 'fiat_network_instructions.wire.fiat_account_owner_address.address1', 'maxLength'],
    ['updateFiatAccount', 'fiat_network_instructions.wire.routing_details.routing_number_type', 'enum'],
  ];

  it.each(TIGHTENINGS)('tightening: %s request %s (%s)', (operation, field, keyword) => {
    const [finding] = find(result, 'tightening', operation, 'request', field, keyword);
    expect(finding, `${field} ${keyword}`).toBeDefined();
    expect(finding.openKinds?.length).toBeGreaterThan(0);
    expect(finding.theirs).toMatch(/^#\/components\/schemas\//);
  });

  it('never calls a documented value or a guaranteed absence a tightening: address2 "" and the required members are contradictions only', () => {
    const tightened = result.findings.filter((f) => f.kind === 'tightening');
    expect(tightened.some((f) => f.keyword === 'required')).toBe(false);
    expect(tightened.some((f) => f.field.endsWith('address2') && f.keyword === 'pattern')).toBe(false);
  });

  it('counts each kind', () => {
    for (const [kind, count] of Object.entries(result.counts)) expect(result.findings.filter((f) => f.kind === kind).length).toBe(count);
    expect(result.counts['not-compared']).toBe(0);
  });
});

describe('drift of the YAML stand-in (identity only, nullable, format date, an external $ref)', () => {
  const result = drift('vendor-like-identity.openapi.yaml');

  it('reads YAML: the same contradictions of the identity as the JSON form', () => {
    for (const field of ['person_details.address.address2', 'person_details.date_of_birth']) {
      expect(result.findings.some((f) => f.kind === 'contradiction' && f.field === field)).toBe(true);
    }
    const [dob] = result.findings.filter((f) => f.kind === 'contradiction' && f.field === 'person_details.date_of_birth');
    expect(dob.keyword).toBe('format');
    expect(dob.openapi).toBe('format date');
  });

  it('reports the operation it lacks and the external $ref as not compared, with pointers', () => {
    const notCompared = result.findings.filter((f) => f.kind === 'not-compared');
    expect(notCompared.filter((f) => f.operation === 'updateFiatAccount')).toHaveLength(2);
    const [external] = notCompared.filter((f) => f.field === 'person_details.metadata' && f.direction === 'request');
    expect(external.theirs).toBe('#/components/schemas/PersonDetails/properties/metadata/$ref');
    // Not compared is not missing: the node's type is not held against the OpenAPI.
    expect(result.findings.some((f) => f.kind === 'contradiction' && f.field === 'person_details.metadata')).toBe(false);
  });

  it('reads nullable (3.0) as null allowed: a wrong type the document forbids in a request', () => {
    const [email] = result.findings.filter((f) => f.field === 'person_details.email' && f.direction === 'request');
    expect(email.kind).toBe('contradiction');
    expect(email.reason).toContain('null');
  });
});

describe('drift of OpenAPI 3.1 constructs', () => {
  // A minimal document of the create operation, built here: type arrays, readOnly, oneOf, a keyword not weighed.
  const document = {
    openapi: '3.1.0',
    paths: {
      '/v2/identity/identities': {
        post: {
          requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Create' } } } },
          responses: { '201': { content: { 'application/json': { schema: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } } } } } },
        },
      },
    },
    components: {
      schemas: {
        Create: {
          type: 'object',
          required: ['tax_details'],
          properties: {
            ref_id: { type: ['string', 'null'] },
            is_merchant: { type: 'boolean', readOnly: true },
            created_by: { type: 'string', readOnly: true },
            person_details: { oneOf: [{ type: 'object' }, { type: 'null' }] },
            tax_details: { type: 'array', uniqueItems: true, items: { type: 'object' } },
          },
        },
      },
    },
  };
  const result = compareWithOpenApi(document, registry());
  const at = (field: string) => result.findings.filter((f) => f.operation === 'createIdentity' && f.direction === 'request' && f.field === field);

  it('matches the operation by method and path when it has no operationId', () => {
    expect(result.operations.find((o) => o.operation === 'createIdentity')?.openapi).toBe('POST /v2/identity/identities');
  });

  it('reads a type array: null accepted where the document says string is a contradiction', () => {
    expect(at('ref_id').map((f) => [f.kind, f.keyword])).toEqual([['contradiction', 'type']]);
  });

  it('leaves readOnly members out of the request', () => {
    expect(at('is_merchant')).toEqual([]);
    expect(result.findings.some((f) => f.direction === 'request' && f.reason.includes('created_by'))).toBe(false);
  });

  it('names oneOf and a keyword it does not weigh as not compared, with their pointers', () => {
    expect(
      at('person_details')
        .filter((f) => f.kind === 'not-compared')
        .map((f) => f.theirs),
    ).toEqual(['#/components/schemas/Create/properties/person_details/oneOf']);
    expect(
      at('tax_details')
        .filter((f) => f.kind === 'not-compared')
        .map((f) => f.theirs),
    ).toEqual(['#/components/schemas/Create/properties/tax_details/uniqueItems']);
  });

  it('ends on a recursive schema: our schema leads the walk', () => {
    const recursive = structuredClone(document);
    recursive.components.schemas.Create.properties.person_details = { $ref: '#/components/schemas/Node' } as never;
    // A map whose values are maps of the same kind, without end.
    (recursive.components.schemas as Record<string, unknown>).Node = {
      type: 'object',
      properties: { metadata: { $ref: '#/components/schemas/Map' } },
    };
    (recursive.components.schemas as Record<string, unknown>).Map = { type: 'object', additionalProperties: { $ref: '#/components/schemas/Map' } };
    const findings = compareWithOpenApi(recursive, registry()).findings;
    expect(findings.some((f) => f.field === 'person_details.metadata.*' && f.kind === 'tightening')).toBe(true);
  });

  it('a tax_details required always refuses what the tax rule allows (tax_details_not_required true alone)', () => {
    const [required] = at('tax_details').filter((f) => f.keyword === 'required');
    expect(required.kind).toBe('contradiction');
    expect(required.reason).toContain('unless tax_details_not_required is true');
  });
});

describe('drift of our own export', () => {
  it('a limit below a guaranteed length is a contradiction, at the guaranteed length a tightening (address lines of 35 characters)', () => {
    const limited = (max: number) => {
      const own = JSON.parse(JSON.stringify(buildOpenApiDocument(registry())));
      own.components.schemas.Address.properties.address1.maxLength = max;
      const result = compareWithOpenApi(own, registry());
      return result.findings.filter((f) => f.field === 'person_details.address.address1' && f.direction === 'request').map((f) => [f.kind, f.keyword]);
    };
    expect(limited(20)).toEqual([['contradiction', 'maxLength']]);
    expect(limited(35)).toEqual([['tightening', 'maxLength']]);
  });

  it('finds nothing but the anyOf placements it does not compare', () => {
    const own = JSON.parse(JSON.stringify(buildOpenApiDocument(registry())));
    const result = compareWithOpenApi(own, registry());
    expect(result.counts.contradiction).toBe(0);
    expect(result.counts.tightening).toBe(0);
    expect(result.counts.other).toBe(0);
    expect(result.findings.every((f) => f.kind === 'not-compared' && f.keyword === 'anyOf')).toBe(true);
  });
});

describe('reading an OpenAPI document', () => {
  it.each([
    ['', /is empty/],
    ['{"swagger": "2.0", "paths": {}}', /Swagger 2\.0/],
    ['{"openapi": "2.5.0", "paths": {}}', /not an OpenAPI 3\.0 or 3\.1 document/],
    ['{"openapi": "3.1.0"}', /has no paths/],
    ['{"openapi": ', /is not JSON/],
    ['openapi: 3.1.0\npaths: [\n', /neither JSON nor YAML/],
  ])('%j is a usage error', (text, message) => {
    expect(() => parseOpenApi(text, 'x.yaml')).toThrow(UsageError);
    expect(() => parseOpenApi(text, 'x.yaml')).toThrow(message);
  });
});
