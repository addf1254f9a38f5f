/**
 * An OpenAPI 3.1 document of the API's two operations, built from schemas/ (JSON Schema 2020-12,
 * which OpenAPI 3.1 takes as it is): the operation table gives the paths, methods, path parameters
 * and the request and response schema of each; the registry gives the schemas, bundled as
 * components (see bundle.ts) with their limits (`maxProperties`, `maxLength`), placements
 * (`anyOf`) and annotations unchanged; the catalogue gives the rules judged per operation
 * (`x-conformance-rules`), and documented-readings.ts the readings of the document (`x-readings`,
 * each citing its sections). Pure: no file, no clock, no environment.
 */
import { RULES } from '../core/catalogue.ts';
import { OPERATIONS, OPERATION_IDS, type Operation, type OperationSpec } from '../core/operations.ts';
import { TOOL_NAME, TOOL_VERSION } from '../core/version.ts';
import { bundleSchemas, componentName } from './bundle.ts';
import { DOCUMENTED_READINGS, type DocumentedReading, type ReadingTarget } from './documented-readings.ts';
import type { SchemaRegistry } from './registry.ts';

type Json = Record<string, unknown>;

export const OPENAPI_VERSION = '3.1.1';
const DIALECT = 'https://json-schema.org/draft/2020-12/schema';
const COMPONENTS = '#/components/schemas/';
const SECURITY_SCHEME = 'oauth2';
/** RFC 6761: a .invalid name never resolves, so the placeholder cannot be mistaken for an endpoint. */
export const PLACEHOLDER_TOKEN_URL = 'https://auth-url.invalid/';

export interface OpenApiOptions {
  /** The target's base URL, for `servers` (the document names only {base_url}). */
  baseUrl?: string;
  /** The OAuth 2 token endpoint, for the security scheme (the document does not show it). */
  tokenUrl?: string;
}

/** What a path parameter holds, keyed by the field of a case it is filled from (operations.ts). */
const PATH_PARAMETER_TEXT: Record<OperationSpec['pathParameters'][string], string> = {
  fiatAccountId: 'The fiat account ID, returned by the create operation of fiat accounts (section 4.1).',
};

const section = (schema: Json): string | undefined => (typeof schema['x-section'] === 'string' ? schema['x-section'] : undefined);

/** "Update a fiat account: request body (PUT ...)" -> "Update a fiat account". */
function summaryOf(spec: OperationSpec, registry: Pick<SchemaRegistry, 'schema'>): string {
  const title = registry.schema(spec.requestSchema).title;
  return typeof title === 'string' ? title.split(':')[0].trim() : spec.id;
}

/** `/v2/transfer/fiat-accounts/{id}` -> `transfer`: the area of the service (section 1). */
const areaOf = (spec: OperationSpec): string => spec.pathTemplate.split('/')[2];

const readingNote = (reading: DocumentedReading) => ({ id: reading.id, sections: reading.sections, reading: reading.reading });

function readingsFor(match: (target: ReadingTarget) => boolean) {
  return DOCUMENTED_READINGS.filter((r) => r.appliesTo.some(match)).map(readingNote);
}

function pathParameters(spec: OperationSpec, registry: Pick<SchemaRegistry, 'schema'>): Json[] {
  const response = registry.schema(spec.responseSchema);
  const properties = (response.properties ?? {}) as Record<string, Json>;
  return Object.entries(spec.pathParameters).map(([name, field]) => ({
    name,
    in: 'path',
    required: true,
    description: PATH_PARAMETER_TEXT[field],
    // The resource's own id property says what the path names (the fiat account's id: a UUID).
    schema: properties[name] ?? { type: 'string' },
  }));
}

function operationObject(spec: OperationSpec, registry: Pick<SchemaRegistry, 'schema'>): Json {
  const request = registry.schema(spec.requestSchema);
  const response = registry.schema(spec.responseSchema);
  const json = (name: string) => ({ 'application/json': { schema: { $ref: `${COMPONENTS}${componentName(name)}` } } });
  const parameters = pathParameters(spec, registry);
  return {
    operationId: spec.id,
    summary: summaryOf(spec, registry),
    description: `Section ${section(request) ?? '4'} of the document. Bodies are JSON with Content-Type application/json (section 4).`,
    tags: [areaOf(spec)],
    ...(parameters.length ? { parameters } : {}),
    requestBody: { required: true, content: json(spec.requestSchema) },
    responses: {
      '2XX': {
        description: `Success: a ${componentName(spec.responseSchema)} (section ${section(response) ?? '4'}). The document shows no success status code: any 2xx is a success.`,
        content: json(spec.responseSchema),
      },
      default: { description: 'Error status codes, error bodies and error codes are not shown by the document (section 7).' },
    },
    security: [{ [SECURITY_SCHEME]: [] }],
    'x-section': section(request),
    'x-conformance-rules': RULES.filter((r) => r.operation === spec.id).map(({ id, section, basis, title }) => ({ id, section, basis, title })),
    'x-readings': readingsFor((t) => 'operation' in t && t.operation === spec.id),
  };
}

/** The components, each with the readings that concern it; throws when a reading names a schema that is not among them. */
function schemaComponents(registry: Pick<SchemaRegistry, 'names' | 'schema'>): Record<string, Json> {
  const roots = OPERATION_IDS.flatMap((op) => [OPERATIONS[op].requestSchema, OPERATIONS[op].responseSchema]);
  const components = bundleSchemas(registry, roots, COMPONENTS);
  for (const reading of DOCUMENTED_READINGS) {
    for (const target of reading.appliesTo) {
      if (!('schema' in target)) continue;
      const component = components[componentName(target.schema)];
      if (!component) throw new Error(`reading ${reading.id} applies to schema ${target.schema}, which no operation uses`);
      component['x-readings'] = [...((component['x-readings'] as unknown[]) ?? []), readingNote(reading)];
    }
  }
  return components;
}

/**
 * The OpenAPI 3.1 document of the operations of `OPERATIONS`, from the schemas of `registry`.
 * Without `baseUrl` it has no `servers` (the document gives none); without `tokenUrl` the token
 * endpoint is {@link PLACEHOLDER_TOKEN_URL}; both say so in `x-readings`.
 */
export function buildOpenApiDocument(registry: Pick<SchemaRegistry, 'names' | 'schema' | 'hash'>, options: OpenApiOptions = {}): Json {
  const paths: Record<string, Json> = {};
  for (const op of OPERATION_IDS) {
    const spec = OPERATIONS[op];
    paths[spec.pathTemplate] = { ...paths[spec.pathTemplate], [spec.method.toLowerCase()]: operationObject(spec, registry) };
  }
  const areas = [...new Set(OPERATION_IDS.map((op: Operation) => areaOf(OPERATIONS[op])))];
  return {
    openapi: OPENAPI_VERSION,
    jsonSchemaDialect: DIALECT,
    info: {
      title: 'Fiat Account Update and Identity Creation Interface',
      version: 'v2',
      description:
        'The two operations of the API document: update of a fiat account (transfer area) and creation of an identity (identity area). ' +
        `Generated by ${TOOL_NAME} export openapi from the JSON Schemas the conformance harness judges with; x-section names the section of the document a part comes from, ` +
        'x-rule the rule of the harness that owns its errors, x-readings how the harness reads the document where it is silent or loose, and x-conformance-rules the rules judged per operation.',
      'x-generator': `${TOOL_NAME} ${TOOL_VERSION}`,
      'x-schemas-hash': registry.hash,
    },
    ...(options.baseUrl ? { servers: [{ url: options.baseUrl }] } : {}),
    'x-readings': readingsFor((t) => 'servers' in t),
    security: [{ [SECURITY_SCHEME]: [] }],
    tags: areas.map((name) => ({ name, description: `The ${name} area of the service (section 1).` })),
    paths,
    components: {
      schemas: schemaComponents(registry),
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: 'oauth2',
          description: 'OAuth 2 with the client credentials grant; every request carries Authorization: Bearer <ACCESS_TOKEN> (section 5).',
          flows: { clientCredentials: { tokenUrl: options.tokenUrl ?? PLACEHOLDER_TOKEN_URL, scopes: {} } },
          'x-readings': readingsFor((t) => 'security' in t),
        },
      },
    },
  };
}
