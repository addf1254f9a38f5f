/**
 * A TLS front for an http:// server (the embedded server speaks plain HTTP): an https server on a
 * free loopback port with the test CA's certificate that passes every request on as it came. It
 * notes the remote port of every connection, so a test can tell whether it came through a proxy.
 */
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

export interface TlsForwarder {
  /** https://127.0.0.1:PORT */
  url: string;
  /** Remote ports of the connections it accepted, and the requests it passed on. */
  clientPorts: number[];
  requests: number;
  close(): Promise<void>;
}

export async function startTlsForwarder(upstream: string, tls: { key: string; cert: string }): Promise<TlsForwarder> {
  const target = new URL(upstream);
  const sockets = new Set<Socket>();
  const state = { clientPorts: [] as number[], requests: 0 };
  const server = https.createServer(tls, (req, res) => {
    state.requests++;
    const forward = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  server.on('secureConnection', (socket: Socket) => {
    state.clientPorts.push(socket.remotePort ?? 0);
    sockets.add(socket);
    socket.on('error', () => {});
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get clientPorts() {
      return state.clientPorts;
    },
    get requests() {
      return state.requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
