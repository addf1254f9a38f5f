/**
 * The in-toto Statement v1 and Test Result v0.1 as JSON Schemas (schemas/in-toto/, written from
 * the published spec text, each citing its source commit), validated with the project's ajv
 * registry: a statement is checked for the published types and required fields, not only for what
 * our own writer puts there. Not part of the API schemas: `schemasHash` does not cover them.
 */
import path from 'node:path';
import { createRegistry, SCHEMA_DIR, type SchemaRegistry } from '../../../../schema/registry.ts';
import { TEST_RESULT_PREDICATE } from './test-result-statement.ts';

let inToto: SchemaRegistry | undefined;
const schemas = (): SchemaRegistry => {
  inToto ??= createRegistry(path.join(SCHEMA_DIR, 'in-toto'));
  return inToto;
};

/** What is wrong with `value` as a Statement v1 (and, of that type, its Test Result predicate), as lines; none when valid. */
export function statementProblems(value: unknown): string[] {
  const say = (where: string) => (e: { instancePath: string; message: string }) => `${where}${e.instancePath || ''}: ${e.message}`;
  const problems = schemas().validate('statement-v1', value).map(say('statement'));
  const statement = value as { predicateType?: unknown; predicate?: unknown } | null;
  if (problems.length === 0 && statement?.predicateType === TEST_RESULT_PREDICATE)
    problems.push(
      ...schemas()
        .validate('test-result-v0.1', statement.predicate ?? {})
        .map(say('predicate')),
    );
  return problems;
}
