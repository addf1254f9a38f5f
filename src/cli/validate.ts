/**
 * `conformance validate <schema> <file|->`: validates a captured JSON payload against one schema
 * of the registry and prints "valid" or one line per error, `<instancePath>: <message> (received …;
 * allowed …) [section X]`. Of a failed anyOf, only the branch that applies is told (applicable-branch.ts).
 * Exit 0 valid, 1 invalid, 2 unknown schema, unreadable file or not JSON.
 * `conformance validate --list` prints the schema names with their titles.
 */
import type { CliIO } from './io.ts';
import { parseCommandArgs } from '../run/command-args.ts';
import { UsageError } from '../core/errors.ts';
import { parseJsonText, readInputFile } from '../core/json-file.ts';
import { registry, type SchemaRegistry } from '../schema/registry.ts';
import { applicableErrors } from '../schema/applicable-branch.ts';
import type { SchemaError } from '../schema/registry.ts';

const HELP = `usage: conformance validate <schema> <file|->
       conformance validate --list

Validates a JSON payload (a file, or standard input with -) against a schema of the document
and prints "valid" or one line per error: <instance path>: <message> (received and allowed
values) [section X]. Of alternatives (the status at the top level or in the instructions), the
one the payload follows is told, not every one.
<schema> is a name from --list (a file name of schemas/ without .schema.json; the full file
name is accepted too). --list prints the names with their titles.
Exit 0 valid, 1 invalid, 2 unknown schema, unreadable file or not JSON.`;

const SUFFIX = '.schema.json';

function schemaLines(schemas: SchemaRegistry): string[] {
  const names = [...schemas.names()].sort();
  const width = Math.max(...names.map((n) => n.length));
  return names.map((name) => {
    const title = schemas.schema(name).title;
    return typeof title === 'string' ? `${name.padEnd(width)}  ${title}` : name;
  });
}

function schemaName(given: string, schemas: SchemaRegistry): string {
  const name = given.endsWith(SUFFIX) ? given.slice(0, -SUFFIX.length) : given;
  if (!schemas.has(name)) {
    throw new UsageError(`unknown schema "${given}"; known: ${[...schemas.names()].sort().join(', ')}`);
  }
  return name;
}

async function readPayload(source: string, io: CliIO): Promise<unknown> {
  if (source !== '-') return parseJsonText(await readInputFile(source), source);
  let text: string;
  try {
    text = await io.readStdin();
  } catch (error) {
    throw new UsageError(`cannot read standard input: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  return parseJsonText(text, 'standard input');
}

/** The `validate` subcommand. */
export async function validate(argv: string[], io: CliIO): Promise<number> {
  const parsed = parseCommandArgs('validate', argv, { list: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, true);
  if (parsed.values.help) {
    io.out(HELP);
    return 0;
  }
  const schemas = registry();
  if (parsed.values.list) {
    for (const line of schemaLines(schemas)) io.out(line);
    return 0;
  }
  if (parsed.positionals.length !== 2) {
    throw new UsageError('give a schema and a file (or - for standard input): conformance validate fiat-account response.json');
  }
  const [given, source] = parsed.positionals;
  const name = schemaName(given, schemas);
  const data = await readPayload(source, io);
  const errors = schemas.validate(name, data);
  if (!errors.length) {
    io.out('valid');
    return 0;
  }
  // A failed combinator first (it says what was wanted), then the branch that applies; each line once.
  const told = applicableErrors(errors).sort((a, b) => Number(Boolean(b.branches)) - Number(Boolean(a.branches)));
  for (const line of new Set(told.map(errorLine))) io.out(line);
  return 1;
}

/** Longest received value quoted. */
const VALUE_WIDTH = 80;

/** `<path>: <message> (received "ACTIVE"; allowed: PENDING, APPROVED, REJECTED) [section 2.1]`. */
export function errorLine(error: SchemaError): string {
  const values = valuesOf(error);
  return `${error.instancePath || '(root)'}: ${error.message}${values ? ` (${values})` : ''}${error.section ? ` [section ${error.section}]` : ''}`;
}

/** What came back and what the schema allows, where ajv's message says neither. */
function valuesOf(error: SchemaError): string | undefined {
  const { data, params = {} } = error;
  // An object or array would copy the payload into the line; a missing property has no value.
  if (data === undefined || (data !== null && typeof data === 'object') || error.branches) return undefined;
  const quoted = [...JSON.stringify(data)];
  const received = `received ${quoted.length > VALUE_WIDTH ? `${quoted.slice(0, VALUE_WIDTH).join('')}…` : quoted.join('')}`;
  if (error.keyword === 'enum' && Array.isArray(params.allowedValues)) return `${received}; allowed: ${params.allowedValues.map(String).join(', ')}`;
  if (error.keyword === 'const') return `${received}; allowed: ${JSON.stringify(params.allowedValue)}`;
  if (error.keyword === 'type') return `${received}, ${data === null ? 'null' : typeof data}`;
  if (error.keyword === 'maxLength' || error.keyword === 'minLength') return `${received}, ${[...String(data)].length} characters`;
  return received;
}
