/**
 * The bundle's archive: a gzip-compressed ustar file that the system `tar -xzf` opens, written and
 * read here over node:zlib (a few hundred bytes of format, no dependency). Regular files only,
 * under one folder; the bytes are deterministic (fixed mtime, owner and mode, members sorted by
 * name), so the same files give the same archive. The reader works in memory and never extracts:
 * it refuses absolute paths, `..`, nested folders, duplicates, links and anything but a file.
 */
import { gunzipSync, gzipSync } from 'node:zlib';

/** One file of an archive: its name (without the folder) and its bytes. */
export interface ArchiveMember {
  name: string;
  data: Buffer;
}

/** The folder every member sits in, so that `tar -xzf` does not spill files into the working directory. */
export const BUNDLE_FOLDER = 'conformance-bundle';

const BLOCK = 512;
/** ustar's name field; our member names are short ASCII words. */
const NAME_BYTES = 100;
/** 2000-01-01T00:00:00Z: a fixed mtime keeps the bytes the same for the same files. */
const FIXED_MTIME = 946_684_800;
/** More than any bundle this tool writes (its reports are capped); a larger archive is refused before it fills memory. */
const MAX_UNPACKED_BYTES = 512 * 1024 * 1024;
const MEMBER_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Why an archive cannot be read: damaged, or not one this tool writes. One line, shown as it is. */
export class ArchiveError extends Error {}

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

function header(name: string, size: number): Buffer {
  const block = Buffer.alloc(BLOCK);
  block.write(name, 0, NAME_BYTES, 'ascii');
  block.write(octal(0o644, 8), 100, 'ascii');
  block.write(octal(0, 8), 108, 'ascii');
  block.write(octal(0, 8), 116, 'ascii');
  block.write(octal(size, 12), 124, 'ascii');
  block.write(octal(FIXED_MTIME, 12), 136, 'ascii');
  block.write('0', 156, 'ascii');
  block.write('ustar\0', 257, 'ascii');
  block.write('00', 263, 'ascii');
  block.write('root', 265, 'ascii');
  block.write('root', 297, 'ascii');
  // The checksum is computed with its own field as eight spaces.
  block.write('        ', 148, 'ascii');
  block.write(octal(checksum(block), 7) + ' ', 148, 'ascii');
  return block;
}

const checksum = (block: Buffer): number => block.reduce((sum, byte) => sum + byte, 0);

/** A member name this format holds: one plain file name. */
function checkName(name: string): void {
  if (!MEMBER_NAME.test(name) || name.length + BUNDLE_FOLDER.length + 1 > NAME_BYTES) throw new ArchiveError(`"${name}" cannot be a member's name`);
}

/** The .tar.gz of `members`, under BUNDLE_FOLDER, sorted by name; the same members give the same bytes. */
export function writeTarGz(members: readonly ArchiveMember[]): Buffer {
  const sorted = [...members].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const parts: Buffer[] = [];
  for (const [i, member] of sorted.entries()) {
    checkName(member.name);
    if (i > 0 && sorted[i - 1].name === member.name) throw new ArchiveError(`"${member.name}" is given twice`);
    parts.push(header(`${BUNDLE_FOLDER}/${member.name}`, member.data.length), member.data, Buffer.alloc((BLOCK - (member.data.length % BLOCK)) % BLOCK));
  }
  // Two zero blocks end a tar archive.
  parts.push(Buffer.alloc(BLOCK * 2));
  return gzipSync(Buffer.concat(parts), { level: 9 });
}

/** Whether the bytes start as gzip does: anything else is not a bundle at all. */
export const looksLikeGzip = (bytes: Buffer): boolean => bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;

function field(block: Buffer, start: number, length: number): string {
  const raw = block.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? length : end).toString('latin1');
}

function parseOctal(text: string, what: string, at: string): number {
  const trimmed = text.trim();
  if (!/^[0-7]+$/.test(trimmed)) throw new ArchiveError(`${at}: its ${what} is not an octal number`);
  return Number.parseInt(trimmed, 8);
}

/** The member name of a header's path: `folder/name` or `name`, nothing else. */
function memberName(fullName: string): string {
  if (fullName.startsWith('/')) throw new ArchiveError(`"${fullName}" is an absolute path`);
  const parts = fullName.split('/');
  if (parts.includes('..')) throw new ArchiveError(`"${fullName}" climbs out of its folder (..)`);
  const name = parts.length === 2 ? parts[1] : parts.length === 1 ? parts[0] : undefined;
  if (name === undefined || !MEMBER_NAME.test(name)) throw new ArchiveError(`"${fullName}" is not a file of one folder`);
  return name;
}

/** The members of a .tar.gz held in memory, or an ArchiveError saying why not (one line). */
export function readTarGz(bytes: Buffer): ArchiveMember[] {
  let tar: Buffer;
  try {
    tar = gunzipSync(bytes, { maxOutputLength: MAX_UNPACKED_BYTES });
  } catch (error) {
    throw new ArchiveError(`the gzip stream is damaged (${(error as Error).message})`);
  }
  const members: ArchiveMember[] = [];
  const folders = new Set<string>();
  let offset = 0;
  while (offset + BLOCK <= tar.length) {
    const block = tar.subarray(offset, offset + BLOCK);
    if (block.every((byte) => byte === 0)) return finish(members, folders);
    const fullName = (field(block, 345, 155) ? `${field(block, 345, 155)}/` : '') + field(block, 0, NAME_BYTES);
    const at = `member "${fullName}"`;
    const stored = parseOctal(field(block, 148, 8), 'checksum', at);
    const copy = Buffer.from(block);
    copy.write('        ', 148, 'ascii');
    if (checksum(copy) !== stored) throw new ArchiveError(`${at}: its header checksum does not match (the archive is damaged)`);
    const type = String.fromCharCode(block[156]);
    if (type !== '0' && type !== '\0') throw new ArchiveError(`${at} is not a regular file (type "${type}"): links and folders are refused`);
    const size = parseOctal(field(block, 124, 12), 'size', at);
    const name = memberName(fullName);
    if (members.some((m) => m.name === name)) throw new ArchiveError(`"${name}" is in the archive twice`);
    if (fullName.includes('/')) folders.add(fullName.split('/')[0]);
    const start = offset + BLOCK;
    if (start + size > tar.length) throw new ArchiveError(`${at} is cut short`);
    members.push({ name, data: Buffer.from(tar.subarray(start, start + size)) });
    offset = start + Math.ceil(size / BLOCK) * BLOCK;
  }
  throw new ArchiveError('the tar stream ends without its closing blocks (the archive is cut short)');
}

function finish(members: ArchiveMember[], folders: Set<string>): ArchiveMember[] {
  if (folders.size > 1) throw new ArchiveError(`the members sit in ${folders.size} folders; a bundle has one`);
  return members;
}
