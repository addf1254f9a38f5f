/**
 * A HAR replay renews its token where the recorded run did (exchanges.har's `_tokenGeneration`),
 * so the repeats across tokens are judged again on a new token; a replay whose static token
 * cannot be renewed says it does not re-judge that rule, instead of a verdict on one token.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../src/api/index.ts';
import type { HarEntry } from '../../src/report/files/har.ts';
import { HarReader } from '../../src/report/files/har-reader.ts';
import { replayDisagreements, replayHar } from '../../src/run/har-replay.ts';
import { runConfig } from '../../src/run/run-config.ts';
import { createReferenceServer } from '../../src/server/server.ts';

const RULE = 'id.ref-id.across-tokens';
const FAULT = 'id-ref-id-scoped-by-token';
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function recordedRun(): Promise<{ entries: HarEntry[]; rules: { id: string; status: string }[] }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'har-replay-'));
  dirs.push(dir);
  const { report } = await runConformance({ fault: FAULT, rules: ['id.ref-id.'], profile: 'quick', seed: 4, reportDir: dir });
  const entries = (JSON.parse(readFileSync(path.join(dir, 'exchanges.har'), 'utf8')) as { log: { entries: HarEntry[] } }).log.entries;
  return { entries, rules: report.rules };
}

describe('replaying the repeats across tokens', () => {
  it('against a fresh embedded server with the fault: the replay renews its token and fails the rule again', async () => {
    const { entries, rules } = await recordedRun();
    expect(rules.find((r) => r.id === RULE)?.status).toBe('failed');
    const replayed = await replayHar(entries, runConfig({ seed: 0, fault: FAULT }));
    expect(replayed.rules.find((r) => r.id === RULE)?.status).toBe('failed');
    expect(replayDisagreements(rules, replayed)).toEqual([]);
  });

  it('with a static token: the rule is not re-judged, and says why', async () => {
    const { entries, rules } = await recordedRun();
    const server = await createReferenceServer({ fault: FAULT });
    try {
      const config = runConfig({
        seed: 0,
        baseUrl: server.baseUrl,
        auth: { kind: 'static', token: server.staticToken },
        fiatAccountIds: server.fiatAccountIds,
      });
      const replayed = await replayHar(entries, config);
      expect(replayed.notRejudged).toContainEqual({ id: RULE, why: "the recorded run renewed its token; the replay's static token cannot be renewed" });
      expect(replayed.rules.find((r) => r.id === RULE)?.status ?? 'not judged').not.toBe('failed');
      expect(replayDisagreements(rules, replayed)).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe('replaying a HAR read as a stream (issue 33: a 95,000-entry HAR is never held whole)', () => {
  it("a pretty-printed HAR ten times the reader's limits replays every entry, and judges as the replay of the entries in memory", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'har-replay-stream-'));
    dirs.push(dir);
    const { report } = await runConformance({ fault: 'id-dob-previous-day', rules: ['id.'], profile: 'quick', seed: 5, reportDir: dir });
    const har = JSON.parse(readFileSync(path.join(dir, 'exchanges.har'), 'utf8')) as { log: { entries: HarEntry[] } };
    const file = path.join(dir, 'pretty.har');
    writeFileSync(file, JSON.stringify(har, null, 2));
    // Twice the largest entry: in the file it is indented deeper.
    const largest = Math.max(...har.log.entries.map((e) => Buffer.byteLength(JSON.stringify(e, null, 2))));
    const limits = { elementBytes: 2 * largest, restBytes: 4096 };
    expect(statSync(file).size).toBeGreaterThan(10 * (limits.elementBytes + limits.restBytes));

    const streamed = await replayHar(() => new HarReader(file, limits).entries(), runConfig({ seed: 0, fault: 'id-dob-previous-day' }));
    expect(streamed.sent + streamed.leftOut.length).toBe(har.log.entries.length);
    expect(streamed.rules.find((r) => r.id === 'id.dob.midnight-utc')?.status).toBe('failed');
    expect(replayDisagreements(report.rules, streamed)).toEqual([]);
    const inMemory = await replayHar(har.log.entries, runConfig({ seed: 0, fault: 'id-dob-previous-day' }));
    const statuses = (r: typeof streamed) => r.rules.map(({ id, status, cases }) => ({ id, status, cases }));
    expect(statuses(streamed)).toEqual(statuses(inMemory));
    expect(streamed.leftOut).toEqual(inMemory.leftOut);
  });
});
