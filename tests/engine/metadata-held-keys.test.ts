/**
 * A merging target whose accounts already hold other keys (issue 29, point 7): the harness builds
 * its cases on the keys held, so that no account ever holds more than 6 keys because of it, no
 * valid update is refused for the pairs an account holds, and run after run on the same accounts
 * the verdict stays conclusive. Judged from the requests themselves: under merge an account holds
 * the union of its start keys and the keys of every update it accepted.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/core/exchange.ts';
import type { ConformanceReport } from '../../src/report/model/model.ts';
import { runOnce } from '../../src/run/orchestrate-run.ts';
import { runConfig } from '../../src/run/run-config.ts';
import { createReferenceServer, type ReferenceServer } from '../../src/server/server.ts';
import { update } from '../server/http-client.ts';
import { collectExchanges } from './collect-exchanges.ts';
import { staticTokenRuledOut } from './static-token.ts';

const servers: ReferenceServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** `count` keys of someone else's, `prefix`1 .. `prefix`count. */
const theirs = (prefix: string, count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`${prefix}${i + 1}`, 'theirs']));

/** A merging server whose first two accounts hold 3 and 6 keys of someone else's. */
async function mergingServerWithKeys(): Promise<{ server: ReferenceServer; ids: string[] }> {
  const server = await createReferenceServer({ reading: { metadataUpdate: 'merge' } });
  servers.push(server);
  const ids = server.fiatAccountIds.slice(0, 2);
  expect((await update(server, { metadata: theirs('a', 3) }, {}, ids[0])).status).toBe(200);
  expect((await update(server, { metadata: theirs('b', 6) }, {}, ids[1])).status).toBe(200);
  return { server, ids };
}

/** The client keys an account shows now (an empty update: harmless under merge). */
async function keysOf(server: ReferenceServer, id: string): Promise<string[]> {
  const reply = await update(server, {}, {}, id);
  return Object.keys(reply.json.fiat_account_owner.fiat_network_instructions.metadata);
}

async function run(server: ReferenceServer, ids: string[], seed: number): Promise<{ report: ConformanceReport; exchanges: Exchange[] }> {
  const { exchanges, listener } = collectExchanges();
  const { report } = await runOnce(
    runConfig({ seed, profile: 'custom', runs: 10, baseUrl: server.baseUrl, auth: { kind: 'static', token: server.staticToken }, fiatAccountIds: ids }),
    [listener],
  );
  return { report, exchanges };
}

/**
 * Valid updates (not meant to be refused) that would take their account past 6 keys under merge,
 * the account's keys followed through the accepted updates in the order they were answered.
 */
function pastTheLimit(exchanges: Exchange[], start: Map<string, Set<string>>): string[] {
  const held = new Map([...start].map(([id, keys]) => [id, new Set(keys)]));
  const past: string[] = [];
  for (const e of exchanges) {
    const id = e.testCase.fiatAccountId;
    const metadata = (e.request.body as { metadata?: object } | undefined)?.metadata;
    if (e.testCase.operation !== 'updateFiatAccount' || !id || !held.has(id) || !metadata || typeof metadata !== 'object') continue;
    const after = new Set([...held.get(id)!, ...Object.keys(metadata)]);
    if (after.size > 6 && e.testCase.mode !== 'invalid') past.push(`${e.testCase.label} (${after.size} keys on ${id}): HTTP ${e.response?.status}`);
    if (e.response && e.response.status < 300) held.set(id, after);
  }
  return past;
}

/** Valid updates refused for the pairs their account holds. */
const refusedForPairs = (exchanges: Exchange[]) =>
  exchanges.filter(
    (e) =>
      e.testCase.operation === 'updateFiatAccount' &&
      e.testCase.mode !== 'invalid' &&
      (e.response?.status ?? 0) >= 400 &&
      /pairs/.test(JSON.stringify(e.response?.body)),
  );

describe('a merging target whose accounts hold other keys', () => {
  it('gets a conclusive run in which no valid update is refused for the pairs held and no account passes 6 keys', async () => {
    const { server, ids } = await mergingServerWithKeys();
    const start = new Map([
      [ids[0], new Set(Object.keys(theirs('a', 3)))],
      [ids[1], new Set(Object.keys(theirs('b', 6)))],
    ]);
    const { report, exchanges } = await run(server, ids, 1);
    expect(report.rules.filter((r) => r.status !== 'passed' && !staticTokenRuledOut(r)).map((r) => `${r.id}: ${r.status}`)).toEqual([]);
    expect(report.summary.verdict).toBe('conformant');
    expect(refusedForPairs(exchanges).map((e) => e.testCase.label)).toEqual([]);
    expect(pastTheLimit(exchanges, start)).toEqual([]);
    // The full account kept its six keys and nothing else; the other got at most three.
    expect((await keysOf(server, ids[1])).sort()).toEqual(Object.keys(theirs('b', 6)));
    expect((await keysOf(server, ids[0])).length).toBeLessThanOrEqual(6);
    // The 6-pair boundary was judged on the full account, on its own keys.
    const onFull = exchanges.filter((e) => e.testCase.exercises === 'fa.metadata.max-pairs-accepted' && e.testCase.fiatAccountId === ids[1]);
    expect(onFull.length).toBeGreaterThan(0);
    for (const e of onFull) expect(Object.keys((e.request.body as { metadata: object }).metadata).sort()).toEqual(Object.keys(theirs('b', 6)));
  });

  it('stays conclusive run after run on the same accounts: the keys the runs add are reused, never past 6', async () => {
    const { server, ids } = await mergingServerWithKeys();
    const verdicts: string[] = [];
    for (let seed = 1; seed <= 10; seed++) {
      const start = new Map(await Promise.all(ids.map(async (id) => [id, new Set(await keysOf(server, id))] as const)));
      const { report, exchanges } = await run(server, ids, seed);
      verdicts.push(report.summary.verdict);
      expect(refusedForPairs(exchanges).map((e) => `run ${seed}: ${e.testCase.label}`)).toEqual([]);
      expect(pastTheLimit(exchanges, start)).toEqual([]);
    }
    expect(verdicts).toEqual(Array(10).fill('conformant'));
  }, 120_000);

  it('sends no key the accounts do not hold when every account is full, and is still conformant: the limit rules judged on held keys', async () => {
    const server = await createReferenceServer({ reading: { metadataUpdate: 'merge' } });
    servers.push(server);
    const ids = server.fiatAccountIds.slice(0, 2);
    for (const [i, id] of ids.entries()) expect((await update(server, { metadata: theirs(`f${i}-`, 6) }, {}, id)).status).toBe(200);
    const { report, exchanges } = await run(server, ids, 3);
    expect(refusedForPairs(exchanges).map((e) => e.testCase.label)).toEqual([]);
    for (const id of ids) expect(await keysOf(server, id)).toHaveLength(6);
    // No 100-character key could be added: no request carried a key the accounts did not hold.
    const newKeys = exchanges.flatMap((e) => {
      const metadata =
        e.testCase.operation === 'updateFiatAccount' && e.testCase.mode !== 'invalid' && (e.request.body as { metadata?: object } | undefined)?.metadata;
      return metadata ? Object.keys(metadata).filter((k) => !k.startsWith('f0-') && !k.startsWith('f1-')) : [];
    });
    expect(newKeys).toEqual([]);
    expect(report.summary.verdict).toBe('conformant');
    for (const id of ['fa.metadata.max-pairs-accepted', 'fa.metadata.max-length-accepted'])
      expect(report.rules.find((r) => r.id === id)?.status, id).toBe('passed');
  });
});
