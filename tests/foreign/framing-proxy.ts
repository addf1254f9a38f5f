/**
 * A proxy in front of the embedded reference server that breaks HTTP itself on a share of its
 * answers, the way hostile or broken targets do: a 100 KB header, a reset in the middle of the
 * body, two Content-Length headers. The other answers are the reference server's, untouched.
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import { listenOnLoopback } from './loopback-listen.ts';

/** What the proxy does with one request. */
export type Spoil = 'header-overflow' | 'reset-mid-body' | 'duplicate-length' | 'reset-before-answer' | 'silence';

/** Raw bytes that no HTTP client can take as an answer. */
const RAW: Record<Exclude<Spoil, 'reset-mid-body' | 'reset-before-answer' | 'silence'>, string> = {
  'header-overflow': `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Padding: ${'a'.repeat(100_000)}\r\nContent-Length: 2\r\n\r\n{}`,
  'duplicate-length': 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
};

function spoilOn(socket: Socket, spoil: Spoil): void {
  if (spoil === 'silence') return; // the client's timeout ends it
  if (spoil === 'reset-before-answer') return void socket.resetAndDestroy();
  if (spoil === 'reset-mid-body') {
    socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n{"id":"');
    return void setTimeout(() => socket.resetAndDestroy(), 5);
  }
  socket.end(RAW[spoil]);
}

export interface FramingProxy {
  url: string;
  /** Requests seen, and how many were spoiled. */
  seen(): { requests: number; spoiled: number };
  close(): Promise<void>;
}

/**
 * Forwards to `upstream`; the n-th request (from 1) is spoiled as `choose(n)` says, or forwarded
 * when it says undefined.
 */
export async function startFramingProxy(upstream: string, choose: (n: number) => Spoil | undefined): Promise<FramingProxy> {
  let requests = 0;
  let spoiled = 0;
  const server = http.createServer((req, res) => {
    const spoil = choose(++requests);
    if (spoil) {
      spoiled++;
      // The request body is read first, so the client is not cut off while still sending.
      req.resume();
      req.on('end', () => spoilOn(req.socket, spoil));
      return;
    }
    const forward = http.request(`${upstream}${req.url}`, { method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  const { url, close } = await listenOnLoopback(server);
  return { url, seen: () => ({ requests, spoiled }), close };
}
