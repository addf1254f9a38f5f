/**
 * exchanges.har written as the run goes, not held in memory: each exchange becomes one entry
 * line, redacted with the secrets known at that moment, appended to a partial file in the report
 * folder; `finish()` closes the JSON and renames it to exchanges.har. A run that ends early
 * (stopped, interrupted, an error) still finishes it, and so does a process that exits before
 * `finish()`: an exit hook closes the JSON, so the file is valid JSON whatever happened.
 *
 * Writes are synchronous, in blocks of FLUSH_CHARS: the exit hook can only write synchronously,
 * and a block per few dozen exchanges costs the run nothing measurable.
 */
import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { Exchange, UnjudgedExchange } from '../../core/exchange.ts';
import { harEntry, type HarEntry } from './har.ts';
import { Redactor } from '../model/redact.ts';
import { twinLinker } from './twin-link.ts';
import { HAR_CLOSING, harHeadLine } from './har-lines.ts';

/** The file name in the report folder, and the name it has until the run ends. */
export const HAR_FILE = 'exchanges.har';
export const HAR_PARTIAL_FILE = `${HAR_FILE}.partial`;
const FLUSH_CHARS = 64 * 1024;

export class HarFile {
  /** Where exchanges.har will be once finished. */
  readonly path: string;
  private readonly partial: string;
  private fd: number | undefined;
  private pending = '';
  private entries = 0;
  private failure: Error | undefined;
  private finished = false;
  private redactor: { key: string; redactor: Redactor } | undefined;
  /** Links each case refused with a valid twin to the twin's entry, under a salt of this file. */
  private readonly link = twinLinker();
  private readonly onExit = () => {
    try {
      this.finish();
    } catch {
      // Exiting anyway: nothing left to tell.
    }
  };

  constructor(
    dir: string,
    private readonly creator: { name: string; version: string },
    private readonly secrets: () => readonly string[],
  ) {
    this.path = path.join(dir, HAR_FILE);
    this.partial = path.join(dir, HAR_PARTIAL_FILE);
  }

  /**
   * Appends one request: an exchange (without its attempts sent again: the transport tells each of
   * them on its own, Transport.recordSent), or a request no rule judged. Never throws: the first
   * failure stops the file and `finish()` reports it.
   */
  add(exchange: Exchange | UnjudgedExchange): void {
    if (this.finished || this.failure) return;
    let entry: HarEntry;
    try {
      entry = harEntry(exchange, this.link);
    } catch (error) {
      this.fail(error);
      return;
    }
    this.addEntry(entry);
  }

  /** Appends an entry already in HAR form (`conformance merge` joins the shards' files); never throws, like `add`. */
  addEntry(entry: unknown): void {
    if (this.finished || this.failure) return;
    try {
      this.open();
      const redactor = this.currentRedactor();
      this.pending += `${this.entries++ ? ',' : ''}\n${redactor.text(JSON.stringify(redactor.value(entry)))}`;
      if (this.pending.length >= FLUSH_CHARS) this.flush();
    } catch (error) {
      this.fail(error);
    }
  }

  /** Closes the JSON and renames the file to exchanges.har; returns its path. Throws the first failure (and leaves no file). */
  finish(): string {
    if (!this.finished) {
      this.finished = true;
      process.off('exit', this.onExit);
      if (!this.failure) {
        try {
          this.open();
          this.pending += `\n${HAR_CLOSING}\n`;
          this.flush();
          closeSync(this.fd!);
          this.fd = undefined;
          renameSync(this.partial, this.path);
        } catch (error) {
          this.fail(error);
        }
      }
      if (this.failure) this.discard();
    }
    if (this.failure) throw this.failure;
    return this.path;
  }

  private open(): void {
    if (this.fd !== undefined || this.failure) return;
    // The folder is made ready before the run (report-dir.ts): no mkdir here.
    this.fd = openSync(this.partial, 'w');
    process.on('exit', this.onExit);
    const creator = JSON.stringify({ name: this.creator.name, version: this.creator.version });
    this.pending = `${harHeadLine(creator)}${this.pending}`;
  }

  private flush(): void {
    if (this.fd === undefined || this.failure) return;
    writeSync(this.fd, this.pending);
    this.pending = '';
  }

  /** One Redactor while the secrets stay the same; a new one when a token was issued. */
  private currentRedactor(): Redactor {
    const secrets = this.secrets();
    const key = secrets.join('\u0000');
    if (this.redactor?.key !== key) this.redactor = { key, redactor: new Redactor(secrets) };
    return this.redactor.redactor;
  }

  private fail(error: unknown): void {
    this.failure ??= error instanceof Error ? error : new Error(String(error));
    this.pending = '';
  }

  private discard(): void {
    try {
      if (this.fd !== undefined) closeSync(this.fd);
    } catch {
      // Already closed.
    }
    this.fd = undefined;
    rmSync(this.partial, { force: true });
  }
}
