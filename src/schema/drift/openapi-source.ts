/**
 * An OpenAPI 3.0 or 3.1 document from its text, JSON or YAML (YAML 1.2 is a superset of JSON, but
 * JSON is parsed as JSON first so that its errors read as JSON's). Anything else is one UsageError
 * line: not JSON nor YAML, not an object, Swagger 2.0, no `paths`.
 */
import { parse as parseYaml } from 'yaml';
import { UsageError } from '../../core/errors.ts';
import { oneLine } from '../../core/text.ts';
import type { Json } from './schema-view.ts';

function parseText(text: string, label: string): unknown {
  if (!text.trim()) throw new UsageError(`${label} is empty`);
  if (/^\s*[{[]/.test(text)) {
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new UsageError(`${label} is not JSON (${oneLine((error as Error).message, 160)})`);
    }
  }
  try {
    // The vendors' documents are large: no alias expansion limit is needed, but keep merge keys (<<) as YAML 1.1 files use them.
    return parseYaml(text, { merge: true, maxAliasCount: 10_000 });
  } catch (error) {
    throw new UsageError(`${label} is neither JSON nor YAML (${oneLine((error as Error).message, 160)})`);
  }
}

/** The document, or a UsageError saying why it is not an OpenAPI 3.0 or 3.1 document. */
export function parseOpenApi(text: string, label: string): Json {
  const document = parseText(text, label);
  if (typeof document !== 'object' || document === null || Array.isArray(document)) throw new UsageError(`${label} is not an OpenAPI document (not an object)`);
  const doc = document as Json;
  if (typeof doc.swagger === 'string') throw new UsageError(`${label} is Swagger ${doc.swagger}; give an OpenAPI 3.0 or 3.1 document`);
  if (typeof doc.openapi !== 'string' || !/^3\.[01]\./.test(doc.openapi)) {
    throw new UsageError(`${label} is not an OpenAPI 3.0 or 3.1 document (openapi: ${oneLine(JSON.stringify(doc.openapi ?? null), 40)})`);
  }
  if (typeof doc.paths !== 'object' || doc.paths === null) throw new UsageError(`${label} has no paths: it describes no operation to compare`);
  return doc;
}
