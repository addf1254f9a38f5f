/**
 * Answers no conformant target sends: 10 MB and 100 MB bodies, bytes that are not UTF-8, a gzip
 * bomb. Each is recorded with at most MAX_BODY_BYTES kept, and the next exchange goes on.
 * Bodies are generated as they are sent: no test holds one whole.
 */
import zlib from 'node:zlib';
import type http from 'node:http';
import { describe, expect, it } from 'vitest';
import { httpCall } from '../../../src/engine/transport/http-call.ts';
import { MAX_BODY_BYTES, MAX_COUNTED_BYTES } from '../../../src/engine/transport/body-stream.ts';
import { json, localServers } from './local-server.ts';

const serve = localServers();
const MB = 1_000_000;
const CHUNK = Buffer.alloc(64 * 1024, 'x');

/** Writes `size` bytes of `{"pad":"xxx…` with backpressure, never the whole body at once. */
function streamJson(res: http.ServerResponse, size: number): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  let sent = 0;
  const write = () => {
    while (sent < size) {
      const piece = sent === 0 ? Buffer.from('{"pad":"') : CHUNK.subarray(0, Math.min(CHUNK.length, size - sent));
      sent += piece.length;
      if (!res.write(piece)) return void res.once('drain', write);
    }
    res.end();
  };
  res.on('close', () => (sent = size));
  write();
}

const get = (url: string) => httpCall({ method: 'GET', url, headers: {} }, 30_000);

describe('bodies past the cap', () => {
  it.each([10 * MB, 100 * MB])('a %d-byte body is kept to the cap, counted whole, json false, and the next exchange goes on', async (size) => {
    let answers = 0;
    const server = await serve((_req, res) => (answers++ === 0 ? streamJson(res, size) : json(res, 200, { id: 'next' })));
    const first = await get(server.url);
    expect('response' in first && first.response).toMatchObject({ status: 200, json: false, truncated: { keptBytes: MAX_BODY_BYTES, receivedBytes: size } });
    const response = 'response' in first ? first.response : undefined;
    expect(response?.rawBody.length).toBe(MAX_BODY_BYTES);
    expect(response?.rawBody.startsWith('{"pad":"xxx')).toBe(true);
    expect(response?.body).toBeUndefined();
    expect(await get(server.url)).toMatchObject({ response: { status: 200, json: true, body: { id: 'next' } } });
  });

  it('a body at the cap exactly is whole: not truncated, parsed', async () => {
    const body = `{"pad":"${'y'.repeat(MAX_BODY_BYTES - 10)}"}`;
    const server = await serve((_req, res) => json(res, 200, JSON.parse(body)));
    const outcome = await get(server.url);
    expect(outcome).toMatchObject({ response: { json: true } });
    expect('response' in outcome && outcome.response.truncated).toBeUndefined();
  });

  it('a gzip bomb inflates only until the count limit: cut, kept to the cap', async () => {
    // 300 MiB of zeros, about 300 KB on the wire.
    const bomb = await new Promise<Buffer>((resolve) => {
      const gzip = zlib.createGzip({ level: 9 });
      const out: Buffer[] = [];
      gzip.on('data', (c: Buffer) => out.push(c)).on('end', () => resolve(Buffer.concat(out)));
      const zeros = Buffer.alloc(1024 * 1024);
      for (let i = 0; i < 300; i++) gzip.write(zeros);
      gzip.end();
    });
    const server = await serve((_req, res) => res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(bomb));
    const outcome = await get(server.url);
    const response = 'response' in outcome ? outcome.response : undefined;
    expect(response?.truncated?.keptBytes).toBe(MAX_BODY_BYTES);
    expect(response?.truncated?.receivedBytes).toBeGreaterThan(MAX_COUNTED_BYTES);
    expect(response?.truncated?.receivedBytes).toBeLessThan(300 * 1024 * 1024);
    expect(response?.json).toBe(false);
  });
});

describe('bytes that are not UTF-8', () => {
  it('sets invalidUtf8 and shows them as U+FFFD', async () => {
    const server = await serve((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])),
    );
    const outcome = await get(server.url);
    expect(outcome).toMatchObject({ response: { invalidUtf8: true, rawBody: '{"a":"\uFFFD\uFFFD"}' } });
  });

  it('valid UTF-8 cut at the cap inside a character is not called invalid', async () => {
    // 4-byte characters with a 1-byte offset: the cap falls inside one.
    const server = await serve((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('a' + '😀'.repeat(MAX_BODY_BYTES / 4 + 10)));
    const outcome = await get(server.url);
    const response = 'response' in outcome ? outcome.response : undefined;
    expect(response?.truncated).toBeDefined();
    expect(response?.invalidUtf8).toBeUndefined();
    expect(response?.rawBody.endsWith('😀')).toBe(true);
  });

  it('a valid body says nothing of UTF-8', async () => {
    const server = await serve((_req, res) => json(res, 200, { name: 'é😀' }));
    const outcome = await get(server.url);
    expect(outcome).toMatchObject({ response: { json: true, body: { name: 'é😀' } } });
    expect('response' in outcome && 'invalidUtf8' in outcome.response).toBe(false);
  });
});
