/**
 * The bundle's tar reader, fed the inflated bytes chunk by chunk (tar-archive.ts feeds it from a
 * gunzip stream): it never holds more than one header block, and hands each member's bytes to a
 * sink as they come, so a caller keeps only what it judges. Refused at once, with one line:
 * absolute paths, `..`, nested folders, links, folders and any type but a regular file (pax and
 * GNU long-name headers included: a bundle never has them, and they would carry what the reader
 * then holds), duplicates, members in more than one folder, a damaged header, a member whose
 * header declares more than its limit or all members more than the total, bytes after the
 * closing block that are not zero padding, and an archive that ends early.
 */
import { ArchiveError, BLOCK, decodeHeader, isZeroBlock, paddingOf } from './tar-header.ts';

/** Where a member's bytes go, in order; `end` once all its declared bytes came. */
export interface MemberSink {
  write(chunk: Buffer): void;
  end(): void;
}

/** The most bytes a member may declare (by its name), and all members together. */
export interface ArchiveLimits {
  member(name: string): number;
  total: number;
}

/** What may follow the closing block: zero padding up to a tar record (10 KiB by default, larger blocking factors up to 1 MiB). */
export const TRAILING_LIMIT = 1024 * 1024;
export const MEMBER_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** The member name of a header's path: `folder/name` or `name`, nothing else. */
function memberName(fullName: string): string {
  if (fullName.startsWith('/')) throw new ArchiveError(`"${fullName}" is an absolute path`);
  const parts = fullName.split('/');
  if (parts.includes('..')) throw new ArchiveError(`"${fullName}" climbs out of its folder (..)`);
  const name = parts.length === 2 ? parts[1] : parts.length === 1 ? parts[0] : undefined;
  if (name === undefined || !MEMBER_NAME.test(name)) throw new ArchiveError(`"${fullName}" is not a file of one folder`);
  return name;
}

const MiB = (bytes: number): string => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;

export class TarReader {
  private readonly header = Buffer.alloc(BLOCK);
  private headerFilled = 0;
  private member: { name: string; size: number; left: number; sink: MemberSink } | undefined;
  private previous: { name: string; size: number } | undefined;
  private skip = 0;
  private closed = false;
  private trailing = 0;
  private declared = 0;
  private readonly names = new Set<string>();
  private readonly folders = new Set<string>();

  constructor(
    private readonly open: (name: string, size: number) => MemberSink,
    private readonly limits: ArchiveLimits,
  ) {}

  /** Whether the closing block was read: what follows can only be padding. */
  get done(): boolean {
    return this.closed;
  }

  /** Reads the next inflated bytes; throws an ArchiveError at the first thing refused. */
  push(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length) {
      if (this.closed) {
        this.afterEnd(chunk.subarray(at));
        return;
      }
      if (this.skip > 0) {
        const n = Math.min(this.skip, chunk.length - at);
        this.skip -= n;
        at += n;
      } else if (this.member) {
        const n = Math.min(this.member.left, chunk.length - at);
        this.member.sink.write(chunk.subarray(at, at + n));
        this.member.left -= n;
        at += n;
        if (this.member.left === 0) this.endMember();
      } else {
        const n = Math.min(BLOCK - this.headerFilled, chunk.length - at);
        chunk.copy(this.header, this.headerFilled, at, at + n);
        this.headerFilled += n;
        at += n;
        if (this.headerFilled === BLOCK) this.readHeader();
      }
    }
  }

  /** The end of the inflated bytes: throws when the archive was cut before its closing block. */
  end(): void {
    if (this.member) throw new ArchiveError(`member "${this.member.name}" is cut short`);
    if (!this.closed) throw new ArchiveError('the tar stream ends without its closing blocks (the archive is cut short)');
  }

  private endMember(): void {
    const { name, size, sink } = this.member!;
    this.member = undefined;
    this.previous = { name, size };
    this.skip = paddingOf(size);
    sink.end();
  }

  private readHeader(): void {
    this.headerFilled = 0;
    if (isZeroBlock(this.header)) {
      this.closed = true;
      return;
    }
    let header: ReturnType<typeof decodeHeader>;
    try {
      header = decodeHeader(this.header);
    } catch (error) {
      // After a member, a block that is no header is most likely that member's bytes running past its declared size.
      if (!this.previous || !(error instanceof ArchiveError)) throw error;
      throw new ArchiveError(
        `the block after "${this.previous.name}" (${this.previous.size} bytes declared) is no tar header: that member is longer than its header declares, or the archive is damaged`,
      );
    }
    const at = `member "${header.fullName}"`;
    if (header.type !== '0' && header.type !== '\0')
      throw new ArchiveError(`${at} is not a regular file (type "${header.type}"): links and folders are refused`);
    const name = memberName(header.fullName);
    if (this.names.has(name)) throw new ArchiveError(`"${name}" is in the archive twice`);
    this.names.add(name);
    if (header.fullName.includes('/')) this.folders.add(header.fullName.split('/')[0]);
    if (this.folders.size > 1) throw new ArchiveError(`the members sit in ${this.folders.size} folders; a bundle has one`);
    const limit = this.limits.member(name);
    if (header.size > limit) throw new ArchiveError(`${name} declares ${header.size} bytes, over its limit of ${MiB(limit)}`);
    this.declared += header.size;
    if (this.declared > this.limits.total) throw new ArchiveError(`the members declare over ${MiB(this.limits.total)} together, more than a bundle may hold`);
    this.member = { name, size: header.size, left: header.size, sink: this.open(name, header.size) };
    if (header.size === 0) this.endMember();
  }

  private afterEnd(rest: Buffer): void {
    this.trailing += rest.length;
    if (!isZeroBlock(rest))
      throw new ArchiveError('there are bytes after the closing block that are not zero padding (the archive is damaged or holds more than it says)');
    if (this.trailing > TRAILING_LIMIT) throw new ArchiveError(`over ${MiB(TRAILING_LIMIT)} of zeros follow the closing block, more than any tar record pads`);
  }
}
