/**
 * A bundle's exchanges.har read as it streams out of the archive (verify's re-judge needs its
 * entries): split into lines as HarFile writes them (har-lines.ts), each parsed as it completes,
 * so the text is never held whole; a HAR in another layout (an older one-line file) is gathered
 * and parsed at its end. What is kept is capped (REJUDGE_BYTES): a HAR whose header declares more
 * is copied as it streams to a spool file when one is given (verify of a bundle file re-judges it
 * from there entry by entry, har-reader.ts), else said to be too large to re-judge, hashed all the
 * same; one that runs past the cap without declaring it is too large too. A control byte
 * (a NUL of a gzip bomb's zeros) proves the member is no JSON text at all: refused at once, so the
 * archive stops inflating there.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { ArchiveError } from './tar-header.ts';
import type { MemberSink } from './tar-archive.ts';
import { entryOfLine, isHarHead } from '../har-lines.ts';
import { HAR_FILE } from '../har-file.ts';

/**
 * The largest HAR re-judged: re-judging takes about five times the HAR's size above verify's own
 * 95 MB (a deep run's 15 MB HAR: 170 MB peak; a 57 MB one: 386 MB), so 24 MiB stays within the
 * 250 MB a verify may take. A larger HAR is hashed only, decided at its header.
 */
export const REJUDGE_BYTES = 24 * 1024 * 1024;
/** No entry the tool writes comes near it (bodies are cut at 64K characters, har.ts). */
const ENTRY_LINE_BYTES = 4 * 1024 * 1024;

/** What the HAR gave: its entries, or why they could not be read (said after the hashes are checked), or that it is too large. */
export type HarMemberResult = { entries: unknown[] } | { problem: string } | { tooLarge: number } | { spooled: string };

const isControl = (byte: number): boolean => byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d;

export class HarMemberReader implements MemberSink {
  private readonly pieces: Buffer[] = [];
  private pieceBytes = 0;
  private mode: 'first' | 'lines' | 'whole' = 'first';
  private entries: unknown[] = [];
  private kept = 0;
  private line = 0;
  private offset = 0;
  private result: HarMemberResult | undefined;
  private started = false;

  /** The spool file's descriptor while a large HAR is copied to it. */
  private spoolFd: number | undefined;

  /**
   * @param declared the size the member's header declares: over `budget`, the entries are not even
   * parsed here; they are copied to `spoolFile` when given, else the HAR is too large.
   */
  constructor(
    declared = 0,
    private readonly budget = REJUDGE_BYTES,
    private readonly spoolFile?: string,
  ) {
    if (declared <= budget) return;
    if (spoolFile === undefined) this.result = { tooLarge: declared };
    else this.spoolFd = openSync(spoolFile, 'wx', 0o600);
  }

  /** Whether reading stopped (a problem, or too large): the rest is only checked for control bytes. */
  private get stopped(): boolean {
    return this.result !== undefined;
  }

  write(chunk: Buffer): void {
    try {
      this.refuseControlBytes(chunk);
    } catch (error) {
      if (this.spoolFd !== undefined) closeSync(this.spoolFd);
      this.spoolFd = undefined;
      throw error;
    }
    if (this.spoolFd !== undefined) {
      writeSync(this.spoolFd, chunk);
      return;
    }
    let from = 0;
    while (from < chunk.length && !this.stopped) {
      const nl = chunk.indexOf(0x0a, from);
      const end = nl === -1 ? chunk.length : nl + 1;
      this.hold(chunk.subarray(from, end));
      if (nl !== -1 && !this.stopped && this.mode !== 'whole') this.completeLine();
      from = end;
    }
  }

  end(): void {
    if (this.spoolFd !== undefined) {
      closeSync(this.spoolFd);
      this.spoolFd = undefined;
      this.result = { spooled: this.spoolFile! };
      return;
    }
    if (this.stopped) return;
    if (this.mode === 'lines') {
      if (this.pieceBytes) this.completeLine();
      this.result ??= { entries: this.entries };
    } else {
      this.parseWhole();
    }
  }

  /** The entries, a problem, or how large the HAR was; undefined before end(). */
  get outcome(): HarMemberResult | undefined {
    return this.result;
  }

  private refuseControlBytes(chunk: Buffer): void {
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i];
      if (!this.started && byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09) {
        this.started = true;
        if (byte !== 0x7b) throw new ArchiveError(`${HAR_FILE} does not start as JSON (byte ${byte} at offset ${this.offset + i}): it is no HAR`);
      }
      if (isControl(byte)) throw new ArchiveError(`${HAR_FILE} holds a control byte (${byte}) at offset ${this.offset + i}: no JSON text does, it is no HAR`);
    }
    this.offset += chunk.length;
  }

  private hold(piece: Buffer): void {
    this.pieces.push(Buffer.from(piece));
    this.pieceBytes += piece.length;
    this.kept += piece.length;
    if (this.kept > this.budget) {
      this.stop({ tooLarge: this.kept });
    } else if (this.mode === 'first' && this.pieceBytes > ENTRY_LINE_BYTES) {
      // The head line HarFile writes is short: a longer first line is a one-line HAR, read whole.
      this.mode = 'whole';
    } else if (this.mode === 'lines' && this.pieceBytes > ENTRY_LINE_BYTES) {
      this.stop({ problem: `${HAR_FILE} line ${this.line + 1} is over ${ENTRY_LINE_BYTES / 1024 / 1024} MiB: no entry the tool writes is` });
    }
  }

  private completeLine(): void {
    if (this.mode === 'first') {
      const head = Buffer.concat(this.pieces);
      if (isHarHead(head.toString('utf8'))) {
        this.take();
        this.mode = 'lines';
      } else {
        // Another layout: the line stays held, and the rest gathers after it.
        this.mode = 'whole';
      }
      this.line++;
      return;
    }
    const text = this.take();
    this.line++;
    try {
      const entry = entryOfLine(text);
      if (entry !== undefined) this.entries.push(entry);
    } catch (error) {
      this.stop({ problem: `${HAR_FILE} is not JSON (line ${this.line}: ${(error as Error).message})` });
    }
  }

  private parseWhole(): void {
    try {
      const entries = (JSON.parse(this.take()) as { log?: { entries?: unknown } }).log?.entries;
      this.result = Array.isArray(entries) ? { entries } : { problem: `${HAR_FILE} has no log.entries` };
    } catch (error) {
      this.result = { problem: `${HAR_FILE} is not JSON (${(error as Error).message})` };
    }
  }

  private take(): string {
    const text = Buffer.concat(this.pieces).toString('utf8');
    this.pieces.length = 0;
    this.pieceBytes = 0;
    return text;
  }

  private stop(result: HarMemberResult): void {
    this.result = result;
    this.entries = [];
    this.pieces.length = 0;
    this.pieceBytes = 0;
  }
}
