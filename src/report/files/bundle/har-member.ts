/**
 * A bundle's exchanges.har read as it streams out of the archive (verify's re-judge needs its
 * entries): its entries found by the scanner every HAR reader uses (core/json-array-scan.ts,
 * any layout), each parsed as it completes, and the rest of the document parsed at the end, so
 * the text is never held whole and a HAR that is no JSON document is refused whatever its layout.
 * What is kept is capped (REJUDGE_BYTES): a HAR whose header declares more is copied as it streams
 * to a spool file when one is given (verify of a bundle file re-judges it from there entry by
 * entry, har-reader.ts), else said to be too large to re-judge, hashed all the same; one that runs
 * past the cap without declaring it is too large too. A control byte (a NUL of a gzip bomb's
 * zeros) proves the member is no JSON text at all: refused at once, so the archive stops
 * inflating there.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { JsonArrayScanError, JsonArrayScanner } from '../../../core/json-array-scan.ts';
import { ArchiveError } from './tar-header.ts';
import type { MemberSink } from './tar-archive.ts';
import { HAR_READ_LIMITS } from '../har-reader.ts';
import { HAR_FILE } from '../har-file.ts';

/**
 * The largest HAR re-judged: re-judging takes about five times the HAR's size above verify's own
 * 95 MB (a deep run's 15 MB HAR: 170 MB peak; a 57 MB one: 386 MB), so 24 MiB stays within the
 * 250 MB a verify may take. A larger HAR is hashed only, decided at its header.
 */
export const REJUDGE_BYTES = 24 * 1024 * 1024;
/** What the HAR gave: its entries, or why they could not be read (said after the hashes are checked), or that it is too large. */
export type HarMemberResult = { entries: unknown[] } | { problem: string } | { tooLarge: number } | { spooled: string };

const isControl = (byte: number): boolean => byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d;

export class HarMemberReader implements MemberSink {
  private readonly scanner = new JsonArrayScanner(['log', 'entries'], HAR_READ_LIMITS);
  private entries: unknown[] = [];
  private kept = 0;
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
    if (this.stopped) return;
    this.kept += chunk.length;
    if (this.kept > this.budget) {
      this.stop({ tooLarge: this.kept });
      return;
    }
    try {
      for (const element of this.scanner.push(chunk)) this.entries.push(this.entryOf(element));
    } catch (error) {
      this.stop(problemOf(error));
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
    try {
      this.scanner.end();
      this.result = { entries: this.entries };
    } catch (error) {
      this.result = problemOf(error);
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

  private entryOf(element: Buffer): unknown {
    try {
      return JSON.parse(element.toString('utf8'));
    } catch (error) {
      throw new SyntaxError(`entry ${this.entries.length}: ${(error as Error).message}`);
    }
  }

  private stop(result: HarMemberResult): void {
    this.result = result;
    this.entries = [];
  }
}

/** Why the HAR's entries cannot be read, in one line. */
function problemOf(error: unknown): HarMemberResult {
  if (error instanceof SyntaxError) return { problem: `${HAR_FILE} is not JSON (${error.message})` };
  if (error instanceof JsonArrayScanError)
    return { problem: /^no log\.entries/.test(error.message) ? `${HAR_FILE} has no log.entries` : `${HAR_FILE} is not a HAR: ${error.message}` };
  throw error;
}
