/**
 * One array of a JSON document read in chunks, element by element (issue 33: a 95,000-entry
 * exchanges.har is 250 MB, and parsing it whole took 1.2 GB): the scanner finds the array by its
 * path of object keys (["log", "entries"] in a HAR), hands out each element's bytes as soon as it
 * ends, and keeps the rest of the document with the array emptied, to parse at the end. The
 * layout does not matter: one element a line (our writer), pretty-printed or all on one line.
 *
 * It only finds where elements begin and end (strings, escapes, nesting); JSON.parse judges each
 * element and the rest. Nothing is held beyond one element and the rest, each under a stated
 * limit. A maintained streaming parser (stream-json, @streamparser/json) was declined: they emit
 * a token or a value per string and number, which costs far more than finding the boundaries,
 * and the elements are parsed whole anyway.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;

/** Limits of what is held at once: one element, and the document without the array's elements. */
export interface JsonArrayScanLimits {
  elementBytes: number;
  restBytes: number;
}

/** The document is not what the scanner can split: too large a part, or no array at the path. */
export class JsonArrayScanError extends Error {}

/** A container outside the array's elements: an object knows the last key it read. */
interface Frame {
  object: boolean;
  key?: string;
  /** Objects: the next string is a key (after `{` or `,`). */
  expectsKey: boolean;
}

export class JsonArrayScanner {
  private readonly frames: Frame[] = [];
  /** Outside the elements: inside a string, after a backslash, the key being read (objects expecting one). */
  private inString = false;
  private escape = false;
  private keyBytes: number[] | undefined;
  /** The array's depth in `frames` once entered; undefined before and after it. */
  private arrayDepth: number | undefined;
  private found = false;
  /** The element being read: its parts, its size, its nesting. */
  private element: Buffer[] | undefined;
  private elementSize = 0;
  private depth = 0;
  private elements = 0;
  /** Between the array's elements: what the last byte that counts was (`[`, an element's end, a comma). */
  private between: 'opened' | 'element' | 'comma' = 'opened';
  private readonly rest: Buffer[] = [];
  private restSize = 0;

  constructor(
    private readonly path: readonly string[],
    private readonly limits: JsonArrayScanLimits,
  ) {}

  /** The elements that end in this chunk, each as its bytes, in order. */
  push(chunk: Buffer): Buffer[] {
    const done: Buffer[] = [];
    let i = 0;
    while (i < chunk.length) {
      if (this.element) i = this.readElement(chunk, i, done);
      else i = this.readOutside(chunk, i);
    }
    return done;
  }

  /** The document without the array's elements, parsed; throws when an element is open, the rest is no JSON (SyntaxError), or the array was never found. */
  end(): unknown {
    if (this.element || this.arrayDepth !== undefined)
      throw new JsonArrayScanError(`the document ends inside ${this.path.join('.')} (element ${this.elements})`);
    // A document that is no JSON at all says so first (a SyntaxError), rather than lacking the array.
    const rest: unknown = JSON.parse(Buffer.concat(this.rest).toString('utf8'));
    if (!this.found) throw new JsonArrayScanError(`no ${this.path.join('.')} array`);
    return rest;
  }

  /** Reads an element from `start` until it ends or the chunk does; returns where it stopped. */
  private readElement(chunk: Buffer, start: number, done: Buffer[]): number {
    let i = start;
    for (; i < chunk.length; i++) {
      const b = chunk[i];
      if (this.inString) {
        if (this.escape) this.escape = false;
        else if (b === BACKSLASH) this.escape = true;
        else if (b === QUOTE) this.inString = false;
        continue;
      }
      if (b === QUOTE) this.inString = true;
      else if (b === OPEN_OBJECT || b === OPEN_ARRAY) this.depth++;
      else if ((b === CLOSE_OBJECT || b === CLOSE_ARRAY) && --this.depth === 0) {
        this.keepElementPart(chunk.subarray(start, i + 1));
        done.push(Buffer.concat(this.element!));
        this.element = undefined;
        this.elements++;
        this.between = 'element';
        return i + 1;
      }
    }
    this.keepElementPart(chunk.subarray(start, i));
    return i;
  }

  private keepElementPart(part: Buffer): void {
    this.elementSize += part.length;
    if (this.elementSize > this.limits.elementBytes)
      throw new JsonArrayScanError(`element ${this.elements} of ${this.path.join('.')} is larger than ${this.limits.elementBytes} bytes`);
    // A copy: the stream may reuse the chunk's memory.
    this.element!.push(Buffer.from(part));
  }

  /** Reads outside the elements from `start`, keeping the bytes as the rest, until an element begins or the chunk ends. */
  private readOutside(chunk: Buffer, start: number): number {
    let i = start;
    let keptFrom = start;
    for (; i < chunk.length; i++) {
      const b = chunk[i];
      if (this.inString) {
        this.stringByte(b);
        continue;
      }
      if (this.arrayDepth !== undefined && this.frames.length === this.arrayDepth) {
        // Between the array's elements: commas and spaces are not kept, so the rest holds `[]`;
        // the commas are checked here, since JSON.parse never sees them.
        if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
          if (this.between === 'element') throw this.separatorError('a comma is missing before');
          this.keepRest(chunk.subarray(keptFrom, i));
          this.element = [];
          this.elementSize = 0;
          this.depth = 0;
          return i;
        }
        if (b === CLOSE_ARRAY) {
          if (this.between === 'comma') throw this.separatorError('a comma is not followed by');
          this.keepRest(chunk.subarray(keptFrom, i));
          keptFrom = i;
          this.arrayDepth = undefined;
        } else if (b === COMMA || b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09) {
          if (b === COMMA) {
            if (this.between !== 'element') throw this.separatorError('a comma is not preceded by');
            this.between = 'comma';
          }
          this.keepRest(chunk.subarray(keptFrom, i));
          keptFrom = i + 1;
          continue;
        } else throw new JsonArrayScanError(`element ${this.elements} of ${this.path.join('.')} is not an object or array`);
      }
      this.structureByte(b);
    }
    this.keepRest(chunk.subarray(keptFrom, i));
    return i;
  }

  private separatorError(what: string): JsonArrayScanError {
    return new JsonArrayScanError(`${what} element ${this.elements} of ${this.path.join('.')}`);
  }

  /** A byte of a string outside the elements: a key is read, any other string skipped. */
  private stringByte(b: number): void {
    if (this.escape) this.escape = false;
    else if (b === BACKSLASH) this.escape = true;
    else if (b === QUOTE) {
      this.inString = false;
      const frame = this.frames.at(-1);
      if (this.keyBytes && frame) {
        frame.key = Buffer.from(this.keyBytes).toString('utf8');
        frame.expectsKey = false;
      }
      this.keyBytes = undefined;
      return;
    }
    // Keys are short; a longer one is no key of the path.
    if (this.keyBytes && this.keyBytes.length < 256) this.keyBytes.push(b);
  }

  /** A byte of the document's structure outside the elements. */
  private structureByte(b: number): void {
    const frame = this.frames.at(-1);
    if (b === QUOTE) {
      this.inString = true;
      this.keyBytes = frame?.object && frame.expectsKey ? [] : undefined;
    } else if (b === OPEN_OBJECT) this.frames.push({ object: true, expectsKey: true });
    else if (b === OPEN_ARRAY) {
      const atPath = !this.found && this.frames.length === this.path.length && this.path.every((key, d) => this.frames[d].object && this.frames[d].key === key);
      this.frames.push({ object: false, expectsKey: false });
      if (atPath) {
        this.found = true;
        this.arrayDepth = this.frames.length;
      }
    } else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) this.frames.pop();
    else if (b === COMMA && frame?.object) frame.expectsKey = true;
  }

  private keepRest(part: Buffer): void {
    if (!part.length) return;
    this.restSize += part.length;
    if (this.restSize > this.limits.restBytes)
      throw new JsonArrayScanError(`the document without its ${this.path.join('.')} is larger than ${this.limits.restBytes} bytes`);
    this.rest.push(Buffer.from(part));
  }
}
