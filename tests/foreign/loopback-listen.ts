/**
 * A test server on a free loopback port that keeps its connections, so that closing it ends them
 * too (a keep-alive connection would otherwise hold the test open, or a proxy's socket outlive it).
 */
import type http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Listening {
  url: string;
  /** Ends every connection, then stops listening. */
  close(): Promise<void>;
}

export async function listenOnLoopback(server: http.Server): Promise<Listening> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    // A connection the test cuts on purpose errors on the server's side too: not a failure.
    socket.on('error', () => {});
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
