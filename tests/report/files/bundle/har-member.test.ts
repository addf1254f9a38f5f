/** exchanges.har read as it streams out of a bundle: entry by entry in any layout, the whole a JSON document, capped. */
import { describe, expect, it } from 'vitest';
import { HarMemberReader } from '../../../../src/report/files/bundle/har-member.ts';

const entry = (n: number) => ({ request: { url: `http://x/${n}`, postData: { text: '{"first_name":"Ada"}' } }, response: { status: 200 } });
const lines = (n: number) =>
  `{"log": {"version": "1.2", "creator": {"name":"c","version":"1"}, "entries": [\n${Array.from({ length: n }, (_, i) => JSON.stringify(entry(i))).join(',\n')}\n]}}\n`;

/** The reader's outcome for `text` given in chunks of `size` bytes (a line, a character split between chunks). */
function read(text: string, size: number, budget?: number) {
  const reader = new HarMemberReader(0, budget);
  const bytes = Buffer.from(text, 'utf8');
  for (let at = 0; at < bytes.length; at += size) reader.write(bytes.subarray(at, at + size));
  reader.end();
  return reader.outcome;
}

describe('HarMemberReader', () => {
  it('reads the entries of the line layout and of a one-line HAR alike, whatever the chunks', () => {
    const expected = { entries: [entry(0), entry(1), entry(2)] };
    for (const size of [1, 7, 100, 1 << 20]) expect(read(lines(3), size)).toEqual(expected);
    expect(read(JSON.stringify({ log: { entries: expected.entries } }), 13)).toEqual(expected);
    expect(read(JSON.stringify({ log: { entries: [] } }, null, 2), 5)).toEqual({ entries: [] });
    expect(read(lines(0), 3)).toEqual({ entries: [] });
    const unicode = lines(1).replace('Ada', 'Ádá 😀');
    expect(read(unicode, 1)).toEqual({ entries: [JSON.parse(unicode.split('\n')[1])] });
  });

  it('says when a line is no entry, when there are no entries, and when the HAR is over its budget', () => {
    expect(read(lines(2).replace('"http://x/1"', 'http://x/1'), 64)).toMatchObject({
      problem: expect.stringMatching(/^exchanges.har is not JSON \(entry 1: /),
    });
    expect(read('{"log": {}}', 64)).toEqual({ problem: 'exchanges.har has no log.entries' });
    expect(read(lines(100), 4096, 2000)).toEqual({ tooLarge: expect.any(Number) });
    const declared = new HarMemberReader(3000, 2000);
    declared.write(Buffer.from(lines(1)));
    declared.end();
    expect(declared.outcome).toEqual({ tooLarge: 3000 });
  });

  it('refuses a HAR that is no JSON document, whatever its lines hold: an entry after the closing, a head that does not parse, a missing comma', () => {
    const trailing = `${lines(1)}${JSON.stringify(entry(1))}\n`;
    expect(read(trailing, 16)).toMatchObject({ problem: expect.stringMatching(/^exchanges.har is not JSON \(/) });
    expect(read(lines(1).replace('"version": "1.2"', 'garbage!!'), 16)).toMatchObject({ problem: expect.stringMatching(/^exchanges.har is not JSON \(/) });
    expect(read(lines(2).replace('},\n{', '}\n{'), 16)).toEqual({ problem: 'exchanges.har is not a HAR: a comma is missing before element 1 of log.entries' });
  });

  it('refuses at once what no JSON text holds: a first byte other than {, a control byte', () => {
    expect(() => new HarMemberReader().write(Buffer.alloc(10))).toThrow('exchanges.har does not start as JSON (byte 0 at offset 0): it is no HAR');
    const reader = new HarMemberReader();
    reader.write(Buffer.from(' {"log"'));
    expect(() => reader.write(Buffer.from('\u0001'))).toThrow(/control byte \(1\) at offset 7/);
  });
});
