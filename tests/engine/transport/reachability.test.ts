/**
 * Reachability: asked again after a pause before the target is called unreachable; any answer,
 * one that breaks HTTP framing too, proves a server is there.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { UnreachableError } from '../../../src/core/errors.ts';
import { checkReachable, REACHABILITY_DELAYS_MS } from '../../../src/engine/transport/reachability.ts';
import { createTransport } from '../../../src/engine/transport/transport.ts';
import { fakeSend } from './fake-send.ts';

const BASE = 'http://target.example';
const refused = { error: { kind: 'connection' as const, message: 'connect ECONNREFUSED' }, code: 'ECONNREFUSED' };
const timedOut = { error: { kind: 'timeout' as const, message: 'no answer within 100 ms' }, code: 'ETIMEDOUT' };
const overflow = { error: { kind: 'other' as const, message: 'HPE_HEADER_OVERFLOW: Parse Error: Header overflow' }, code: 'HPE_HEADER_OVERFLOW' };
const noWait = async () => {};

describe('checkReachable', () => {
  it('asks three times by default, pausing 0.5 s then 1 s', () => {
    expect(REACHABILITY_DELAYS_MS).toEqual([500, 1000]);
  });

  it('resolves on the first answer, whatever its status, after one more ask on the open connection', async () => {
    const send = fakeSend(404);
    await checkReachable(send, BASE, [1, 1], noWait);
    expect(send.calls.map((c) => c.url)).toEqual([`${BASE}/`, `${BASE}/`]);
  });

  it("gives the second ask's round trip, not the first's (which opened the connection); the first's when the second got no answer", async () => {
    // The clock's readings, in turn: each ask reads it when it starts and when its answer is in.
    const clock =
      (...readings: number[]) =>
      () =>
        readings.shift()!;
    expect(await checkReachable(fakeSend(200), BASE, [1, 1], noWait, undefined, clock(0, 90, 90, 120))).toEqual({ roundTripMs: 30 });
    expect(await checkReachable(fakeSend(200, refused), BASE, [1, 1], noWait, undefined, clock(0, 90, 90, 120))).toEqual({ roundTripMs: 90 });
  });

  it('retries after a reset or a timeout, with the given pauses, and resolves once answered', async () => {
    const send = fakeSend(refused, timedOut, 200);
    const waited: number[] = [];
    await checkReachable(send, BASE, [7, 11], async (ms) => void waited.push(ms));
    expect(send.calls).toHaveLength(4);
    expect(waited).toEqual([7, 11]);
  });

  it('counts an answer that breaks HTTP framing as reachable (a server is there)', async () => {
    for (const code of ['HPE_HEADER_OVERFLOW', 'HPE_UNEXPECTED_CONTENT_LENGTH', 'HPE_INVALID_CONSTANT']) {
      const send = fakeSend({ ...overflow, code });
      await checkReachable(send, BASE, [1, 1], noWait);
      expect(send.calls).toHaveLength(2);
    }
  });

  it('throws UnreachableError after every attempt got no answer, naming the cause and the attempts', async () => {
    const send = fakeSend(refused);
    const error = await checkReachable(send, BASE, [1, 1], noWait).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnreachableError);
    expect((error as Error).message).toBe(`cannot reach ${BASE}: ECONNREFUSED (3 attempts)`);
    expect(send.calls).toHaveLength(3);
  });
});

/** A raw TCP server: the first `resets` connections are reset before any byte, the others answered 404. */
async function resettingServer(resets: number): Promise<{ url: string; connections: () => number; close: () => Promise<void> }> {
  let connections = 0;
  const server = net.createServer((socket) => {
    socket.on('error', () => {});
    if (++connections <= resets) return socket.resetAndDestroy();
    socket.once('data', () => socket.end('HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('checkReachable on the wire', () => {
  const servers: { close: () => Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  const transportFor = (url: string) =>
    createTransport({
      baseUrl: url,
      auth: { kind: 'none' },
      timeoutMs: 2000,
      rateLimitPerSecond: null,
      concurrency: 1,
      maxRetries: 0,
      reachabilityDelaysMs: [10, 10],
    });

  it('survives a reset of the first connection', async () => {
    const server = await resettingServer(1);
    servers.push(server);
    await expect(transportFor(server.url).checkReachable()).resolves.toEqual({ roundTripMs: expect.any(Number) });
    // The reset one, the answered one (it closes), and the warm ask's.
    expect(server.connections()).toBe(3);
  });

  it('gives up when every attempt is reset', async () => {
    const server = await resettingServer(Infinity);
    servers.push(server);
    const error = await transportFor(server.url)
      .checkReachable()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnreachableError);
    expect((error as Error).message).toMatch(/^cannot reach http:\/\/127\.0\.0\.1:\d+: ECONNRESET \(3 attempts\)$/);
    expect(server.connections()).toBe(3);
  });

  it('counts a 100 KB header as an answer', async () => {
    const server = net.createServer((socket) => {
      socket.on('error', () => {});
      socket.once('data', () => socket.end(`HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(100_000)}\r\nContent-Length: 2\r\n\r\n{}`));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
    await expect(transportFor(`http://127.0.0.1:${(server.address() as AddressInfo).port}`).checkReachable()).resolves.toEqual({
      roundTripMs: expect.any(Number),
    });
  });
});
