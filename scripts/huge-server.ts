/**
 * A loopback target for `npm run memory -- --huge`: every answer is enormous, in turn 10 MB and
 * 100 MB of JSON, the same of bytes that are not UTF-8, and a gzip bomb (a small body that
 * inflates to 1 GiB). Bodies are generated as they are sent: the server holds one chunk.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import zlib from 'node:zlib';
import { promisify } from 'node:util';

const MB = 1_000_000;
const CHUNK = 64 * 1024;

interface Answer {
  headers: Record<string, string>;
  /** Bytes of the body, written in CHUNK pieces by `piece(offset, length)`. */
  size: number;
  piece(offset: number, length: number): Buffer;
}

const PAD = Buffer.alloc(CHUNK, 'x');
const GARBAGE = Buffer.concat([Buffer.from([0xff, 0xfe, 0xc3]), randomBytes(CHUNK - 3)]);

/** `{"pad":"xxx...x"}` of `size` bytes. */
function json(size: number): Answer {
  const head = Buffer.from('{"pad":"');
  const tail = Buffer.from('"}');
  return {
    headers: { 'content-type': 'application/json' },
    size,
    piece: (offset, length) => {
      const out = Buffer.from(PAD.subarray(0, length));
      if (offset === 0) head.copy(out, 0);
      if (offset + length === size) tail.copy(out, length - tail.length);
      return out;
    },
  };
}

function garbage(size: number): Answer {
  return { headers: { 'content-type': 'application/octet-stream' }, size, piece: (_offset, length) => GARBAGE.subarray(0, length) };
}

export async function startHugeServer(): Promise<{ baseUrl: string; fiatAccountId: string; bytesSent(): number; answers(): number; close(): Promise<void> }> {
  // 1 GiB of zeros compresses to about 1 MB: sent as it is, inflated by the harness under its cap.
  const bombBody = await promisify(zlib.gzip)(Buffer.alloc(1024 * 1024 * 1024), { level: 9 });
  const bomb: Answer = {
    headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    size: bombBody.length,
    piece: (o, l) => bombBody.subarray(o, o + l),
  };
  const kinds: Answer[] = [json(10 * MB), json(100 * MB), garbage(10 * MB), garbage(100 * MB), bomb];
  let sent = 0;
  let count = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    const answer = kinds[count++ % kinds.length];
    res.writeHead(200, { ...answer.headers, 'content-length': String(answer.size) });
    let offset = 0;
    const write = () => {
      while (offset < answer.size) {
        const length = Math.min(CHUNK, answer.size - offset);
        const ok = res.write(answer.piece(offset, length));
        offset += length;
        sent += length;
        if (!ok) return void res.once('drain', write);
      }
      res.end();
    };
    // A client that stops reading closes the socket: stop writing too.
    res.on('close', () => (offset = answer.size));
    write();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    fiatAccountId: randomUUID(),
    bytesSent: () => sent,
    answers: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
