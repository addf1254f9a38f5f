/** A request without a body goes as curl sends it (no Content-Length, no Transfer-Encoding); an empty body keeps "Content-Length: 0". */
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpCall } from '../../../src/engine/transport/http-call.ts';
import { listenOnLoopback, type Listening } from '../../foreign/loopback-listen.ts';

/** The framing headers of each request the server received, by path. */
const framing = new Map<string, { length?: string; encoding?: string; type?: string }>();
let listening: Listening;

beforeAll(async () => {
  const server = http.createServer((req, res) => {
    framing.set(req.url ?? '', { length: req.headers['content-length'], encoding: req.headers['transfer-encoding'], type: req.headers['content-type'] });
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  listening = await listenOnLoopback(server);
});
afterAll(() => listening.close());

const send = (method: string, path: string, headers: Record<string, string>, body?: string) =>
  httpCall({ method, url: `${listening.url}${path}`, headers, ...(body !== undefined ? { body } : {}) }, 5000, 'direct');

describe('the framing of a request without a body', () => {
  it('sends a PUT and a POST labelled JSON with no body at all without Content-Length or Transfer-Encoding', async () => {
    await send('PUT', '/put-bodyless', { 'content-type': 'application/json' });
    await send('POST', '/post-bodyless', { 'content-type': 'application/json' });
    await send('PATCH', '/patch-bodyless', {});
    expect(framing.get('/put-bodyless')).toEqual({ type: 'application/json' });
    expect(framing.get('/post-bodyless')).toEqual({ type: 'application/json' });
    expect(framing.get('/patch-bodyless')).toEqual({});
  });

  it('keeps "Content-Length: 0" on an empty body and the length of any other, and sends a GET unframed as before', async () => {
    await send('PUT', '/put-empty', { 'content-type': 'application/json' }, '');
    await send('PUT', '/put-object', { 'content-type': 'application/json' }, '{}');
    await send('GET', '/get', {});
    expect(framing.get('/put-empty')).toEqual({ length: '0', type: 'application/json' });
    expect(framing.get('/put-object')).toEqual({ length: '2', type: 'application/json' });
    expect(framing.get('/get')).toEqual({});
  });
});

describe('a request without a body through a forwarding proxy', () => {
  it('reaches the proxy unframed too (the proxy agent keeps its own work: the absolute URI)', async () => {
    const heads: string[] = [];
    // A proxy that answers itself, so the test reads the very bytes the harness sent it.
    const proxy = net.createServer((socket) => {
      let head = '';
      socket.on('data', (chunk) => {
        head += chunk.toString('latin1');
        if (!head.includes('\r\n\r\n')) return;
        heads.push(head);
        socket.end('HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n');
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const saved = process.env.HTTP_PROXY;
    process.env.HTTP_PROXY = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      const outcome = await httpCall({ method: 'PUT', url: 'http://target.test/v2/x', headers: { 'content-type': 'application/json' } }, 5000, 'environment');
      expect('response' in outcome && outcome.response.status).toBe(204);
    } finally {
      if (saved === undefined) delete process.env.HTTP_PROXY;
      else process.env.HTTP_PROXY = saved;
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
    expect(heads).toHaveLength(1);
    expect(heads[0]).toMatch(/^PUT http:\/\/target\.test\/v2\/x HTTP\/1\.1\r\n/);
    expect(heads[0].toLowerCase()).not.toMatch(/content-length|transfer-encoding/);
  });
});
