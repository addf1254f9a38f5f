/**
 * One ustar header block of the bundle's archive: written with fixed mtime, owner and mode (the
 * same files give the same bytes), read with its checksum checked. A few hundred bytes of format.
 */

export const BLOCK = 512;
/** ustar's name field; our member names are short ASCII words. */
export const NAME_BYTES = 100;
/** 2000-01-01T00:00:00Z: a fixed mtime keeps the bytes the same for the same files. */
const FIXED_MTIME = 946_684_800;

/** Why an archive cannot be read or written: damaged, or not one this tool writes. One line, shown as it is. */
export class ArchiveError extends Error {}

/** What a header says: the path as written (prefix/name), the type flag and the size. */
export interface TarHeader {
  fullName: string;
  type: string;
  size: number;
}

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

const checksum = (block: Buffer): number => block.reduce((sum, byte) => sum + byte, 0);

/** The header of a regular file `name` (folder included) of `size` bytes, mode 644, owner root. */
export function encodeHeader(name: string, size: number): Buffer {
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

/** The zero bytes that fill a member of `size` bytes up to a whole block. */
export const paddingOf = (size: number): number => (BLOCK - (size % BLOCK)) % BLOCK;

export const isZeroBlock = (block: Buffer): boolean => block.every((byte) => byte === 0);

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

/** The header in a (non-zero) block, its checksum checked; an ArchiveError when it is none. */
export function decodeHeader(block: Buffer): TarHeader {
  const prefix = field(block, 345, 155);
  const fullName = (prefix ? `${prefix}/` : '') + field(block, 0, NAME_BYTES);
  const at = `member "${fullName}"`;
  const stored = parseOctal(field(block, 148, 8), 'checksum', at);
  const copy = Buffer.from(block);
  copy.write('        ', 148, 'ascii');
  if (checksum(copy) !== stored) throw new ArchiveError(`${at}: its header checksum does not match (the archive is damaged)`);
  return { fullName, type: String.fromCharCode(block[156]), size: parseOctal(field(block, 124, 12), 'size', at) };
}
