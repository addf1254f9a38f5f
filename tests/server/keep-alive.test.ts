/**
 * The embedded server keeps an idle connection open longer than a client does (Node's agent drops
 * an idle socket at 5 s): at Node's default server timeout, also 5 s, a client could reuse a socket
 * the server was closing, and the request failed with ECONNRESET, a false failure (seen once in a
 * replay of a --runs 5000 HAR). A request on a connection idle for 6 s is answered.
 */
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { startsReferenceServers } from './started-servers.ts';

const start = startsReferenceServers();

/** Sends a GET on the socket and resolves with the status line of the answer, or the socket's end. */
function ask(socket: Socket, host: string, path: string): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (text.includes('\r\n\r\n')) done(text.split('\r\n')[0]);
    };
    const onEnd = () => done(text ? text.split('\r\n')[0] : 'closed by the server');
    const done = (line: string) => {
      socket.off('data', onData).off('end', onEnd).off('close', onEnd);
      resolve(line);
    };
    socket.on('data', onData).once('end', onEnd).once('close', onEnd);
    socket.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: keep-alive\r\n\r\n`);
  });
}

describe('an idle keep-alive connection', () => {
  it('is still served after 6 s idle, past the 5 s after which a Node client drops it', async () => {
    const server = await start();
    const { hostname, port, host } = new URL(server.baseUrl);
    const socket = connect(Number(port), hostname);
    try {
      await new Promise((resolve) => socket.once('connect', resolve));
      const path = `/v2/transfer/fiat-accounts/${server.fiatAccountIds[0]}`;
      expect(await ask(socket, host, path)).toMatch(/^HTTP\/1\.1 401/);
      await sleep(6000);
      expect(await ask(socket, host, path)).toMatch(/^HTTP\/1\.1 401/);
    } finally {
      socket.destroy();
    }
  }, 15_000);
});
