/**
 * The one reach into pactum's internals (src/engine/transport/pactum-stream.ts): if a pactum
 * upgrade stops honouring `stream: true` in `spec._request`, this fails before any user sees a
 * 100 MB answer buffered again.
 */
import { describe, expect, it } from 'vitest';
import pactum from 'pactum';
import { asStream, requestAsStream } from '../../../src/engine/transport/pactum-stream.ts';
import { localServers } from './local-server.ts';

const serve = localServers();

describe('pactum streaming', () => {
  it('a spec asked for a stream resolves with the response unread, and its body reads whole', async () => {
    const server = await serve((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"x"}'));
    const spec = pactum.spec().withMethod('GET').withPath(server.url).withRequestTimeout(2000);
    requestAsStream(spec);
    const raw = (await spec.toss()) as { statusCode: number; buffer?: unknown };
    expect(raw.statusCode).toBe(200);
    // pactum buffered nothing: the body is still on the stream.
    expect(raw.buffer).toBeUndefined();
    const stream = asStream(raw);
    expect(stream).toBeDefined();
    const chunks: Buffer[] = [];
    for await (const chunk of stream!) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('{"id":"x"}');
  });

  it('says where to look when the spec keeps no request options', () => {
    expect(() => requestAsStream({})).toThrow(/pactum-stream\.ts/);
  });
});
