/** The bundle's ustar reader refuses what a bundle never holds; archives made by the system tar. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip, gunzipSync as gunzip, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  ArchiveError,
  type ArchiveLimits,
  type InflateProgress,
  readTarGz,
  readTarGzStream,
  writeTarGz,
  writeTarGzStream,
} from '../../../../src/report/files/bundle/tar-archive.ts';
import { encodeHeader } from '../../../../src/report/files/bundle/tar-header.ts';

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

const LIMITS: ArchiveLimits = { member: (name) => (name === 'big.har' ? 8 * 1024 * 1024 : 1024), total: 16 * 1024 * 1024 };

/** What the streaming reader kept of each member, or its refusal, and how many bytes it inflated. */
async function readStream(bytes: Buffer, limits = LIMITS): Promise<{ members: Record<string, string>; refusal?: string; progress: InflateProgress }> {
  const members: Record<string, string> = {};
  const progress: InflateProgress = { inflated: 0 };
  try {
    await readTarGzStream(
      Readable.from([bytes]),
      (name) => {
        const chunks: Buffer[] = [];
        return { write: (c) => chunks.push(Buffer.from(c)), end: () => void (members[name] = Buffer.concat(chunks).toString('utf8')) };
      },
      limits,
      progress,
    );
  } catch (error) {
    expect(error).toBeInstanceOf(ArchiveError);
    return { members, refusal: (error as Error).message, progress };
  }
  return { members, progress };
}

/** A gzip of `header` followed by `zeros` zero bytes, made as a stream (a bomb: megabytes inside, kilobytes outside). */
async function bomb(header: Buffer, zeros: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  const chunk = Buffer.alloc(1024 * 1024);
  async function* body() {
    yield header;
    for (let left = zeros; left > 0; left -= chunk.length) yield chunk.subarray(0, Math.min(chunk.length, left));
  }
  await pipeline(body(), createGzip({ level: 9 }), new Writable({ write: (c, _e, done) => (parts.push(c), done()) }));
  return Buffer.concat(parts);
}

async function streamed(members: { name: string; data: Buffer }[]): Promise<Buffer> {
  const parts: Buffer[] = [];
  await writeTarGzStream(
    members.map((m) => ({ ...m, size: m.data.length })),
    new Writable({ write: (c, _e, done) => (parts.push(c), done()) }),
  );
  return Buffer.concat(parts);
}

describe('the streaming archive', () => {
  const members = [
    { name: 'b.txt', data: Buffer.from('b'.repeat(700)) },
    { name: 'a.json', data: Buffer.from('{}') },
  ];

  it('writes the bytes writeTarGz writes, the same every time, and the system tar lists them', async () => {
    const bytes = await streamed(members);
    expect(bytes.equals(writeTarGz(members))).toBe(true);
    expect((await streamed([...members].reverse())).equals(bytes)).toBe(true);
    const dir = mkdtempSync(path.join(tmpdir(), 'tar-'));
    writeFileSync(path.join(dir, 'b.tar.gz'), bytes);
    expect(
      execFileSync('tar', ['-tzf', path.join(dir, 'b.tar.gz')], { encoding: 'utf8' })
        .trim()
        .split('\n'),
    ).toEqual(['conformance-bundle/a.json', 'conformance-bundle/b.txt']);
    expect(await readStream(bytes)).toMatchObject({ members: { 'a.json': '{}', 'b.txt': 'b'.repeat(700) } });
  });

  it('refuses a file that changed while being archived', async () => {
    await expect(writeTarGzStream([{ name: 'a.txt', size: 1, data: Buffer.from('ab') }], new Writable({ write: (_c, _e, d) => d() }))).rejects.toThrow(
      /a.txt is longer than the 1 bytes declared/,
    );
  });

  it('refuses a member declaring more than its limit at its header, before inflating what follows (a gzip bomb)', async () => {
    const declared = 400 * 1024 * 1024;
    const bytes = await bomb(encodeHeader('conformance-bundle/big.har', declared), 64 * 1024 * 1024);
    expect(bytes.length).toBeLessThan(200 * 1024);
    const read = await readStream(bytes);
    expect(read.refusal).toBe('big.har declares 419430400 bytes, over its limit of 8 MiB');
    // Refused at the header: at most a few inflated chunks of the 64 MiB inside were read.
    expect(read.progress.inflated).toBeLessThan(1024 * 1024);
  });

  it('refuses members that declare more than the total together', async () => {
    const bytes = writeTarGz(['a', 'b', 'c'].map((n) => ({ name: `${n}.txt`, data: Buffer.alloc(1000) })));
    expect((await readStream(bytes, { member: () => 1024, total: 2500 })).refusal).toMatch(/the members declare over 0 MiB together/);
  });

  it('refuses a member longer than its header declares, and zeros or bytes past the closing block', async () => {
    const tar = Buffer.concat([encodeHeader('conformance-bundle/a.txt', 5), Buffer.alloc(1024, 'x'), Buffer.alloc(1024)]);
    expect((await readStream(gzipSync(tar))).refusal).toMatch(/^the block after "a.txt" \(5 bytes declared\) is no tar header: that member is longer/);
    expect(refusal(gzipSync(tar))).toMatch(/that member is longer than its header declares/);
    const zeros = await bomb(Buffer.concat([encodeHeader('conformance-bundle/a.txt', 1), Buffer.alloc(512, 'x')]), 64 * 1024 * 1024);
    const read = await readStream(zeros);
    expect(read.refusal).toBe('over 1 MiB of zeros follow the closing block, more than any tar record pads');
    expect(read.progress.inflated).toBeLessThan(2 * 1024 * 1024);
    const good = writeTarGz([{ name: 'a.txt', data: Buffer.from('a') }]);
    const tarOfGood = Buffer.concat([gunzip(good), Buffer.from('junk')]);
    expect((await readStream(gzipSync(tarOfGood))).refusal).toMatch(/not zero padding/);
  });

  it('refuses a damaged or cut gzip stream, and every refusal of the in-memory reader', async () => {
    const good = writeTarGz([{ name: 'a.txt', data: Buffer.from('a') }]);
    expect((await readStream(good.subarray(0, good.length - 6))).refusal).toMatch(/gzip stream is damaged/);
    expect((await readStream(gzipSync(Buffer.alloc(100)))).refusal).toMatch(/cut short/);
    expect((await readStream(Buffer.from('not gzip at all'))).refusal).toMatch(/gzip stream is damaged/);
    const dir = mkdtempSync(path.join(tmpdir(), 'tar-'));
    writeFileSync(path.join(dir, 'x.txt'), 'x');
    symlinkSync('x.txt', path.join(dir, 'link'));
    expect((await readStream(systemTar(dir, ['link']))).refusal).toMatch(/"link" is not a regular file/);
    expect((await readStream(systemTar(dir, ['-P', path.join(dir, 'x.txt')]))).refusal).toMatch(/is an absolute path/);
    expect((await readStream(systemTar(dir, ['--hard-dereference', 'x.txt', 'x.txt']))).refusal).toMatch(/"x.txt" is in the archive twice/);
  });
});
