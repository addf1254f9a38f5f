/** A request without a body goes as curl sends it (no Content-Length, no Transfer-Encoding); an empty body keeps "Content-Length: 0". */
import http from 'node:http';
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
