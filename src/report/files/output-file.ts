/**
 * A file the tool is about to write whole (the evidence bundle), checked before anything is sent
 * (docs/design.md 5.10): a path that exists and is not a regular file (a folder, a symbolic link,
 * a device, a FIFO, a socket) is refused, never replaced (a rename over /dev/null makes it a
 * plain file), and the folder it goes in must exist and take a new file. The write itself checks
 * again, just before its rename (writeWholeFile), for what appeared during the run.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream, type Stats } from 'node:fs';
import type { Writable } from 'node:stream';
import { lstat, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../../core/errors.ts';

const codeOf = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? (error as Error).message;

/** A path as a console line can hold it: quoted when it carries control characters (a new line). */
export const shownPath = (p: string): string => (/[\u0000-\u001F\u007F]/.test(p) ? JSON.stringify(p) : p);

/** What stands at a path that is not a regular file. */
export function kindOf(info: Stats): string {
  if (info.isDirectory()) return 'a folder';
  if (info.isSymbolicLink()) return 'a symbolic link';
  if (info.isFIFO()) return 'a FIFO';
  if (info.isSocket()) return 'a socket';
  return 'a device';
}

/** Why `file` cannot take what the tool writes there, in a few words; undefined when it can. Never follows a link. */
export async function nonRegularFile(file: string): Promise<string | undefined> {
  try {
    const info = await lstat(file);
    return info.isFile() ? undefined : `it is ${kindOf(info)}, not a regular file, and is never replaced`;
  } catch (error) {
    // ENOTDIR: a file stands where a folder above it should be; the folder check names it.
    const code = codeOf(error);
    return code === 'ENOENT' || code === 'ENOTDIR' ? undefined : `it cannot be examined (${code})`;
  }
}

/** Why `file` cannot be written whole, in a few words; undefined when it can: the path, then its folder. */
export async function outputFileProblem(file: string): Promise<string | undefined> {
  if (!file.trim()) return 'the path is empty';
  const standing = await nonRegularFile(file);
  if (standing) return standing;
  const folder = path.dirname(path.resolve(file));
  try {
    if (!(await stat(folder)).isDirectory()) return `${shownPath(folder)} is not a folder`;
  } catch (error) {
    const code = codeOf(error);
    return code === 'ENOENT' || code === 'ENOTDIR'
      ? `the folder ${shownPath(folder)} does not exist`
      : `the folder ${shownPath(folder)} cannot be examined (${code})`;
  }
  // The file is written beside itself and renamed: the folder must take a new file.
  const probe = partialName(file);
  try {
    await writeFile(probe, '', { flag: 'wx' });
  } catch (error) {
    return `the folder ${shownPath(folder)} cannot be written (${codeOf(error)})`;
  }
  await rm(probe, { force: true }).catch(() => undefined);
  return undefined;
}

/** Throws the one line that refuses `file` for `flag` (`--bundle`, `--out`), before any request. */
export async function checkOutputFile(flag: string, file: string): Promise<void> {
  const problem = await outputFileProblem(file);
  if (problem) throw new UsageError(`${flag} ${shownPath(file)} cannot be used: ${problem}; give another file`);
}

/**
 * Writes `bytes` to `file` whole or not at all: into a temporary file of its own beside it
 * (created exclusively, so no link there is followed), then renamed over `file`, unless what is
 * at `file` now is not a regular file (looked at again just before the rename). Throws a
 * UsageError naming `what` and the file.
 */
export async function writeWholeFile(file: string, bytes: Buffer, what: string): Promise<void> {
  await writeWholeFileFrom(file, async (partial) => writeFile(partial, bytes, { flag: 'wx' }), what);
}

/**
 * Writes `file` whole or not at all as writeWholeFile does, its bytes streamed: `write` gets a
 * stream into the temporary file (created exclusively) and resolves once it wrote everything.
 */
export async function writeWholeFileStreamed(file: string, write: (out: Writable) => Promise<void>, what: string): Promise<void> {
  await writeWholeFileFrom(
    file,
    async (partial) => {
      const out = createWriteStream(partial, { flags: 'wx' });
      try {
        await write(out);
      } finally {
        out.destroy();
      }
    },
    what,
  );
}

/** The temporary file written by `write`, then renamed over `file` unless something other than a regular file stands there now. */
async function writeWholeFileFrom(file: string, write: (partial: string) => Promise<void>, what: string): Promise<void> {
  const partial = partialName(file);
  const fail = (why: string) => new UsageError(`${what} cannot be written to ${shownPath(file)} (${why})`);
  try {
    await write(partial);
    const standing = await nonRegularFile(file);
    if (standing) throw fail(standing);
    await rename(partial, file);
  } catch (error) {
    await rm(partial, { force: true }).catch(() => undefined);
    throw error instanceof UsageError ? error : fail(codeOf(error));
  }
}

/** A temporary name beside `file` that no other writer picks. */
const partialName = (file: string): string => `${file}.${process.pid}-${randomBytes(4).toString('hex')}.partial`;
