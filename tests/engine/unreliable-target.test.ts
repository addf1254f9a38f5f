/**
 * A target that misbehaves at the transport level (drops connections, answers slowly, answers
 * non-JSON, answers 429) is recorded, the run goes on to the end, and the report is complete.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createReferenceServer, type ReferenceServer } from '../../src/server/server.ts';
import { createTransport } from '../../src/engine/transport/transport.ts';
import { runEngine } from '../../src/engine/runner.ts';
import { planRun } from '../../src/engine/plan.ts';
import { createReportBuilder } from '../../src/report/model/report-builder.ts';
import { collectExchanges } from './collect-exchanges.ts';
import { staticTokenRuledOut } from './static-token.ts';

/** Forwards to the reference server, spoiling every n-th request in turn. */
function chaosProxy(upstream: string): Promise<{ url: string; close: () => Promise<void> }> {
  let count = 0;
  const server = http.createServer((req, res) => {
    count++;
    if (count % 37 === 0) return req.socket.destroy();
    if (count % 41 === 0) return; // never answers: the client times out
    if (count % 43 === 0) return res.writeHead(200, { 'content-type': 'application/json' }).end('{"truncated":');
    if (count % 47 === 0) return res.writeHead(429, { 'retry-after': '0' }).end();
    const forward = http.request(`${upstream}${req.url}`, { method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () =>
          new Promise<void>((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      }),
    ),
  );
}

describe('an unreliable target', () => {
  let reference: ReferenceServer;
  let proxy: { url: string; close: () => Promise<void> };
  beforeAll(async () => {
    reference = await createReferenceServer();
    proxy = await chaosProxy(reference.baseUrl);
  });
  afterAll(async () => {
    await proxy.close();
    await reference.close();
  });

  it('is recorded as findings and the run completes', async () => {
    const transport = createTransport({
      baseUrl: proxy.url,
      auth: { kind: 'static', token: reference.staticToken },
      timeoutMs: 300,
      rateLimitPerSecond: null,
      concurrency: 4,
      maxRetries: 1,
    });
    const builder = createReportBuilder({
      baseUrl: proxy.url,
      embedded: false,
      fiatAccountIds: reference.fiatAccountIds,
      seed: 1,
      profile: 'quick',
      runs: 5,
      strict: false,
    });
    const { exchanges, listener } = collectExchanges();
    const options = { seed: 1, runs: 5 };
    const plan = await planRun({ ...options, accounts: reference.fiatAccountIds.length });
    await runEngine(transport, { ...options, fiatAccountIds: reference.fiatAccountIds, plan }, [builder.listener, listener]);
    const report = builder.report();
    expect(exchanges.length).toBeGreaterThan(100);
    expect(exchanges.some((e) => e.error?.kind === 'timeout')).toBe(true);
    expect(exchanges.some((e) => e.error?.kind === 'connection')).toBe(true);
    const answers = report.rules.filter((r) => r.id.endsWith('.answers'));
    expect(answers.some((r) => r.status === 'failed')).toBe(true);
    // A static token rules out only what needs a renewal; a rule whose planned cases went unanswered says so.
    const unanswered = (r: (typeof report.rules)[number]) => r.status === 'inconclusive' && /\d+ of its requests got no answer/.test(r.reason ?? '');
    const unexplained = report.rules.filter((r) => !['passed', 'failed', 'skipped'].includes(r.status) && !staticTokenRuledOut(r) && !unanswered(r));
    expect(unexplained.map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
    expect(report.summary.requests).toBeGreaterThanOrEqual(exchanges.length);
  });
});
