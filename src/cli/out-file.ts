/**
 * `--out FILE` of the commands that print one document (export, matrix): the text on stdout, or
 * into the file with `wrote FILE` on stderr. A file that cannot be written is a usage error.
 */
import { writeFile } from 'node:fs/promises';
import { UsageError } from '../core/errors.ts';
import type { CliIO } from './io.ts';

/** Prints `text` on stdout when `out` is undefined, else writes it to `out`. */
export async function printOrWrite(text: string, out: string | undefined, io: CliIO): Promise<void> {
  if (out === undefined) {
    io.out(text.trimEnd());
    return;
  }
  if (!out.trim()) throw new UsageError('--out is empty: give a file, or leave the flag out for stdout');
  try {
    await writeFile(out, text.endsWith('\n') ? text : `${text}\n`, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot write ${out}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  io.err(`wrote ${out}`);
}
