/**
 * A HAR file's entries read as a stream, one at a time (issue 33): a long run's exchanges.har is
 * hundreds of MB, more than a string can hold whole. Any layout reads (core/json-array-scan.ts):
 * ours has one entry a line, a foreign HAR may be pretty-printed or one line. Held at once: one
 * entry, at most HAR_ENTRY_LIMIT bytes (ours are far smaller: bodies are cut at HAR_BODY_CHARS),
 * and the log without its entries, at most HAR_REST_LIMIT. Each read goes through the file again,
 * so a reader that needs two passes (a replay: what the HAR holds, then sending it) holds neither.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { UsageError } from '../../core/errors.ts';
import { JsonArrayScanError, JsonArrayScanner, type JsonArrayScanLimits } from '../../core/json-array-scan.ts';
import { oneLine } from '../../core/text.ts';
import type { HarEntry } from './har.ts';

/** The largest entry read: a foreign HAR's body may be large, but not this large. */
export const HAR_ENTRY_LIMIT = 64 * 1024 * 1024;
/** The largest log without its entries (pages, creator, comments). */
export const HAR_REST_LIMIT = 1024 * 1024;

export const HAR_READ_LIMITS: JsonArrayScanLimits = { elementBytes: HAR_ENTRY_LIMIT, restBytes: HAR_REST_LIMIT };

/** The HAR's log without its entries: what a reader learns once every entry is read. */
export type HarLog = Record<string, unknown>;

/** Entries of one HAR file, read again on each call of `entries()`. */
export class HarReader {
  /** The log's other fields, set when a read of the entries reached the end. */
  log: HarLog | undefined;

  constructor(
    readonly file: string,
    private readonly limits: JsonArrayScanLimits = HAR_READ_LIMITS,
  ) {}

  /** Every entry in order, each parsed alone; a UsageError for a file that is no HAR or a part over its limit. */
  async *entries(): AsyncGenerator<HarEntry> {
    let index = 0;
    for await (const element of this.elements()) yield this.entryOf(element, index++);
  }

  /** The log without its entries, read through to the end (the entries only found, not parsed): a mark may follow them. */
  async readLog(): Promise<HarLog> {
    for await (const _ of this.elements());
    return this.log!;
  }

  /** Each entry's bytes, in order; then `log` is set. */
  private async *elements(): AsyncGenerator<Buffer> {
    await this.checkFile();
    const scanner = new JsonArrayScanner(['log', 'entries'], this.limits);
    let first = true;
    try {
      for await (const chunk of createReadStream(this.file)) {
        const bytes = chunk as Buffer;
        // This tool never writes one; an editor that saved it did.
        if (first && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
          throw new UsageError(`${this.file} starts with a byte order mark (U+FEFF): save it as UTF-8 without one`);
        first = false;
        yield* scanner.push(bytes);
      }
      this.log = this.logOf(scanner.end());
    } catch (error) {
      throw this.usageError(error);
    }
  }

  private async checkFile(): Promise<void> {
    const info = await stat(this.file).catch((error: NodeJS.ErrnoException) => {
      throw new UsageError(`cannot read ${this.file}: ${error.code ?? oneLine(error.message)}`);
    });
    if (info.isDirectory()) throw new UsageError(`${this.file} is a folder; give the file itself`);
    if (!info.isFile()) throw new UsageError(`${this.file} is not a regular file (a FIFO, socket or device); give a file`);
  }

  private entryOf(element: Buffer, index: number): HarEntry {
    let entry: unknown;
    try {
      entry = JSON.parse(element.toString('utf8'));
    } catch (error) {
      throw new UsageError(`${this.file}: entry ${index} is not JSON (${oneLine((error as Error).message, 160)})`);
    }
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw new UsageError(`${this.file}: entry ${index} is not an object`);
    return entry as HarEntry;
  }

  private logOf(rest: unknown): HarLog {
    const log = (rest as { log?: unknown } | null)?.log;
    if (typeof log !== 'object' || log === null) throw new UsageError(`${this.file} is not a HAR file (no log)`);
    return log as HarLog;
  }

  private usageError(error: unknown): unknown {
    if (error instanceof UsageError) return error;
    if (error instanceof JsonArrayScanError) {
      const limit = /larger than/.test(error.message) ? ' (a HAR is read an entry at a time, each within its limit)' : '';
      return new UsageError(`${this.file} is not a HAR file this tool reads: ${error.message}${limit}`);
    }
    if (error instanceof SyntaxError) return new UsageError(`${this.file} is not JSON (${oneLine(error.message, 160)})`);
    const code = (error as NodeJS.ErrnoException).code;
    return code ? new UsageError(`cannot read ${this.file}: ${code}`) : error;
  }
}
