/**
 * The refused-update scenario run against the embedded server (its rule alone, --rule): a server
 * that writes the owner names of an update it then refuses fails it, the restore puts the names
 * back and proves it, and the HAR re-judges the same; a target that accepts the over-limit updates
 * leaves the rule not judged, saying why; the faithful strict server passes it.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HarEntry } from '../../../src/report/files/har.ts';
import { orchestrateRun } from '../../../src/run/orchestrate-run.ts';
import { rejudgeHar } from '../../../src/run/har-rejudge.ts';
import { replayDisagreements, replayHar } from '../../../src/run/har-replay.ts';
import { type RunConfig, runConfig } from '../../../src/run/run-config.ts';
import type { FaultName } from '../../../src/server/faults.ts';
import { createReferenceServer, type ReferenceServer } from '../../../src/server/server.ts';
import { update } from '../../server/http-client.ts';
import { refusedUpdate } from '../../../src/rules/update-fiat-account/refused-update-scenario.ts';
import type { ScenarioContext } from '../../../src/rules/scenarios.ts';
import { ACCOUNT_ID, exchange, fiatAccountBody } from '../exchange-builders.ts';
import { referenceRunConfig } from '../../server/started-servers.ts';

const RULE = 'fa.refused-update.writes-nothing';
const servers: ReferenceServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function server(options: { fault?: FaultName; strict?: boolean } = {}): Promise<ReferenceServer> {
  const s = await createReferenceServer(options);
  servers.push(s);
  return s;
}

/** The scenario's rule alone against `s`, every report written. */
async function run(s: ReferenceServer, overrides: Partial<RunConfig> = {}) {
  const reportDir = mkdtempSync(path.join(tmpdir(), 'refused-update-'));
  const config = referenceRunConfig(s, { ruleFilter: [RULE], reportDir, ...overrides });
  const { report } = await orchestrateRun(config, { reports: true });
  const entries = (JSON.parse(readFileSync(path.join(reportDir, 'exchanges.har'), 'utf8')) as { log: { entries: HarEntry[] } }).log.entries;
  return { report, entries, rule: report.rules.find((r) => r.id === RULE)! };
}

/** The first account's owner names, read with an empty update. */
const ownerOf = async (s: ReferenceServer) => (await update(s, {}, {}, s.fiatAccountIds[0])).json.fiat_account_owner.person_details;

describe('a refused update writes nothing', () => {
  it('fails on a server that writes the owner names before refusing the metadata; the restore puts them back and proves it', async () => {
    const s = await server({ fault: 'fa-refused-update-writes-part' });
    const before = await ownerOf(s);
    const { report, entries, rule } = await run(s);
    expect(rule.status).toBe('failed');
    expect(rule.failures.map((f) => f.message)).toEqual([
      expect.stringMatching(
        /^refused update 1\/2: 7 metadata pairs, owner names Lise Meitner was refused \(HTTP 400\), yet the account now shows owner first_name "Lise"/,
      ),
      expect.stringMatching(/owner last_name "Meitner"/),
      expect.stringMatching(/^refused update 2\/2: a metadata key of 101 characters, owner names Rosalind Franklin was refused \(HTTP 400\), yet .*"Rosalind"/),
      expect.stringMatching(/"Franklin"/),
    ]);
    // Journaled before, read, written back and read again after: the names the refusal left are put back.
    const account = report.restore!.accounts.find((a) => a.id === s.fiatAccountIds[0])!;
    expect(account.outcome).toBe('restored');
    expect(account.restored).toContain('fiat_account_owner.person_details.first_name');
    expect(await ownerOf(s)).toEqual(before);
    // The HAR re-judges the rule as the run judged it, at the answer that showed the names.
    const rejudged = rejudgeHar(entries).rules.find((r) => r.id === RULE)!;
    expect(rejudged.status).toBe('failed');
    expect(entries[rejudged.firstProblemAt!]._case?.label).toBe('a GET of the account after refused update 1 (shows what it holds)');
  });

  it.each(['metadata-over-pairs-accepted', 'metadata-over-length-accepted'] as const)(
    'a target that accepts one over-limit update (%s): the other refusal still judges the rule',
    async (fault) => {
      const s = await server({ fault });
      const { rule } = await run(s);
      expect([rule.status, rule.cases]).toEqual(['passed', 1]);
    },
  );

  it('a target that accepts both over-limit updates: not judged, and says why (each refusal its limit rule judges)', async () => {
    const accepting: Partial<ScenarioContext> = {
      fiatAccountIds: [ACCOUNT_ID],
      exercise: async (c) => exchange(c, 200, fiatAccountBody()),
    };
    const result = await refusedUpdate.run(accepting as ScenarioContext);
    expect(result.outcomes).toEqual([]);
    expect(result.notJudged).toMatch(
      /^refused update 1\/2: 7 metadata pairs, .* was accepted, though section 8 refuses it .*; refused update 2\/2: a metadata key of 101 characters, .* was accepted/,
    );
    expect(result.remedy).toMatch(/make the target refuse updates past the metadata limits \(section 8\) and show the account after them/);
  });

  it('on a target without GET, an empty update shows the account after each refusal', async () => {
    const s = await createReferenceServer({ fault: 'fa-refused-update-writes-part', accountReads: false });
    servers.push(s);
    const { rule, entries } = await run(s, { readWithEmptyUpdate: true });
    expect(rule.status).toBe('failed');
    const steps = entries.filter((e) => e._case?.exercises === RULE).map((e) => `${e.request.method} ${e.response.status}`);
    // The first GET answered 405: no more GETs, an empty update after each refusal.
    expect(steps).toEqual(['PUT 200', 'PUT 400', 'GET 405', 'PUT 200', 'PUT 400', 'PUT 200']);
  });

  it('passes on the faithful strict server, and the HAR agrees', async () => {
    const s = await server({ strict: true });
    const { rule, entries } = await run(s);
    expect([rule.status, rule.cases]).toEqual(['passed', 2]);
    expect(rejudgeHar(entries).rules.find((r) => r.id === RULE)).toMatchObject({ status: 'passed', cases: 2 });
  });
});

describe('a HAR of the scenario sent again', () => {
  it('re-judges the rule on the embedded server it is sent to: failed with fa-refused-update-writes-part', async () => {
    const recorded = await run(await server());
    expect(recorded.rule.status).toBe('passed');
    const replayed = await replayHar(recorded.entries, runConfig({ seed: 3, profile: 'custom', runs: 3, fault: 'fa-refused-update-writes-part' }));
    expect(replayed.rules.find((r) => r.id === RULE)).toMatchObject({ status: 'failed', cases: 2 });
  });

  it('sent to a live target, whose GETs a guest leaves out: not re-judged, and says why', async () => {
    const recorded = await run(await server());
    const live = await server({ fault: 'fa-refused-update-writes-part' });
    const config = referenceRunConfig(live);
    const replayed = await replayHar(recorded.entries, config);
    expect(replayed.rules.find((r) => r.id === RULE)).toBeUndefined();
    expect(replayed.notRejudged).toContainEqual({ id: RULE, why: 'its requests were left out: GET' });
    expect(replayDisagreements([{ id: RULE, status: 'passed' }], replayed)).toEqual([]);
  });
});
