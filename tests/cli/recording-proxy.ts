/**
 * A live target for replay tests: a proxy in front of an embedded reference server that records
 * every request it forwards (method, path, whether it carried credentials), and a way to read the
 * server's accounts behind the proxy's back, so a test compares them before and after.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createReferenceServer, type ReferenceServer, type ReferenceServerOptions } from '../../src/server/server.ts';

export interface Seen {
  method: string;
  path: string;
  authorized: boolean;
}

export interface RecordingTarget {
  url: string;
  server: ReferenceServer;
  seen: Seen[];
  /** Called as each request arrives, before it is forwarded. */
  onRequest?: (seen: Seen) => void;
  /** Each seeded account as the server holds it (read with an empty update, straight to the server), without updated_at. */
  accounts(): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

export async function startRecordingTarget(options: ReferenceServerOptions = {}): Promise<RecordingTarget> {
  const server = await createReferenceServer(options);
  const upstream = new URL(server.baseUrl);
  const target: RecordingTarget = {
    url: '',
    server,
    seen: [],
    async accounts() {
      const states: Record<string, unknown> = {};
      for (const id of server.fiatAccountIds) {
        const answer = await fetch(`${server.baseUrl}/v2/transfer/fiat-accounts/${id}`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${server.staticToken}`, 'content-type': 'application/json' },
          body: '{}',
        });
        const { updated_at: _, ...state } = (await answer.json()) as Record<string, unknown>;
        states[id] = state;
      }
      return states;
    },
    close: async () => {
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      proxy.closeAllConnections();
      await server.close();
    },
  };
  const proxy = http.createServer((req, res) => {
    const seen = { method: req.method ?? '', path: req.url ?? '', authorized: req.headers.authorization !== undefined };
    target.seen.push(seen);
    target.onRequest?.(seen);
    const forward = http.request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  target.url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  return target;
}
