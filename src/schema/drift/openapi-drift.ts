/**
 * `conformance drift`'s comparison: the request and success-response schemas of our two
 * operations (schemas/) against those of an OpenAPI 3.0 or 3.1 document. Operations are matched
 * by operationId (any letter case) or by method and path (the document's paths start with the
 * version segment v2, an OpenAPI's often leave it to `servers`). Pure: no file, no environment.
 */
import { OPERATIONS, OPERATION_IDS, type Operation } from '../../core/operations.ts';
import type { SchemaRegistry } from '../registry.ts';
import { DRIFT_KINDS, type DriftFinding, type DriftKind, type DriftOperation, type DriftResult } from './drift-finding.ts';
import { walkBody } from './drift-walk.ts';
import { guaranteedValues } from './guaranteed-values.ts';
import { atPointer, openApiResolver, ourResolver, ourRoot } from './resolvers.ts';
import { childPointer, type Fragment, type Json, isObject } from './schema-view.ts';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];
const template = (path: string) => path.replace(/\{[^}]*\}/g, '{}').replace(/\/$/, '');

interface Found {
  method: string;
  path: string;
  operation: Json;
  pointer: string;
}

function findOperation(document: Json, op: Operation): Found | undefined {
  const spec = OPERATIONS[op];
  const ours = template(spec.pathTemplate);
  const candidates: Found[] = [];
  for (const [path, item] of Object.entries(document.paths as Json)) {
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (isObject(operation)) candidates.push({ method, path, operation, pointer: childPointer('#/paths', path, method) });
    }
  }
  const byId = candidates.find((c) => typeof c.operation.operationId === 'string' && c.operation.operationId.toLowerCase() === op.toLowerCase());
  const theirs = (c: Found) => template(c.path);
  return (
    byId ?? candidates.find((c) => c.method === spec.method.toLowerCase() && theirs(c).length > 1 && (ours.endsWith(theirs(c)) || theirs(c).endsWith(ours)))
  );
}

/** Follows a `$ref` of an operation's part (a request body, a response) within the document. */
function follow(document: Json, value: unknown, pointer: string): { value: unknown; pointer: string } {
  let current = { value, pointer };
  for (let hops = 0; hops < 10 && isObject(current.value) && typeof current.value.$ref === 'string' && current.value.$ref.startsWith('#'); hops++) {
    const ref = current.value.$ref;
    current = { value: atPointer(document, ref.slice(1)), pointer: ref };
  }
  return current;
}

/** The JSON schema of a request body or a response: application/json, else the first JSON-like content. */
function jsonSchemaOf(document: Json, part: unknown, pointer: string): Fragment | undefined {
  const resolved = follow(document, part, pointer);
  if (!isObject(resolved.value) || !isObject(resolved.value.content)) return undefined;
  const content = resolved.value.content;
  const type = Object.keys(content).find((t) => t === 'application/json') ?? Object.keys(content).find((t) => /json/i.test(t));
  const media = type ? content[type] : undefined;
  if (!type || !isObject(media) || !isObject(media.schema)) return undefined;
  return { schema: media.schema, pointer: childPointer(resolved.pointer, 'content', type, 'schema') };
}

function successResponse(found: Found): { value: unknown; pointer: string } | undefined {
  const responses = found.operation.responses;
  if (!isObject(responses)) return undefined;
  const code = Object.keys(responses)
    .filter((c) => /^2(\d\d|XX)$/i.test(c))
    .sort()[0];
  return code ? { value: responses[code], pointer: childPointer(found.pointer, 'responses', code) } : undefined;
}

/** Compares every operation of ours with the OpenAPI document's. */
export function compareWithOpenApi(document: Json, registry: Pick<SchemaRegistry, 'schema' | 'has'>): DriftResult {
  const schemas = OPERATION_IDS.flatMap((op) => [OPERATIONS[op].requestSchema, OPERATIONS[op].responseSchema]);
  const shown = guaranteedValues(registry, schemas);
  const findings: DriftFinding[] = [];
  const operations: DriftOperation[] = [];
  for (const operation of OPERATION_IDS) {
    const spec = OPERATIONS[operation];
    const found = findOperation(document, operation);
    operations.push({ operation, ...(found ? { openapi: `${found.method.toUpperCase()} ${found.path}` } : {}) });
    const notCompared = (direction: 'request' | 'response', theirs: string, why: string) => {
      const ours = `${direction === 'request' ? spec.requestSchema : spec.responseSchema}.schema.json#`;
      findings.push({ kind: 'not-compared', operation, direction, field: '(body)', keyword: '', ours, theirs, document: '', openapi: why, reason: why });
    };
    if (!found) {
      for (const direction of ['request', 'response'] as const)
        notCompared(direction, '#/paths', `no operation ${spec.method} ${spec.pathTemplate} (operationId ${operation})`);
      continue;
    }
    const bodies = [
      {
        direction: 'request' as const,
        ours: spec.requestSchema,
        theirs: jsonSchemaOf(document, found.operation.requestBody, `${found.pointer}/requestBody`),
        at: `${found.pointer}/requestBody`,
      },
      (() => {
        const success = successResponse(found);
        return {
          direction: 'response' as const,
          ours: spec.responseSchema,
          theirs: success && jsonSchemaOf(document, success.value, success.pointer),
          at: `${found.pointer}/responses`,
        };
      })(),
    ];
    for (const body of bodies) {
      if (!body.theirs) {
        notCompared(body.direction, body.at, `no JSON schema for the ${body.direction === 'request' ? 'request body' : 'success response (2xx)'}`);
        continue;
      }
      const sides = { operation, direction: body.direction, ours: ourResolver(registry), theirs: openApiResolver(document), shown };
      findings.push(...walkBody(sides, ourRoot(registry, body.ours), body.theirs));
    }
  }
  const counts = Object.fromEntries(DRIFT_KINDS.map((k) => [k, findings.filter((f) => f.kind === k).length])) as Record<DriftKind, number>;
  return { openapiVersion: String(document.openapi), operations, findings, counts };
}
