/**
 * `conformance export openapi [--out FILE] [--base-url URL] [--auth-url URL]`: the OpenAPI 3.1
 * document of the API's two operations, built from schemas/ (src/schema/openapi.ts), on stdout or
 * into a file. One kind today; the first argument names it so that others can follow.
 */
import type { CliIO } from './io.ts';
import { printOrWrite } from './out-file.ts';
import { parseCommandArgs } from '../run/command-args.ts';
import { checkUrl } from '../run/run-config.ts';
import { UsageError } from '../core/errors.ts';
import { registry } from '../schema/registry.ts';
import { buildOpenApiDocument } from '../schema/openapi.ts';

const HELP = `usage: conformance export openapi [--out FILE] [--base-url URL] [--auth-url URL]

Writes the OpenAPI 3.1 document of the two operations (JSON), built from the schemas the harness
judges with: the limits of the document as maxProperties/maxLength, both placements of status and
metadata as anyOf, the readings of the document as x-readings notes citing its sections, and the
rules judged per operation as x-conformance-rules.

  --out FILE        write here instead of stdout
  --base-url URL    the servers entry (the document gives none)
  --auth-url URL    the token URL of the OAuth 2 client credentials flow (the document gives none)`;

const OPTIONS = {
  out: { type: 'string' },
  'base-url': { type: 'string' },
  'auth-url': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const KINDS = ['openapi'];

export async function exportCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('export', argv, OPTIONS, true);
  if (values.help) {
    io.out(HELP);
    return 0;
  }
  const [kind, ...extra] = positionals;
  if (!kind) throw new UsageError(`say what to export: conformance export ${KINDS.join('|')}`);
  if (!KINDS.includes(kind)) throw new UsageError(`cannot export "${kind}"; known: ${KINDS.join(', ')}`);
  if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"; run \`conformance export --help\``);
  for (const flag of ['base-url', 'auth-url'] as const) if (values[flag] !== undefined) checkUrl(`--${flag}`, values[flag]);
  const document = buildOpenApiDocument(registry(), {
    ...(values['base-url'] ? { baseUrl: values['base-url'].replace(/\/+$/, '') } : {}),
    ...(values['auth-url'] ? { tokenUrl: values['auth-url'] } : {}),
  });
  await printOrWrite(JSON.stringify(document, null, 2) + '\n', values.out, io);
  return 0;
}
