/**
 * A tiny node:http server on a free loopback port for transport tests: each test gives its own
 * handler, and every request it saw (with its body) is kept for assertions.
 */
import { afterEach } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** ms since the epoch when the request arrived */
  at: number;
}

export interface LocalServer {
  url: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

export type Handler = (req: SeenRequest, res: http.ServerResponse, raw: http.IncomingMessage) => unknown;

export async function startServer(handler: Handler): Promise<LocalServer> {
  const seen: SeenRequest[] = [];
  const server = http.createServer((raw, res) => {
    const at = Date.now();
    const chunks: Buffer[] = [];
    raw.on('data', (c: Buffer) => chunks.push(c));
    raw.on('end', () => {
      const req: SeenRequest = { method: raw.method ?? '', url: raw.url ?? '', headers: raw.headers, body: Buffer.concat(chunks).toString('utf8'), at };
      seen.push(req);
      void Promise.resolve(handler(req, res, raw));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback URL where nothing listens: a server is started, its port noted, and closed. */
export async function closedPortUrl(): Promise<string> {
  const server = await startServer((_req, res) => res.end());
  await server.close();
  return server.url;
}

export const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

/** Starts servers for a test file and closes them after each test. Call at the top of the file. */
export function localServers(): (handler: Handler) => Promise<LocalServer> {
  const servers: LocalServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  return async (handler) => {
    const server = await startServer(handler);
    servers.push(server);
    return server;
  };
}
