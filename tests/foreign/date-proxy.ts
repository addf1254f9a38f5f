/**
 * A proxy in front of the embedded reference server that stands for a front tier with its own
 * clock: each answer's Date header is the proxy's, moved by `shiftMs` (a clock behind or ahead),
 * or dropped (`undefined`). Everything else is the reference server's, untouched.
 */
import http from 'node:http';
import { listenOnLoopback, type Listening } from './loopback-listen.ts';

export async function startDateProxy(upstream: string, shiftMs: number | undefined): Promise<Listening> {
  const server = http.createServer((req, res) => {
    const forward = http.request(`${upstream}${req.url}`, { method: req.method, headers: req.headers }, (up) => {
      const { date: _upstreams, ...headers } = up.headers;
      // Without this, node writes a Date of its own.
      res.sendDate = false;
      if (shiftMs !== undefined) headers.date = new Date(Date.now() + shiftMs).toUTCString();
      res.writeHead(up.statusCode ?? 502, headers);
      up.pipe(res);
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  return listenOnLoopback(server);
}
