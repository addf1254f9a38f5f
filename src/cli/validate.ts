/**
 * `conformance validate <schema> <file|->`: validates a captured JSON payload against one schema
 * of the registry and prints "valid" or one line per error, `<instancePath>: <message> [section X]`.
 * Exit 0 valid, 1 invalid, 2 unknown schema, unreadable file or not JSON.
 * `conformance validate --list` prints the schema names with their titles.
 */
import type { CliIO } from './io.ts';
import { parseCommandArgs } from '../run/command-args.ts';
import { UsageError } from '../core/errors.ts';
import { parseJsonText, readInputFile } from '../core/json-file.ts';
import { registry, type SchemaRegistry } from '../schema/registry.ts';
import { formatSchemaError } from '../schema/format-error.ts';

const HELP = `usage: conformance validate <schema> <file|->
       conformance validate --list

Validates a JSON payload (a file, or standard input with -) against a schema of the document
and prints "valid" or one line per error: <instance path>: <message> [section X].
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
  // Branches of a combinator can report the same failure twice: print each line once.
  for (const line of new Set(errors.map(formatSchemaError))) io.out(line);
  return 1;
}
