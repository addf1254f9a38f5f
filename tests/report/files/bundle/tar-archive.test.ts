/** The bundle's ustar reader refuses what a bundle never holds; archives made by the system tar. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ArchiveError, readTarGz, writeTarGz } from '../../../../src/report/files/bundle/tar-archive.ts';

/** A .tar.gz the system tar makes in `dir` from `args` (ustar headers, as ours). */
function systemTar(dir: string, args: string[]): Buffer {
  const out = path.join(dir, 'out.tar');
  execFileSync('tar', ['--format=ustar', '-cf', out, ...args], { cwd: dir });
  return gzipSync(readFileSync(out));
}

const refusal = (bytes: Buffer): string => {
  try {
    readTarGz(bytes);
  } catch (error) {
    expect(error).toBeInstanceOf(ArchiveError);
    return (error as Error).message;
  }
  throw new Error('read without a refusal');
};

describe('readTarGz', () => {
  it('reads back what writeTarGz wrote, and what the system tar wrote of one folder', () => {
    const members = [
      { name: 'b.txt', data: Buffer.from('b'.repeat(700)) },
      { name: 'a.json', data: Buffer.from('{}') },
    ];
    expect(readTarGz(writeTarGz(members))).toEqual([members[1], members[0]]);
    const dir = mkdtempSync(path.join(tmpdir(), 'tar-'));
    mkdirSync(path.join(dir, 'f'));
    writeFileSync(path.join(dir, 'f', 'x.txt'), 'hello');
    expect(readTarGz(systemTar(dir, ['f/x.txt']))).toEqual([{ name: 'x.txt', data: Buffer.from('hello') }]);
  });

  it('refuses links, folders, absolute paths, .., nested folders and duplicates', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tar-'));
    writeFileSync(path.join(dir, 'x.txt'), 'x');
    symlinkSync('x.txt', path.join(dir, 'link'));
    mkdirSync(path.join(dir, 'd', 'e'), { recursive: true });
    writeFileSync(path.join(dir, 'd', 'e', 'deep.txt'), 'deep');
    expect(refusal(systemTar(dir, ['link']))).toMatch(/"link" is not a regular file/);
    expect(refusal(systemTar(dir, ['d']))).toMatch(/is not a regular file/);
    expect(refusal(systemTar(dir, ['-P', path.join(dir, 'x.txt')]))).toMatch(/is an absolute path/);
    expect(refusal(systemTar(path.join(dir, 'd'), ['-P', '../x.txt']))).toMatch(/climbs out of its folder/);
    expect(refusal(systemTar(dir, ['d/e/deep.txt']))).toMatch(/is not a file of one folder/);
    expect(refusal(systemTar(dir, ['--hard-dereference', 'x.txt', 'x.txt']))).toMatch(/"x.txt" is in the archive twice/);
  });

  it('refuses a damaged gzip stream and a cut tar stream', () => {
    const good = writeTarGz([{ name: 'a.txt', data: Buffer.from('a') }]);
    expect(refusal(good.subarray(0, good.length - 6))).toMatch(/gzip stream is damaged/);
    expect(refusal(gzipSync(Buffer.alloc(100)))).toMatch(/cut short/);
  });
});
