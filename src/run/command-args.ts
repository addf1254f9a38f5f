import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../core/errors.ts';

type Options = NonNullable<ParseArgsConfig['options']>;
// parseArgs's result type is not exported by @types/node; declaration emit needs it spelled out.
type Parsed<O extends Options, P extends boolean> = ReturnType<typeof parseArgs<{ args: string[]; options: O; strict: true; allowPositionals: P }>>;

/**
 * Parses a command's flags strictly; an unknown or malformed flag becomes one UsageError line
 * that points at the command's help.
 */
export function parseCommandArgs<const O extends Options, const P extends boolean = false>(
  command: string,
  argv: string[],
  options: O,
  allowPositionals?: P,
): Parsed<O, P> {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: (allowPositionals ?? false) as P });
  } catch (error) {
    // Node's message can span lines (an ambiguous value ends with how to pass it): keep them all, on one line.
    const message = (error as Error).message
      .split('\n')
      .map((line) => line.trim().replace(/\.$/, ''))
      .filter(Boolean)
      .join('; ');
    throw new UsageError(`${message}; run \`conformance ${command} --help\` for the options`);
  }
}
