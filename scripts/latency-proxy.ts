/**
 * A loopback HTTP proxy that forwards every request to a target and holds each answer back for
 * `delayMs` before passing it on: a remote target's round trip, on one machine. The bench runs the
 * harness through it to see how rate limit and concurrency behave when answers are slow.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface LatencyProxy {
  port: number;
  /** http://127.0.0.1:PORT, without a trailing slash. */
  url: string;
  /** Requests forwarded so far. */
  requests(): number;
  /** The most requests in flight at once: in all, and PUTs to one path (the updates of one fiat account). */
  peakInFlight(): { total: number; oneAccount: number };
  close(): Promise<void>;
}

/**
 * Forwards to `target` (e.g. http://127.0.0.1:8080); each answer waits `delayMs` once the target
 * gave it (a function: a delay per request, e.g. jitter that reorders the answers).
 */
export async function startLatencyProxy(target: string, delayMs: number | (() => number)): Promise<LatencyProxy> {
  // Keep-alive towards the target: thousands of requests must not each open (and leave in TIME_WAIT) a socket.
  const agent = new http.Agent({ keepAlive: true });
  const sockets = new Set<Socket>();
  let requests = 0;
  const inFlight = new Map<string, number>();
  let total = 0;
  const peak = { total: 0, oneAccount: 0 };
  const server = http.createServer((req, res) => {
    requests += 1;
    const account = req.method === 'PUT' ? (req.url ?? '/') : undefined;
    total += 1;
    peak.total = Math.max(peak.total, total);
    if (account) {
      const here = (inFlight.get(account) ?? 0) + 1;
      inFlight.set(account, here);
      peak.oneAccount = Math.max(peak.oneAccount, here);
    }
    // In flight until the answer starts (or fails): the client cannot send its next request before.
    let settled = false;
    const answering = () => {
      if (settled) return;
      settled = true;
      total -= 1;
      if (!account) return;
      const left = inFlight.get(account)! - 1;
      if (left) inFlight.set(account, left);
      else inFlight.delete(account);
    };
    res.on('close', answering);
    const forward = http.request(new URL(req.url ?? '/', target), { method: req.method, headers: req.headers, agent }, (answer) => {
      // The body waits in the paused stream meanwhile: the whole answer is late, not only its head.
      setTimeout(
        () => {
          answering();
          if (res.destroyed) return void answer.destroy();
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
        typeof delayMs === 'number' ? delayMs : delayMs(),
      );
    });
    forward.on('error', () => {
      answering();
      if (res.headersSent) res.destroy();
      else res.writeHead(502).end();
    });
    // A client that gives up (its timeout) must not leave the target's request running.
    res.on('close', () => res.writableFinished || forward.destroy());
    req.pipe(forward);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    requests: () => requests,
    peakInFlight: () => ({ ...peak }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}
