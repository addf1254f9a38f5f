/**
 * Hostile targets for the survival tests: a loopback proxy in front of the embedded reference
 * server that answers some requests the way a broken or malicious implementation does (huge
 * bodies, broken HTTP framing, hangs, redirects, invalid UTF-8 ...) and forwards the others.
 * Every misbehaviour is produced here, not by the reference server, so the harness sees exactly
 * the bytes a foreign target would send.
 */
import http from 'node:http';
import type net from 'node:net';
import type { AddressInfo } from 'node:net';
import { createReferenceServer, type ReferenceServer } from '../../src/server/server.ts';

export type Misbehaviour =
  /** 200, JSON, the real answer padded with one string field to `size` bytes, streamed. */
  | 'huge-json'
  /** 200, JSON content type, `size` bytes of 'x'. */
  | 'huge-garbage'
  /** 200 with a plain-text body. */
  | 'not-json'
  /** The real answer cut in half (Content-Length of the half). */
  | 'truncated-json'
  /** 200 with JSON nested 10,000 arrays deep. */
  | 'deep-json'
  /** The real answer with a 0xFF byte inside its first string value. */
  | 'invalid-utf8'
  /** A 100 KB response header. */
  | 'huge-header'
  /** Headers and half the body, then the connection is reset. */
  | 'reset-mid-body'
  /** Two different Content-Length headers. */
  | 'duplicate-content-length'
  /** Never answers; the connection stays open. */
  | 'hang'
  /** 307 to the same URL. */
  | 'redirect-self'
  /** 307 to another port (where nothing listens). */
  | 'redirect-elsewhere'
  /** 204 and 304 (in turn) with a body. */
  | 'no-content-with-body'
  /** A 103 Early Hints before the real answer. */
  | 'informational-first';

export interface HostileOptions {
  misbehaviour: Misbehaviour;
  /** Which requests to the API misbehave (1-based count of proxied requests; the request's method and body size). */
  when: (n: number, request: { method: string; bodyBytes: number }) => boolean;
  /** Body size of huge-json / huge-garbage, bytes (default 10 MB). */
  size?: number;
}

export interface HostileTarget {
  baseUrl: string;
  token: string;
  accountIds: string[];
  /** Requests that misbehaved so far. */
  readonly misbehaved: number;
  close(): Promise<void>;
}

const CHUNK = Buffer.alloc(64 * 1024, 'x');

/** Writes `size` bytes in 64 KB chunks, respecting backpressure, without holding them in memory. */
async function streamBytes(out: NodeJS.WritableStream, size: number): Promise<void> {
  for (let left = size; left > 0; left -= CHUNK.length) {
    const chunk = left >= CHUNK.length ? CHUNK : CHUNK.subarray(0, left);
    if (!out.write(chunk)) await new Promise((resolve) => out.once('drain', resolve));
  }
}

interface Upstream {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function forward(server: ReferenceServer, req: http.IncomingMessage, body: Buffer): Promise<Upstream> {
  const url = new URL(req.url ?? '/', server.baseUrl);
  return new Promise((resolve, reject) => {
    const out = http.request(url, { method: req.method, headers: { ...req.headers, host: url.host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    out.on('error', reject);
    out.end(body);
  });
}

const readBody = (req: http.IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

/** Raw bytes on the socket: framing node's own server would refuse to produce. */
function raw(socket: net.Socket, head: string, body: Buffer | string = ''): void {
  socket.write(head.replace(/\n/g, '\r\n') + '\r\n');
  socket.end(body);
}

/** `n`: how many requests misbehaved before this one. */
async function misbehave(
  kind: Misbehaviour,
  n: number,
  up: Upstream,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  size: number,
  self: string,
): Promise<void> {
  const socket = res.socket!;
  switch (kind) {
    case 'huge-json': {
      res.writeHead(200, { 'content-type': 'application/json' });
      const text = up.body.toString('utf8').trim();
      const open = text.startsWith('{') && text.length > 2 ? `${text.slice(0, -1)},"padding":"` : '{"padding":"';
      res.write(open);
      await streamBytes(res, Math.max(0, size - open.length - 2));
      res.end('"}');
      return;
    }
    case 'huge-garbage':
      res.writeHead(200, { 'content-type': 'application/json' });
      await streamBytes(res, size);
      res.end();
      return;
    case 'not-json':
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('OK');
      return;
    case 'truncated-json': {
      const half = up.body.subarray(0, Math.floor(up.body.length / 2));
      res.writeHead(up.status, { 'content-type': 'application/json', 'content-length': half.length });
      res.end(half);
      return;
    }
    case 'deep-json':
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('['.repeat(10_000) + ']'.repeat(10_000));
      return;
    case 'invalid-utf8': {
      const text = up.body.toString('latin1');
      const at = text.indexOf('":"');
      const body =
        at < 0
          ? Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d])
          : Buffer.concat([up.body.subarray(0, at + 3), Buffer.from([0xff, 0xfe]), up.body.subarray(at + 3)]);
      res.writeHead(up.status, { 'content-type': 'application/json', 'content-length': body.length });
      res.end(body);
      return;
    }
    case 'huge-header':
      raw(
        socket,
        `HTTP/1.1 ${up.status} OK\nContent-Type: application/json\nX-Padding: ${'p'.repeat(100 * 1024)}\nContent-Length: ${up.body.length}\nConnection: close\n`,
        up.body,
      );
      return;
    case 'reset-mid-body':
      socket.write(`HTTP/1.1 ${up.status} OK\r\nContent-Type: application/json\r\nContent-Length: ${up.body.length}\r\n\r\n`);
      socket.write(up.body.subarray(0, Math.floor(up.body.length / 2)));
      setTimeout(() => socket.resetAndDestroy(), 10);
      return;
    case 'duplicate-content-length':
      raw(
        socket,
        `HTTP/1.1 ${up.status} OK\nContent-Type: application/json\nContent-Length: ${up.body.length}\nContent-Length: ${up.body.length + 5}\nConnection: close\n`,
        up.body,
      );
      return;
    case 'hang':
      return;
    case 'redirect-self':
      res.writeHead(307, { location: `${self}${req.url}` });
      res.end();
      return;
    case 'redirect-elsewhere':
      res.writeHead(307, { location: `http://127.0.0.1:9${req.url}` });
      res.end();
      return;
    case 'no-content-with-body':
      raw(
        socket,
        `HTTP/1.1 ${n % 2 ? '304 Not Modified' : '204 No Content'}\nContent-Type: application/json\nContent-Length: ${up.body.length}\nConnection: close\n`,
        up.body,
      );
      return;
    case 'informational-first':
      socket.write('HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n');
      res.writeHead(up.status, { ...up.headers, 'content-length': up.body.length });
      res.end(up.body);
      return;
  }
}

export async function startHostileTarget(options: HostileOptions): Promise<HostileTarget> {
  const upstream = await createReferenceServer({ reading: {} });
  const size = options.size ?? 10 * 1024 * 1024;
  let count = 0;
  let misbehaved = 0;
  const sockets = new Set<net.Socket>();
  const server = http.createServer(async (req, res) => {
    try {
      const body = await readBody(req);
      const up = await forward(upstream, req, body);
      const n = ++count;
      if (!options.when(n, { method: req.method ?? '', bodyBytes: body.length })) {
        res.writeHead(up.status, up.headers);
        res.end(up.body);
        return;
      }
      await misbehave(options.misbehaviour, misbehaved++, up, req, res, size, self);
    } catch {
      res.socket?.destroy();
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const self = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl: self,
    token: upstream.staticToken,
    accountIds: upstream.fiatAccountIds,
    get misbehaved() {
      return misbehaved;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await upstream.close();
    },
  };
}
