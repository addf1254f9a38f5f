import type { SchemaError } from './registry.ts';

/** A schema error as one line: `<instance path or (root)>: <message> [section X]`. */
export function formatSchemaError(error: SchemaError): string {
  return `${error.instancePath || '(root)'}: ${error.message}${error.section ? ` [section ${error.section}]` : ''}`;
}
