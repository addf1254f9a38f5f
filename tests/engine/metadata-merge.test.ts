/**
 * A target that merges metadata (4.1 allows it) keeps every key sent: the cases that need room
 * (6 pairs, 100 characters) reuse the keys an account holds, so that both limit rules are judged
 * and a faithful merging target is conformant, on fresh accounts and on accounts that hold keys.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/core/exchange.ts';
import type { ConformanceReport } from '../../src/report/model/model.ts';
import { runEmbedded } from '../../src/run/embedded-run.ts';
import { runOnce } from '../../src/run/orchestrate-run.ts';
import { runConfig } from '../../src/run/run-config.ts';
import { createReferenceServer, type ReferenceServer } from '../../src/server/server.ts';
import { update } from '../server/http-client.ts';
import { collectExchanges } from './collect-exchanges.ts';
import { staticTokenRuledOut } from './static-token.ts';

const LIMIT_RULES = ['fa.metadata.max-pairs-accepted', 'fa.metadata.max-length-accepted'];
const statusOf = (report: ConformanceReport, id: string) => report.rules.find((r) => r.id === id);

/** The 6-pair cases the run sent, with the metadata keys of their request and their status. */
const sixPairCases = (exchanges: Exchange[]) =>
  exchanges
    .filter((e) => e.testCase.exercises === 'fa.metadata.max-pairs-accepted' && e.testCase.mode === 'boundary')
    .map((e) => ({ keys: Object.keys((e.request.body as { metadata: object }).metadata), status: e.response?.status }));

describe('merged metadata', () => {
  it('a run on the embedded server, fresh accounts, is conformant with both limit rules passed', async () => {
    const { report } = await runEmbedded({ runs: 10, seed: 1, reading: { metadataUpdate: 'merge' } });
    expect(report.summary.verdict).toBe('conformant');
    for (const id of LIMIT_RULES) {
      expect(statusOf(report, id)?.status, id).toBe('passed');
      expect(statusOf(report, id)?.cases, id).toBeGreaterThan(5);
    }
  });

  describe('on accounts that already hold a key', () => {
    let server: ReferenceServer;
    beforeAll(async () => {
      server = await createReferenceServer({ reading: { metadataUpdate: 'merge' } });
      for (const id of server.fiatAccountIds) expect((await update(server, { metadata: { origin: 'seed' } }, {}, id)).status).toBe(200);
    });
    afterAll(() => server.close());

    it('reuses the held key in the 6-pair cases it sends, and is conformant with both limit rules passed', async () => {
      const { exchanges, listener } = collectExchanges();
      const { report } = await runOnce(
        runConfig({
          seed: 1,
          profile: 'custom',
          runs: 10,
          baseUrl: server.baseUrl,
          auth: { kind: 'static', token: server.staticToken },
          fiatAccountIds: server.fiatAccountIds,
        }),
        [listener],
      );
      expect(report.rules.filter((r) => r.status !== 'passed' && !staticTokenRuledOut(r)).map((r) => `${r.id}: ${r.status}`)).toEqual([]);
      expect(report.summary.verdict).toBe('conformant');
      for (const id of LIMIT_RULES) expect(statusOf(report, id)?.status, id).toBe('passed');
      // The bodies as sent: 6 pairs, the account's own key among them, each accepted.
      const sent = sixPairCases(exchanges);
      expect(sent.length).toBeGreaterThan(5);
      for (const { keys, status } of sent) {
        expect(keys).toHaveLength(6);
        expect(keys).toContain('origin');
        expect(status).toBe(200);
      }
    });
  });
});
