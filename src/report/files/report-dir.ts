/**
 * The report folder, made ready before a run sends anything: created level by level, proven
 * writable, and cleared of the previous run's report files, so a run that fails or is
 * interrupted never leaves an old verdict beside its own files. Each refusal is one UsageError
 * line: `--report-dir X cannot be used: …; choose another folder`.
 */
import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { lstat, mkdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../../core/errors.ts';
import { kindOf, shownPath } from './output-file.ts';

const codeOf = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? (error as Error).message;

const refuse = (dir: string, why: string) => new UsageError(`--report-dir ${shownPath(dir)} cannot be used: ${why}; choose another folder`);

/**
 * Creates `dir` and the missing folders above it, one plain mkdir each, from the nearest existing
 * ancestor found with stat. Never a recursive mkdir: Node's retries forever where mkdir fails with
 * ENOENT under an existing folder (/proc/self/x). Resolves to the reason it cannot, in a few words.
 */
export async function ensureFolder(dir: string): Promise<string | undefined> {
  const missing: string[] = [];
  let at = path.resolve(dir);
  // Each step goes to the parent, so the walk ends at the root at the latest.
  for (;;) {
    let info: Stats;
    try {
      info = await stat(at);
    } catch (error) {
      const code = codeOf(error);
      const parent = path.dirname(at);
      // ENOTDIR: a file stands somewhere above; walking on finds it and names it.
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || parent === at) return `${shownPath(at)}: ${code}`;
      missing.push(at);
      at = parent;
      continue;
    }
    if (!info.isDirectory()) return `${shownPath(at)} is not a folder`;
    break;
  }
  for (const folder of missing.reverse()) {
    try {
      await mkdir(folder);
    } catch (error) {
      // Made meanwhile by another process: fine when it is a folder.
      if (codeOf(error) === 'EEXIST' && (await stat(folder).catch(() => undefined))?.isDirectory()) continue;
      return `cannot create ${shownPath(folder)}: ${codeOf(error)}`;
    }
  }
  return undefined;
}

/**
 * Makes `dir` ready for a run's reports, or throws a UsageError, before any request: the folder
 * exists (created when missing) and can be written, none of `ownFiles` (the report files and the
 * writers' temporary files) is anything but a regular file, and then those files are removed.
 * Nothing else in the folder is touched; nothing is removed when anything is refused.
 */
export async function prepareReportDir(dir: string, ownFiles: readonly string[]): Promise<void> {
  if (!dir.trim()) throw refuse(dir, 'the path is empty');
  const problem = await ensureFolder(dir);
  if (problem) throw refuse(dir, problem);
  const existing: string[] = [];
  for (const name of ownFiles) {
    const file = path.join(dir, name);
    let info: Stats;
    try {
      info = await lstat(file);
    } catch (error) {
      if (codeOf(error) === 'ENOENT') continue;
      throw refuse(dir, `${name} there cannot be examined (${codeOf(error)})`);
    }
    // Not a file this tool wrote: never overwrite nor remove it.
    if (!info.isFile()) throw refuse(dir, `${name} there is ${kindOf(info)}, not a report file`);
    existing.push(file);
  }
  const probe = path.join(dir, `.conformance-write-test-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await writeFile(probe, '', { flag: 'wx' });
  } catch (error) {
    throw refuse(dir, `it cannot be written (${codeOf(error)})`);
  }
  await rm(probe, { force: true }).catch(() => undefined);
  for (const file of existing) {
    try {
      await rm(file, { force: true });
    } catch (error) {
      throw refuse(dir, `the previous ${path.basename(file)} cannot be removed (${codeOf(error)})`);
    }
  }
}
