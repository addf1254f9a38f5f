import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Where a command writes and what environment it sees; tests pass their own. */
export interface CliIO {
  out: (line: string) => void;
  err: (line: string) => void;
  /** Environment after .env is loaded; the only place commands read settings from. */
  env: Record<string, string | undefined>;
  /** True when stdout is a terminal (progress bar instead of plain lines). */
  isTTY: boolean;
  /** Standard input, for `validate <schema> -`. */
  readStdin: () => Promise<string>;
}

/** A user-facing error: printed as one line, exit code attached. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = 2,
  ) {
    super(message);
  }
}

export function processIO(): CliIO {
  return {
    out: (line) => process.stdout.write(line + '\n'),
    err: (line) => process.stderr.write(line + '\n'),
    env: process.env,
    isTTY: Boolean(process.stdout.isTTY),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
  };
}

/**
 * Parses a command's flags strictly; an unknown or malformed flag becomes one UsageError line
 * that points at the command's help.
 */
export function parseCommandArgs<const O extends NonNullable<ParseArgsConfig['options']>, const P extends boolean = false>(
  command: string,
  argv: string[],
  options: O,
  allowPositionals?: P,
) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: (allowPositionals ?? false) as P });
  } catch (error) {
    throw new UsageError(`${(error as Error).message.split('\n')[0]}; run \`conformance ${command} --help\` for the options`);
  }
}
