/**
 * The lines of exchanges.har as HarFile writes it (har-file.ts): a head line that opens the log
 * and its entries (`{"log": {…, "entries": [`), one entry a line (a comma after each but the
 * last), and `]}}`. The bundle's redaction goes line by line, so that it rewrites each entry and
 * keeps the layout; a HAR in another layout (one line, or pretty-printed) is redacted whole.
 */

import { createReadStream } from 'node:fs';

const HEAD_START = '{"log": {';
const HEAD_END = '"entries": [';
/** The line that closes the entries, the log and the document. */
export const HAR_CLOSING = ']}}';

/** The head line HarFile writes, without its new line: the log's version and creator (JSON), then the entries open. */
export const harHeadLine = (creatorJson: string): string => `${HEAD_START}"version": "1.2", "creator": ${creatorJson}, ${HEAD_END}`;

/** Whether `line` is the head line HarFile writes. */
export const isHarHead = (line: string): boolean => line.startsWith(HEAD_START) && line.trimEnd().endsWith(HEAD_END);

/** The entry a line after the head holds, or undefined for the closing line (and an empty one after it). Throws a SyntaxError for anything else. */
export function entryOfLine(line: string): unknown {
  const text = line.trimEnd();
  if (text === HAR_CLOSING || text === '') return undefined;
  return JSON.parse(text.endsWith(',') ? text.slice(0, -1) : text);
}

/** The head line with `fields` added to the log first (their values as JSON), the rest as it was. */
export function headWith(line: string, fields: Record<string, unknown>): string {
  const added = Object.entries(fields).map(([key, value]) => `${JSON.stringify(key)}: ${JSON.stringify(value)}, `);
  return HEAD_START + added.join('') + line.slice(HEAD_START.length);
}

/**
 * The lines of a text file as it streams (UTF-8), split at `\n` without it: joined again with
 * `\n` they give the text back exactly (the last piece, empty after a final new line, included).
 */
export async function* fileLines(file: string): AsyncGenerator<string> {
  let rest = '';
  for await (const chunk of createReadStream(file, { encoding: 'utf8' }) as AsyncIterable<string>) {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop()!;
    yield* lines;
  }
  yield rest;
}
