/**
 * `conformance serve`: the embedded reference server on its own, until SIGINT or SIGTERM.
 * Prints where it listens, its client id and its seeded fiat account ids. Its client secret and
 * static token are never printed (no secret in a console line): they go to a credentials file
 * readable by the user alone, in .env form, removed when the server stops.
 */
import { chmod, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CliIO } from './io.ts';
import { parseCommandArgs } from '../run/command-args.ts';
import { wholeNumberFlag } from '../run/whole-number-flag.ts';
import { UsageError } from '../core/errors.ts';
import { createReferenceServer, TOKEN_PATH, type ReferenceServer } from '../server/server.ts';
import { TOKEN_LIFETIME_SECONDS } from '../server/auth.ts';
import { FAULTS, isFaultName } from '../server/faults.ts';
import { parseReading } from '../server/reading.ts';
import { isLoopbackHost } from '../core/url.ts';
import { getRule } from '../core/catalogue.ts';

const HELP = `usage: conformance serve [--port N] [--host 127.0.0.1] [--fault NAME] [--reading key=value]...
                         [--strict] [--credentials-file PATH] [--list-faults]

Starts the embedded reference server (the API document read faithfully, in memory) and runs
until Ctrl+C (SIGINT) or SIGTERM.
  --port N             port to listen on (default 0: a free port, printed)
  --host H             address to listen on (default 127.0.0.1)
  --fault NAME         inject one defect (see --list-faults)
  --reading key=value  a reading where the document allows several (repeatable):
                       placement=nested|top|both, reject-status=400|422,
                       duplicate-ref-id=conflict|same, created-status=200|201,
                       metadata-update=replace|merge,
                       tax-entry-members=optional|required,
                       ref-id-case=exact|insensitive,
                       empty-body=refused|empty-object,
                       update-nulls=as-typed|ignored
  --strict             restrict the open points as the vendor's OpenAPI does
  --credentials-file PATH
                       where the server's credentials are written, mode 600, in .env form
                       (default: conformance-serve-PORT.env in the temp folder); copy it to
                       .env and \`conformance run\` tests this server. Removed on stop.
  --list-faults        print every fault with its rule, basis and description
  -h, --help           show this help

Tokens: the server is an OAuth 2 client-credentials issuer of its own. POST to its token URL,
BASE_URL${TOKEN_PATH} (printed at start), form-encoded grant_type=client_credentials with the
client id and secret in the body (client_id, client_secret) or as HTTP Basic; a token lasts
${TOKEN_LIFETIME_SECONDS} s. It also takes one static bearer token. The client id is printed at start; the
client secret and the static token are random on every start and never printed: they are in the
credentials file (CONFORMANCE_CLIENT_SECRET, CONFORMANCE_TOKEN; CONFORMANCE_SERVE_TOKEN, its old
name, holds the same token). \`set -a; . FILE; set +a\` puts them in a shell, for the curl lines of
a report.`;

export interface ServeOptions {
  /** Stops the server when aborted; default: the first SIGINT or SIGTERM. */
  stop?: AbortSignal;
}

export async function serve(argv: string[], io: CliIO, options: ServeOptions = {}): Promise<number> {
  const { values } = parseCommandArgs('serve', argv, {
    port: { type: 'string' },
    host: { type: 'string' },
    fault: { type: 'string' },
    reading: { type: 'string', multiple: true },
    strict: { type: 'boolean' },
    'credentials-file': { type: 'string' },
    'list-faults': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.out(HELP);
    return 0;
  }
  if (values['list-faults']) {
    io.out(faultTable());
    return 0;
  }
  const port = wholeNumberFlag('--port', values.port, { max: 65535 }) ?? 0;
  const host = values.host ?? '127.0.0.1';
  if (values.fault !== undefined && !isFaultName(values.fault)) {
    throw new UsageError(`unknown fault "${values.fault}"; \`conformance serve --list-faults\` lists them`);
  }
  const reading = parseReading(Object.fromEntries((values.reading ?? []).map(splitPair)));

  let server: ReferenceServer;
  try {
    server = await createReferenceServer({ port, host, reading, strict: values.strict ?? false, ...(values.fault ? { fault: values.fault } : {}) });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'EADDRINUSE' ? 'the port is in use; choose another with --port' : `${(error as Error).message}; check --host and --port`;
    throw new UsageError(`cannot listen on ${host}:${port}: ${why}`);
  }

  io.out(
    `embedded reference server (${Object.entries(server.reading)
      .map(([k, v]) => `${k}=${v}`)
      .join(', ')}${server.strict ? '; strict: open points restricted' : ''}${server.fault ? `; fault ${server.fault}` : ''})`,
  );
  io.out(`base URL:   ${server.baseUrl}`);
  io.out(`token URL:  ${server.tokenUrl}`);
  io.out(`client id:  ${server.clientId}`);
  io.out(`fiat account ids: ${server.fiatAccountIds.join(' ')}`);
  const chosen = values['credentials-file'];
  const credentials = chosen ?? path.join(tmpdir(), `conformance-serve-${new URL(server.baseUrl).port}.env`);
  try {
    // The default file is ours (left over from a server killed on this port); a file the user
    // names is never overwritten: it may be their own .env.
    if (!chosen) await rm(credentials, { force: true });
    await writeFile(credentials, credentialsFile(server), { mode: 0o600, flag: 'wx' });
    await chmod(credentials, 0o600); // the mode of writeFile is filtered by the umask
  } catch (error) {
    await server.close();
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      code === 'EEXIST'
        ? `the credentials file ${credentials} exists already: remove it or choose another path with --credentials-file`
        : `cannot write the credentials file ${credentials}: ${code ?? (error as Error).message}`,
    );
  }
  io.out(`credentials: ${credentials} (mode 600; copy it to .env to point \`conformance run\` here)`);
  if (!isLoopbackHost(host)) io.err(`warning: listening on ${host}, reachable from other machines; anyone with the credentials can call it`);
  io.out('stop with Ctrl+C or SIGTERM');

  await untilStopped(options.stop);
  await server.close();
  await rm(credentials, { force: true });
  io.out('stopped');
  return 0;
}

/** The server's settings as `conformance run` reads them from .env, plus the static token for curl. */
export function credentialsFile(server: ReferenceServer): string {
  return [
    '# conformance serve: credentials of this server instance, gone when it stops',
    `CONFORMANCE_BASE_URL=${server.baseUrl}`,
    `CONFORMANCE_AUTH_URL=${server.tokenUrl}`,
    `CONFORMANCE_CLIENT_ID=${server.clientId}`,
    `CONFORMANCE_CLIENT_SECRET=${server.clientSecret}`,
    `CONFORMANCE_FIAT_ACCOUNT_IDS=${server.fiatAccountIds.join(',')}`,
    '# a static bearer token for calls by hand, as every curl line of a report reads it: -H "Authorization: Bearer $CONFORMANCE_TOKEN"',
    '# (conformance run uses the client credentials above when both are in the environment)',
    `CONFORMANCE_TOKEN=${server.staticToken}`,
    '# the same token under its old name, for scripts written before it was CONFORMANCE_TOKEN',
    `CONFORMANCE_SERVE_TOKEN=${server.staticToken}`,
    '',
  ].join('\n');
}

function splitPair(pair: string): [string, string] {
  const at = pair.indexOf('=');
  if (at <= 0 || at === pair.length - 1) throw new UsageError(`--reading takes key=value, e.g. placement=top; got "${pair}"`);
  return [pair.slice(0, at), pair.slice(at + 1)];
}

function untilStopped(stop?: AbortSignal): Promise<void> {
  if (stop) return stop.aborted ? Promise.resolve() : new Promise((resolve) => stop.addEventListener('abort', () => resolve(), { once: true }));
  return new Promise((resolve) => {
    const onSignal = () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolve();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

/** One line per fault: name, rule, basis, description (and why --strict hides it, when it does). */
export function faultTable(): string {
  const rows = FAULTS.map((f) => [
    f.name,
    f.ruleId,
    getRule(f.ruleId).basis,
    f.description + (f.hiddenByStrict ? ` [hidden with --strict: ${f.hiddenByStrict}]` : ''),
  ]);
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i].length), ['fault', 'rule', 'basis'][i].length));
  const line = (r: string[]) => r.map((cell, i) => (i < 3 ? cell.padEnd(widths[i]) : cell)).join('  ');
  return [line(['fault', 'rule', 'basis', 'description']), ...rows.map(line)].join('\n');
}
