/**
 * The scanner that splits one array of a JSON document read in chunks (issue 33): the same
 * elements whatever the layout and wherever the chunks end, strings that hold brackets, quotes
 * and backslashes, and a stated limit on what is held at once.
 */
import { describe, expect, it } from 'vitest';
import { JsonArrayScanError, JsonArrayScanner } from '../../src/core/json-array-scan.ts';

const LIMITS = { elementBytes: 1024 * 1024, restBytes: 1024 * 1024 };
const ELEMENTS = [
  { a: 1, text: 'brackets ] } [ { and "quotes" and a backslash \\ and \\" inside' },
  { nested: { list: [1, [2, [3]], { deep: '}' }] } },
  [{ in: 'an array' }],
  { unicode: 'ünïcødé ✓ 漢字', escape: '\u0000\n\t' },
];
const DOCUMENT = { log: { version: '1.2', creator: { name: 'x', entries: ['not', 'these'] }, entries: ELEMENTS, comment: 'after', _mark: true } };

/** Splits `text` in chunks of `size` bytes; the elements parsed, and the rest. */
function scan(text: string, size: number, limits = LIMITS): { elements: unknown[]; rest: unknown } {
  const scanner = new JsonArrayScanner(['log', 'entries'], limits);
  const bytes = Buffer.from(text, 'utf8');
  const elements: unknown[] = [];
  for (let at = 0; at < bytes.length; at += size) for (const e of scanner.push(bytes.subarray(at, at + size))) elements.push(JSON.parse(e.toString('utf8')));
  return { elements, rest: scanner.end() };
}

describe('JsonArrayScanner', () => {
  const layouts = {
    'one line': JSON.stringify(DOCUMENT),
    'pretty-printed': JSON.stringify(DOCUMENT, null, 2),
    'one element a line (our writer)': `{"log": {"version": "1.2", "creator": {"name": "x", "entries": ["not", "these"]}, "entries": [\n${ELEMENTS.map((e) => JSON.stringify(e)).join(',\n')}\n], "comment": "after", "_mark": true}}\n`,
  };
  for (const [layout, text] of Object.entries(layouts)) {
    it(`${layout}: every element, in order, and the rest with the array emptied, whatever the chunk size`, () => {
      for (const size of [1, 2, 3, 7, 64, text.length]) {
        const { elements, rest } = scan(text, size);
        expect(elements, `chunks of ${size}`).toEqual(ELEMENTS);
        expect(rest).toEqual({ log: { ...DOCUMENT.log, entries: [] } });
      }
    });
  }

  it('an empty array: no element, the rest whole', () => {
    expect(scan('{"log":{"entries":[ ]}}', 5)).toEqual({ elements: [], rest: { log: { entries: [] } } });
  });

  it('refuses an element larger than its limit as soon as it passes it, naming the element', () => {
    const text = JSON.stringify({ log: { entries: [{ small: 1 }, { big: 'x'.repeat(5000) }] } });
    const scanner = new JsonArrayScanner(['log', 'entries'], { elementBytes: 1000, restBytes: 1000 });
    expect(() => scanner.push(Buffer.from(text.slice(0, 2000)))).toThrow(new JsonArrayScanError('element 1 of log.entries is larger than 1000 bytes'));
  });

  it('refuses a document whose other parts pass their limit', () => {
    const text = JSON.stringify({ log: { pages: 'y'.repeat(5000), entries: [] } });
    expect(() => scan(text, 100, { elementBytes: 1000, restBytes: 1000 })).toThrow(/without its log\.entries is larger than 1000 bytes/);
  });

  it('says when there is no such array, or the document ends inside it', () => {
    expect(() => scan('{"log":{"entries":{}}}', 4)).toThrow(/no log\.entries array/);
    expect(() => scan('{"log":{"other":[{"a":1}]}}', 4)).toThrow(/no log\.entries array/);
    expect(() => scan('{"log":{"entries":[{"a":1},{"b":', 4)).toThrow(/ends inside log\.entries \(element 1\)/);
    expect(() => scan('{"log":{"entries":[1,2]}}', 4)).toThrow(/element 0 of log\.entries is not an object or array/);
  });

  it('checks the commas between the elements, which JSON.parse never sees', () => {
    expect(() => scan('{"log":{"entries":[{"a":1}{"b":2}]}}', 4)).toThrow(new JsonArrayScanError('a comma is missing before element 1 of log.entries'));
    expect(() => scan('{"log":{"entries":[,{"a":1}]}}', 4)).toThrow(new JsonArrayScanError('a comma is not preceded by element 0 of log.entries'));
    expect(() => scan('{"log":{"entries":[{"a":1},,{"b":2}]}}', 4)).toThrow(/a comma is not preceded by element 1/);
    expect(() => scan('{"log":{"entries":[{"a":1},]}}', 4)).toThrow(new JsonArrayScanError('a comma is not followed by element 1 of log.entries'));
    expect(scan('{"log":{"entries":[ {"a":1} ,\n {"b":2} ]}}', 3).elements).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it('leaves the rest to JSON.parse: garbage outside the array is a SyntaxError at the end', () => {
    expect(() => scan('{"log":{"entries":[{"a":1}]}} trailing', 4)).toThrow(SyntaxError);
  });
});
