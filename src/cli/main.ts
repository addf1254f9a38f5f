/**
 * The `conformance` command: one subcommand per file in this folder, each a function
 * `(argv, io) => exit code`. Exit codes: 0 conformant / valid, 1 non-conformant / invalid,
 * 2 usage or configuration error, 3 target unreachable or authentication failed, 4 inconclusive,
 * 128 + the signal's number when a run is interrupted.
 */
import { config as loadDotenv } from 'dotenv';
import { processIO, type CliIO } from './io.ts';
import { exitCodeOfError } from '../core/errors.ts';
import { TOOL_NAME, TOOL_VERSION } from '../core/version.ts';

export type Command = (argv: string[], io: CliIO) => Promise<number>;

const COMMANDS: Record<string, { summary: string; load: () => Promise<Command> }> = {
  run: { summary: 'run the conformance suite against a target (default: the embedded server)', load: async () => (await import('./run.ts')).run },
  plan: {
    summary: 'print what `run` with the same options would send (per phase, per rule, accounts, identities, time); sends nothing',
    load: async () => (await import('./plan.ts')).plan,
  },
  serve: { summary: 'start the embedded reference server', load: async () => (await import('./serve.ts')).serve },
  validate: { summary: 'validate a captured JSON payload against a schema of the document', load: async () => (await import('./validate.ts')).validate },
  'self-test': {
    summary: 'run the harness against every fault of the embedded server and print what it catches',
    load: async () => (await import('./self-test.ts')).selfTest,
  },
  replay: {
    summary: 're-send the failing cases of a report (or every request of an exchanges.har) and say whether they still fail',
    load: async () => (await import('./replay.ts')).replay,
  },
  restore: {
    summary: "put a run's fiat accounts back from its journal (reports/restore-journal.json), verified field by field; safe to run twice",
    load: async () => (await import('./restore.ts')).restore,
  },
  diff: { summary: 'compare two reports: newly failing, newly passing, still failing', load: async () => (await import('./diff.ts')).diff },
  matrix: {
    summary: 'put the reports of several targets side by side: rules by target, observed contracts, what a client of one breaks on another',
    load: async () => (await import('./matrix.ts')).matrix,
  },
  drift: {
    summary: 'compare an OpenAPI document (JSON or YAML) with the schemas of the document: contradictions, tightenings of open points',
    load: async () => (await import('./drift.ts')).drift,
  },
  export: { summary: 'export the API as an OpenAPI 3.1 document built from the schemas', load: async () => (await import('./export.ts')).exportCommand },
  bundle: {
    summary: 'write the evidence bundle (.tar.gz with a manifest, optionally signed) of a report folder',
    load: async () => (await import('./bundle.ts')).bundle,
  },
  verify: {
    summary: "check an evidence bundle offline: every file's hash, the signature, the verdict recomputed from the rules",
    load: async () => (await import('./verify.ts')).verify,
  },
  keygen: { summary: 'make an Ed25519 key pair for signing evidence bundles', load: async () => (await import('./keygen.ts')).keygen },
  merge: {
    summary: 'join the reports of the shards of one run (run --shard i/n) into the report of the whole run',
    load: async () => (await import('./merge.ts')).merge,
  },
};

export function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  return [
    `usage: conformance <command> [options]     (${TOOL_NAME} ${TOOL_VERSION})`,
    '',
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`),
    '',
    'Run `conformance <command> --help` for the options of a command.',
    'Exit codes: 0 conformant, 1 non-conformant, 2 usage error, 3 target unreachable or auth failed,',
    '4 inconclusive, 130/143 interrupted by SIGINT/SIGTERM (the reports are written).',
  ].join('\n');
}

export async function main(argv: string[], io: CliIO = processIO()): Promise<number> {
  // .env fills the environment; flags still win (each command resolves flags over env).
  if (io.env === process.env) loadDotenv({ quiet: true });
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(usage());
    return name ? 0 : 2;
  }
  if (name === '--version' || name === '-V') {
    io.out(TOOL_VERSION);
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.err(`conformance: unknown command "${name}"; run \`conformance --help\` for the list.`);
    return 2;
  }
  try {
    return await (await command.load())(rest, io);
  } catch (error) {
    // An error meant for the user is one line and its exit code; anything else is a bug: the stack.
    const exitCode = exitCodeOfError(error);
    if (exitCode === undefined) throw error;
    io.err(`conformance ${name}: ${(error as Error).message}`);
    return exitCode;
  }
}
