/** readBody alone, on in-memory streams with small limits: when it keeps, counts, stops and closes. */
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readBody } from '../../../src/engine/transport/body-stream.ts';
import { recordBody } from '../../../src/engine/transport/body-record.ts';

const limits = { keep: 10, count: 1000 };
const never = new AbortController().signal;

/** A body that never ends: 100-byte chunks for ever. */
const endless = () =>
  new Readable({
    read() {
      this.push(Buffer.alloc(100, 'a'));
    },
  });

/** Chunks, then a stream that stays open (a server that stops sending). */
function stalled(...chunks: string[]): Readable {
  const stream = new Readable({ read() {} });
  for (const c of chunks) stream.push(c);
  return stream;
}

describe('readBody', () => {
  it('keeps the first bytes and counts the rest to the end', async () => {
    const read = await readBody(Readable.from([Buffer.from('0123456789abc'), Buffer.from('def')]), undefined, never, limits);
    expect(read.bytes.toString()).toBe('0123456789');
    expect(read.receivedBytes).toBe(16);
  });

  it('cuts an endless body past the count limit and destroys the stream', async () => {
    const source = endless();
    const read = await readBody(source, undefined, never, limits);
    expect(read.bytes.length).toBe(10);
    expect(read.receivedBytes).toBeGreaterThan(1000);
    expect(source.destroyed).toBe(true);
  });

  it('at the deadline, a body past the cap is kept (a lower bound counted) and the stream destroyed', async () => {
    const source = stalled('0123456789', 'abcdef');
    const deadline = new AbortController();
    const reading = readBody(source, undefined, deadline.signal, limits);
    await new Promise((resolve) => setImmediate(resolve));
    deadline.abort(new Error('deadline'));
    const read = await reading;
    expect(read).toMatchObject({ receivedBytes: 16 });
    expect(source.destroyed).toBe(true);
  });

  it('at the deadline, a body still under the cap is an error, and the stream destroyed', async () => {
    const source = stalled('{"a":');
    const deadline = new AbortController();
    const reading = readBody(source, undefined, deadline.signal, limits);
    deadline.abort(new Error('deadline'));
    await expect(reading).rejects.toThrow('deadline');
    expect(source.destroyed).toBe(true);
  });

  it('undoes a content coding under the same cap; a body that does not decode is kept as it came', async () => {
    const gz = zlib.gzipSync(Buffer.from('x'.repeat(5000)));
    const decoded = await readBody(Readable.from([gz]), 'gzip', never, limits);
    expect(decoded).toMatchObject({ receivedBytes: 5000 });
    expect(decoded.bytes.toString()).toBe('x'.repeat(10));
    const notGzip = await readBody(Readable.from([Buffer.from('{"a":1}')]), 'gzip', never, limits);
    expect(notGzip.bytes.toString()).toBe('{"a":1}');
    expect(notGzip.receivedBytes).toBe(7);
  });
});

describe('recordBody', () => {
  it('parses a whole body once, never a cut one', () => {
    expect(recordBody({ bytes: Buffer.from('{"a":1}'), receivedBytes: 7 })).toEqual({ rawBody: '{"a":1}', json: true, body: { a: 1 } });
    expect(recordBody({ bytes: Buffer.from('{"a":1}'), receivedBytes: 9 })).toEqual({
      rawBody: '{"a":1}',
      json: false,
      truncated: { keptBytes: 7, receivedBytes: 9 },
    });
  });

  it('keeps a byte order mark in rawBody and parses past it', () => {
    expect(recordBody({ bytes: Buffer.from('\uFEFF[1]'), receivedBytes: 6 })).toMatchObject({ rawBody: '\uFEFF[1]', json: true, body: [1] });
  });

  it('marks bytes that are not UTF-8; a cut in the middle of a character is not such a byte', () => {
    expect(recordBody({ bytes: Buffer.from([0x22, 0xc3, 0x22]), receivedBytes: 3 })).toMatchObject({ rawBody: '"\uFFFD"', invalidUtf8: true });
    const cut = Buffer.from('é').subarray(0, 1);
    const fields = recordBody({ bytes: Buffer.concat([Buffer.from('ab'), cut]), receivedBytes: 10 });
    expect(fields.rawBody).toBe('ab');
    expect(fields.invalidUtf8).toBeUndefined();
    // The decoder carries nothing from a cut body into the next one.
    expect(recordBody({ bytes: Buffer.from('[2]'), receivedBytes: 3 })).toMatchObject({ rawBody: '[2]', body: [2] });
  });
});
