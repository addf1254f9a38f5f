/**
 * The bundle's archive: a gzip-compressed ustar file that the system `tar -xzf` opens, written and
 * read here over node:zlib as streams (tar-header.ts, tar-reader.ts: a few hundred bytes of
 * format, no dependency). Regular files only, under one folder; the bytes are deterministic (fixed
 * mtime, owner and mode, members sorted by name), so the same files give the same archive. The
 * reader never extracts and never holds more than its caller keeps: each member's bytes go to a
 * sink as they are inflated, and a refusal stops the inflating at once (a gzip bomb costs the
 * bytes read until its first refused header, never the whole stream). The in-memory forms
 * (writeTarGz, readTarGz) write and read the same bytes, for small archives and tests.
 */
import { createReadStream } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip, gunzipSync, gzipSync } from 'node:zlib';
import { ArchiveError, BLOCK, encodeHeader, NAME_BYTES, paddingOf } from './tar-header.ts';
import { type ArchiveLimits, MEMBER_NAME, type MemberSink, TarReader, TRAILING_LIMIT } from './tar-reader.ts';
import { byName } from '../../../core/text.ts';

export { ArchiveError } from './tar-header.ts';
export type { ArchiveLimits, MemberSink } from './tar-reader.ts';

/** One file of an archive: its name (without the folder) and its bytes. */
export interface ArchiveMember {
  name: string;
  data: Buffer;
}

/** One file to write: its name, its size, and its bytes in memory or in a file read as a stream. */
export type ArchiveSource = { name: string; size: number } & ({ data: Buffer } | { file: string });

/** The folder every member sits in, so that `tar -xzf` does not spill files into the working directory. */
export const BUNDLE_FOLDER = 'conformance-bundle';

/** readTarGz's default cap: it holds everything, so no more than this. */
const IN_MEMORY_LIMITS: ArchiveLimits = { member: () => 512 * 1024 * 1024, total: 512 * 1024 * 1024 };
/** Level 9 for the smallest evidence; the same level in both writers keeps their bytes the same. */
const GZIP = { level: 9 };

/** A member name this format holds: one plain file name. */
function checkName(name: string): void {
  if (!MEMBER_NAME.test(name) || name.length + BUNDLE_FOLDER.length + 1 > NAME_BYTES) throw new ArchiveError(`"${name}" cannot be a member's name`);
}

/** The members sorted by name, each name checked and given once. */
function sortedMembers<T extends { name: string }>(members: readonly T[]): T[] {
  const sorted = [...members].sort(byName);
  for (const [i, member] of sorted.entries()) {
    checkName(member.name);
    if (i > 0 && sorted[i - 1].name === member.name) throw new ArchiveError(`"${member.name}" is given twice`);
  }
  return sorted;
}

/** Two zero blocks end a tar archive. */
const closingBlocks = (): Buffer => Buffer.alloc(BLOCK * 2);

/** The .tar.gz of `members`, under BUNDLE_FOLDER, sorted by name; the same members give the same bytes. */
export function writeTarGz(members: readonly ArchiveMember[]): Buffer {
  const parts: Buffer[] = [];
  for (const member of sortedMembers(members)) {
    parts.push(encodeHeader(`${BUNDLE_FOLDER}/${member.name}`, member.data.length), member.data, Buffer.alloc(paddingOf(member.data.length)));
  }
  parts.push(closingBlocks());
  return gzipSync(Buffer.concat(parts), GZIP);
}

/** The tar bytes of `sources` in order, each file's bytes counted against the size its header declared. */
async function* tarBlocks(sources: readonly ArchiveSource[]): AsyncGenerator<Buffer> {
  for (const source of sources) {
    yield encodeHeader(`${BUNDLE_FOLDER}/${source.name}`, source.size);
    let written = 0;
    const chunks: Iterable<Buffer> | AsyncIterable<Buffer> = 'data' in source ? [source.data] : createReadStream(source.file);
    for await (const chunk of chunks) {
      written += chunk.length;
      // A file that grew since its size was taken would overwrite the next header: refused, never cut.
      if (written > source.size)
        throw new ArchiveError(`${source.name} is longer than the ${source.size} bytes declared for it (it changed while being archived)`);
      yield chunk;
    }
    if (written !== source.size) throw new ArchiveError(`${source.name} is ${written} bytes, ${source.size} were declared (it changed while being archived)`);
    yield Buffer.alloc(paddingOf(source.size));
  }
  yield closingBlocks();
}

/**
 * Writes the .tar.gz of `sources` to `out` as a stream (the same bytes writeTarGz gives for the
 * same files): files are read as they are archived, never whole in memory.
 */
export async function writeTarGzStream(sources: readonly ArchiveSource[], out: Writable): Promise<void> {
  await pipeline(tarBlocks(sortedMembers(sources)), createGzip(GZIP), out);
}

/** Whether the bytes start as gzip does: anything else is not a bundle at all. */
export const looksLikeGzip = (bytes: Buffer): boolean => bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;

/** A sink that keeps a member's bytes, for `done` to collect. */
function keeper(done: (data: Buffer) => void): MemberSink {
  const chunks: Buffer[] = [];
  return { write: (chunk) => chunks.push(Buffer.from(chunk)), end: () => done(Buffer.concat(chunks)) };
}

/** The members of a .tar.gz held in memory, or an ArchiveError saying why not (one line). */
export function readTarGz(bytes: Buffer, limits: ArchiveLimits = IN_MEMORY_LIMITS): ArchiveMember[] {
  let tar: Buffer;
  try {
    // Held whole, so never more than IN_MEMORY_LIMITS (a file is read as a stream: readTarGzStream),
    // with room for the closing blocks and a record's padding.
    tar = gunzipSync(bytes, { maxOutputLength: Math.min(limits.total, IN_MEMORY_LIMITS.total) + TRAILING_LIMIT + BLOCK * 4 });
  } catch (error) {
    throw new ArchiveError(`the gzip stream is damaged (${(error as Error).message})`);
  }
  const members: ArchiveMember[] = [];
  const reader = new TarReader((name) => keeper((data) => members.push({ name, data })), limits);
  reader.push(tar);
  reader.end();
  return members;
}

/** How many bytes the gunzip gave so far: a refused bomb shows how little of it was inflated. */
export interface InflateProgress {
  inflated: number;
}

/**
 * Reads a .tar.gz stream member by member: `open(name, size)` gives the sink of each member's
 * bytes, once its header passed every check and `limits`. Resolves when the archive and its
 * gzip stream ended whole; rejects with an ArchiveError at the first refusal, having stopped
 * inflating there (the source is destroyed).
 */
export async function readTarGzStream(
  source: Readable,
  open: (name: string, size: number) => MemberSink,
  limits: ArchiveLimits,
  progress: InflateProgress = { inflated: 0 },
): Promise<void> {
  const reader = new TarReader(open, limits);
  const gunzip = createGunzip({ chunkSize: 64 * 1024 });
  source.on('error', (error) => gunzip.destroy(error));
  source.pipe(gunzip);
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      progress.inflated += chunk.length;
      reader.push(chunk);
    }
  } catch (error) {
    if (error instanceof ArchiveError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (code.startsWith('Z_') || /incorrect header|unexpected end|invalid/i.test((error as Error).message))
      throw new ArchiveError(`the gzip stream is damaged (${(error as Error).message})`);
    throw error;
  } finally {
    source.unpipe(gunzip);
    source.destroy();
    gunzip.destroy();
  }
  reader.end();
}
