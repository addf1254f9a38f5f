import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLatencyProxy, type LatencyProxy } from '../../scripts/latency-proxy.ts';

const DELAY = 100;

/** Echoes method, path and body back as JSON, with a header of its own. */
function startEcho(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.writeHead(201, { 'content-type': 'application/json', 'x-echo': 'yes' });
      res.end(JSON.stringify({ method: req.method, path: req.url, body: Buffer.concat(chunks).toString() }));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () => new Promise<void>((done) => (server.closeAllConnections(), server.close(() => done()))),
      }),
    ),
  );
}

async function timed(url: string, init?: RequestInit) {
  const started = performance.now();
  const response = await fetch(url, init);
  const body = await response.json();
  return { ms: performance.now() - started, response, body };
}

describe('latency proxy', () => {
  let echo: Awaited<ReturnType<typeof startEcho>>;
  let proxy: LatencyProxy;
  beforeAll(async () => {
    echo = await startEcho();
    proxy = await startLatencyProxy(echo.url, DELAY);
  });
  afterAll(async () => {
    await proxy.close();
    await echo.close();
  });

  it('passes request and answer through unchanged, late by the delay', async () => {
    const { ms, response, body } = await timed(`${proxy.url}/v2/x?y=1`, { method: 'PUT', body: '{"a":1}' });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-echo')).toBe('yes');
    expect(body).toEqual({ method: 'PUT', path: '/v2/x?y=1', body: '{"a":1}' });
    expect(ms).toBeGreaterThanOrEqual(DELAY - 5); // timers may fire a little early
  });

  it('delays answers side by side, not one after another', async () => {
    expect(proxy.peakInFlight().total).toBe(1); // the one request of the test before
    await Promise.all(Array.from({ length: 8 }, () => timed(`${proxy.url}/`)));
    // Counted, not timed: answers held one after another would never have two requests in flight.
    expect(proxy.peakInFlight().total).toBeGreaterThan(1);
    expect(proxy.requests()).toBe(9);
  });
});
