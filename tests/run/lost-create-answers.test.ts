/**
 * A create the target stored but whose answer the harness never read (a 500 after storing, a
 * reset, silence past the timeout, an answer over the body cap) is in the ledger: unknown, under
 * the ref_id it sent, in conformance.json and created-identities.json; a later answer for the
 * same ref_id that names the identity makes it created. The target is the reference server behind
 * a proxy that lets the create through and then loses its answer.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { listenOnLoopback } from '../foreign/loopback-listen.ts';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../src/engine/transport/body-stream.ts';
import { orchestrateRun } from '../../src/run/orchestrate-run.ts';
import { runConfig } from '../../src/run/run-config.ts';
import { registry } from '../../src/schema/registry.ts';
import { createReferenceServer, type ReferenceServer } from '../../src/server/server.ts';

type Loss = 'server-error' | 'connection' | 'timeout' | 'too-large';
/** The n-th stored create (from 1) whose answer is lost, and how. */
const LOSSES: Record<number, Loss> = { 2: 'server-error', 4: 'connection', 6: 'timeout', 8: 'too-large' };

/** What the proxy saw of one create the target stored: its ref_id, the id the target answered, whether the harness got that answer. */
interface StoredCreate {
  refId: string;
  id: string;
  lost?: Loss;
}

interface LosingProxy {
  url: string;
  stored: StoredCreate[];
  close(): Promise<void>;
}

const read = (stream: http.IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });

async function startLosingProxy(upstream: string): Promise<LosingProxy> {
  const stored: StoredCreate[] = [];
  const server = http.createServer(async (req, res) => {
    const body = await read(req);
    const forward = http.request(`${upstream}${req.url}`, { method: req.method, headers: req.headers });
    forward.on('error', () => res.destroy());
    forward.end(body);
    const up = await new Promise<http.IncomingMessage>((resolve) => forward.on('response', resolve));
    const answer = await read(up);
    let loss: Loss | undefined;
    if (req.method === 'POST' && req.url === '/v2/identity/identities' && up.statusCode! >= 200 && up.statusCode! < 300) {
      const identity = JSON.parse(answer.toString('utf8'));
      loss = LOSSES[stored.length + 1];
      stored.push({ refId: JSON.parse(body.toString('utf8')).ref_id, id: identity.id, ...(loss ? { lost: loss } : {}) });
      if (loss === 'server-error') return void res.writeHead(500, { 'content-type': 'application/json' }).end('{"message":"internal error"}');
      if (loss === 'connection') return void req.socket.resetAndDestroy();
      if (loss === 'timeout') return; // the harness's timeout ends it
      if (loss === 'too-large') {
        const padded = JSON.stringify({ ...identity, padding: 'a'.repeat(MAX_BODY_BYTES) });
        return void res.writeHead(up.statusCode!, { 'content-type': 'application/json' }).end(padded);
      }
    }
    res.writeHead(up.statusCode ?? 502, up.headers).end(answer);
  });
  const { url, close } = await listenOnLoopback(server);
  return { url, stored, close };
}

let reference: ReferenceServer;
let proxy: LosingProxy;
beforeAll(async () => {
  reference = await createReferenceServer();
  proxy = await startLosingProxy(reference.baseUrl);
});
afterAll(async () => {
  await proxy.close();
  await reference.close();
});

describe('creates whose answer was lost after the target stored them', () => {
  it('are in the ledger as unknown with the ref_id they sent, unless a later answer named the identity', async () => {
    const reportDir = mkdtempSync(path.join(tmpdir(), 'conformance-lost-'));
    const config = runConfig({
      seed: 11,
      profile: 'custom',
      runs: 5,
      baseUrl: proxy.url,
      auth: { kind: 'static', token: reference.staticToken },
      fiatAccountIds: reference.fiatAccountIds,
      timeoutMs: 1_000,
      reportDir,
    });
    const { report } = await orchestrateRun(config, { reports: true });
    const lost = proxy.stored.filter((s) => s.lost);
    expect(lost.map((s) => s.lost)).toEqual(['server-error', 'connection', 'timeout', 'too-large']);

    const ledger = report.createdIdentities!;
    for (const create of proxy.stored) {
      // Named by a later answer the harness read (the scenarios repeat ref_ids): created, with the id.
      const namedLater = proxy.stored.some((s) => s !== create && s.refId === create.refId && !s.lost);
      const entries = ledger.filter((e) => e.refId === create.refId);
      if (!create.lost || namedLater) expect(entries).toEqual([expect.objectContaining({ outcome: 'created', id: create.id })]);
      else expect(entries).toEqual([{ outcome: 'unknown', refId: create.refId, runTag: expect.any(String), why: create.lost, sentAt: expect.any(String) }]);
    }
    // Nothing the target stored is missing, nothing is listed twice.
    const unknown = ledger.filter((e) => e.outcome === 'unknown');
    expect(unknown.length).toBeGreaterThanOrEqual(1);
    expect(new Set(ledger.map((e) => e.refId)).size).toBe(ledger.length);
    expect(ledger.filter((e) => e.outcome === 'created').length).toBe(new Set(proxy.stored.map((s) => s.id)).size - unknown.length);

    expect(registry().validate('conformance-report', JSON.parse(readFileSync(path.join(reportDir, 'conformance.json'), 'utf8')))).toEqual([]);
    const file = JSON.parse(readFileSync(path.join(reportDir, 'created-identities.json'), 'utf8'));
    expect(file.identities).toEqual(ledger);
    expect(file.unknown).toBe(unknown.length);
    expect(file.count).toBe(ledger.length - unknown.length);
  });
});
