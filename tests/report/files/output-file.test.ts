/**
 * An output file (the evidence bundle) is checked before the run: what is at its path and is not
 * a regular file is refused, never replaced, and a missing folder is an error; the write checks
 * again just before its rename, for what appeared meanwhile.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/core/errors.ts';
import { checkOutputFile, outputFileProblem, writeWholeFile, writeWholeFileStreamed } from '../../../src/report/files/output-file.ts';

let root: string;
beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'conformance-output-file-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const fresh = (name: string) => {
  const dir = path.join(root, name);
  mkdirSync(dir);
  return dir;
};
const linux = process.platform === 'linux';

describe('outputFileProblem', () => {
  it('takes a new file in an existing folder, and a regular file (replaced whole)', async () => {
    const dir = fresh('fine');
    writeFileSync(path.join(dir, 'old.tar.gz'), 'old');
    expect(await outputFileProblem(path.join(dir, 'new.tar.gz'))).toBeUndefined();
    expect(await outputFileProblem(path.join(dir, 'old.tar.gz'))).toBeUndefined();
    // The probe of the folder leaves nothing behind.
    expect(readdirSync(dir)).toEqual(['old.tar.gz']);
  });

  it('refuses a folder, a symbolic link (even to a regular file) and a FIFO', async () => {
    const dir = fresh('kinds');
    writeFileSync(path.join(dir, 'target'), 'keep');
    symlinkSync(path.join(dir, 'target'), path.join(dir, 'link'));
    expect(await outputFileProblem(dir)).toBe('it is a folder, not a regular file, and is never replaced');
    expect(await outputFileProblem(path.join(dir, 'link'))).toBe('it is a symbolic link, not a regular file, and is never replaced');
    if (linux) {
      execFileSync('mkfifo', [path.join(dir, 'fifo')]);
      expect(await outputFileProblem(path.join(dir, 'fifo'))).toBe('it is a FIFO, not a regular file, and is never replaced');
    }
  });

  it.runIf(linux)('refuses a device: /dev/null stays a device', async () => {
    expect(await outputFileProblem('/dev/null')).toBe('it is a device, not a regular file, and is never replaced');
    expect(lstatSync('/dev/null').isCharacterDevice()).toBe(true);
  });

  it('refuses a file in a missing folder, under a file, and an empty path', async () => {
    const dir = fresh('missing');
    writeFileSync(path.join(dir, 'plain'), '');
    expect(await outputFileProblem(path.join(dir, 'no', 'such', 'b.tar.gz'))).toBe(`the folder ${path.join(dir, 'no', 'such')} does not exist`);
    expect(await outputFileProblem(path.join(dir, 'plain', 'b.tar.gz'))).toBe(`${path.join(dir, 'plain')} is not a folder`);
    expect(await outputFileProblem(' ')).toBe('the path is empty');
    expect(existsSync(path.join(dir, 'no'))).toBe(false);
  });

  it('checkOutputFile refuses in one line naming the flag', async () => {
    const error = await checkOutputFile('--bundle', fresh('flag')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(/^--bundle .*flag cannot be used: it is a folder, not a regular file, and is never replaced; give another file$/);
  });
});

describe('writeWholeFile', () => {
  it('writes the file whole, replacing a regular file, and leaves no temporary file', async () => {
    const dir = fresh('write');
    const file = path.join(dir, 'b.tar.gz');
    writeFileSync(file, 'old');
    await writeWholeFile(file, Buffer.from('new'), 'the bundle');
    expect(readFileSync(file, 'utf8')).toBe('new');
    expect(readdirSync(dir)).toEqual(['b.tar.gz']);
  });

  it('never renames over a symbolic link, a folder or a FIFO that appeared after the check', async () => {
    const dir = fresh('appeared');
    const file = path.join(dir, 'b.tar.gz');
    expect(await outputFileProblem(file)).toBeUndefined();
    // Meanwhile, during the run: a link to a file that must not change.
    writeFileSync(path.join(dir, 'precious'), 'precious');
    symlinkSync(path.join(dir, 'precious'), file);
    const error = await writeWholeFile(file, Buffer.from('bundle'), 'the bundle').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(`the bundle cannot be written to ${file} (it is a symbolic link, not a regular file, and is never replaced)`);
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
    expect(readFileSync(path.join(dir, 'precious'), 'utf8')).toBe('precious');
    expect(readdirSync(dir).sort()).toEqual(['b.tar.gz', 'precious']);

    const folder = path.join(dir, 'folder.tar.gz');
    mkdirSync(folder);
    await expect(writeWholeFile(folder, Buffer.from('bundle'), 'the bundle')).rejects.toThrow(/it is a folder/);
    if (linux) {
      const fifo = path.join(dir, 'fifo.tar.gz');
      execFileSync('mkfifo', [fifo]);
      await expect(writeWholeFile(fifo, Buffer.from('bundle'), 'the bundle')).rejects.toThrow(/it is a FIFO/);
      expect(lstatSync(fifo).isFIFO()).toBe(true);
    }
    expect(readdirSync(dir).filter((n) => n.endsWith('.partial'))).toEqual([]);
  });

  it('a folder gone since the check: one line with the error code, nothing left', async () => {
    const dir = fresh('gone');
    const file = path.join(dir, 'b.tar.gz');
    rmSync(dir, { recursive: true });
    await expect(writeWholeFile(file, Buffer.from('x'), 'the bundle')).rejects.toThrow(`the bundle cannot be written to ${file} (ENOENT)`);
  });
});

describe('writeWholeFileStreamed', () => {
  it('writes what the stream gave, whole; a writer that fails leaves the old file and no temporary one', async () => {
    const dir = fresh('streamed');
    const file = path.join(dir, 'b.tar.gz');
    writeFileSync(file, 'old');
    const writeParts = (parts: string[], fail?: Error) => async (out: NodeJS.WritableStream) => {
      for (const part of parts) out.write(part);
      if (fail) throw fail;
      await new Promise<void>((done) => out.end(done));
    };
    await expect(writeWholeFileStreamed(file, writeParts(['half'], new Error('a file changed')), 'the bundle')).rejects.toThrow(
      `the bundle cannot be written to ${file} (a file changed)`,
    );
    expect(readFileSync(file, 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['b.tar.gz']);
    await writeWholeFileStreamed(file, writeParts(['ne', 'w']), 'the bundle');
    expect(readFileSync(file, 'utf8')).toBe('new');
    expect(readdirSync(dir)).toEqual(['b.tar.gz']);
  });
});
