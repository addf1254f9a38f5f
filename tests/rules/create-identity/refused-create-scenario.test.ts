/**
 * A refused create leaves its ref_id free: the valid create with it is accepted; refused while its
 * twin with a fresh ref_id is accepted, the ref_id was kept; the twin refused too, nothing is
 * judged and the run says why. The rejudge reads the same rounds from recorded exchanges. Against
 * the embedded server (the rule alone): a server that keeps a refused create's ref_id fails it,
 * the identities made are in the ledger, the HAR re-judges the same; one that accepts the create
 * without tax details leaves that round not judged, saying why.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Exchange } from '../../../src/core/exchange.ts';
import type { HarEntry } from '../../../src/report/files/har.ts';
import { orchestrateRun } from '../../../src/run/orchestrate-run.ts';
import { rejudgeHar } from '../../../src/run/har-rejudge.ts';
import { replayHar } from '../../../src/run/har-replay.ts';
import type { FaultName } from '../../../src/server/faults.ts';
import { createReferenceServer, type ReferenceServer } from '../../../src/server/server.ts';
import { refusedCreate, refusedRefIdOutcome } from '../../../src/rules/create-identity/refused-create-scenario.ts';
import { freshJudgeState } from '../../../src/rules/rule-judge.ts';
import type { ScenarioContext } from '../../../src/rules/scenarios.ts';
import { exchange, identityBody, identityRequest } from '../exchange-builders.ts';
import { referenceRunConfig } from '../../server/started-servers.ts';

const RULE = 'id.refused-create.ref-id-free';
const create = (refId: string, status: number, refused = false): Exchange => {
  const { tax_details_not_required: _flag, ...noTax } = identityRequest();
  return exchange(
    {
      operation: 'createIdentity',
      mode: refused ? 'invalid' : 'valid',
      exercises: RULE,
      label: refused ? 'refused create' : 'create',
      body: { ...(refused ? noTax : identityRequest()), ref_id: refId },
    },
    status,
    status < 300 ? identityBody({ ref_id: refId }) : { error: 'x' },
  );
};

describe('a refused create leaves its ref_id free', () => {
  it('passes when the valid create with the ref_id is accepted, whatever its twin got', () => {
    expect(refusedRefIdOutcome(create('r1', 400, true), create('r1', 201), create('r2', 422))).toMatchObject({ problems: [] });
  });

  it('fails when it is refused and the twin with a fresh ref_id is accepted', () => {
    const refusal = create('r1', 400, true);
    const reuse = create('r1', 409);
    const outcome = refusedRefIdOutcome(refusal, reuse, create('r2', 201));
    expect(outcome).toMatchObject({ exchange: reuse, problems: [{ kind: 'status', params: { expected: '2xx', received: 409 } }] });
    expect(outcome && 'problems' in outcome && outcome.problems[0].message).toMatch(
      /ref_id r1 was refused \(HTTP 409\) to a valid create, though its only use was a create refused with HTTP 400/,
    );
  });

  it('judges nothing, and says why, when the twin is refused too or the create got no refusal to judge', () => {
    expect(refusedRefIdOutcome(create('r1', 400, true), create('r1', 422), create('r2', 422))).toEqual({
      validRefused: true,
      notJudged: expect.stringMatching(/and so was one with a fresh ref_id \(HTTP 422\): the target refuses it for another reason/),
    });
    expect(refusedRefIdOutcome(create('r1', 400, true), create('r1', 503), create('r2', 201))).toEqual({
      validRefused: true,
      notJudged: expect.stringMatching(/got HTTP 503, not an answer to judge/),
    });
  });

  it('is judged again from recorded exchanges: a round by its ref_id, the twin after a refused create', () => {
    const rejudge = refusedCreate.judgesItsRule ? refusedCreate.rejudge({ ...freshJudgeState(), metadataSemantics: () => 'replace' }) : undefined;
    const entries = [create('r1', 400, true), create('r1', 201), create('r2', 201), create('r3', 400, true), create('r3', 409), create('r4', 201)];
    const outcomes = entries.flatMap((e, at) => rejudge!.observe(e, at));
    expect(outcomes.map((o) => [o.at, o.problems.length])).toEqual([
      [2, 0],
      [5, 1],
    ]);
  });
});

const servers: ReferenceServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function run(options: { fault?: FaultName; strict?: boolean }) {
  const s = await createReferenceServer(options);
  servers.push(s);
  const reportDir = mkdtempSync(path.join(tmpdir(), 'refused-create-'));
  const config = referenceRunConfig(s, { ruleFilter: [RULE], reportDir });
  const { report } = await orchestrateRun(config, { reports: true });
  const entries = (JSON.parse(readFileSync(path.join(reportDir, 'exchanges.har'), 'utf8')) as { log: { entries: HarEntry[] } }).log.entries;
  return { report, entries, rule: report.rules.find((r) => r.id === RULE)! };
}

describe('the refused-create scenario against the embedded server', () => {
  it('fails on a server that keeps the ref_id of a refused create, and the HAR re-judges the same', async () => {
    const { rule, entries, report } = await run({ fault: 'id-refused-create-reserves-ref-id' });
    expect(rule.status).toBe('failed');
    expect(rule.failures).toHaveLength(2);
    expect(rule.failures[0].message).toMatch(
      /was refused \(HTTP 409\) to a valid create, though its only use was a create refused with HTTP 400 \(refused create 1\/2/,
    );
    // Only the twins were created: each is in the ledger.
    const refused = entries.filter((e) => e._case?.mode === 'invalid').map((e) => JSON.parse(e.request.postData!.text!).ref_id);
    expect(refused).toHaveLength(2);
    expect(report.createdIdentities?.map((i) => [i.outcome, refused.includes(i.refId)])).toEqual([
      ['created', false],
      ['created', false],
    ]);
    expect(rejudgeHar(entries).rules.find((r) => r.id === RULE)).toMatchObject({ status: 'failed', cases: 2 });
  });

  it('passes on the faithful strict server: the ref_ids refused are then created, each in the ledger', async () => {
    const { rule, entries, report } = await run({ strict: true });
    expect([rule.status, rule.cases]).toEqual(['passed', 2]);
    const accepted = entries.filter((e) => e._case?.operation === 'createIdentity' && e._case.mode === 'valid' && !e._case.restore);
    const refIds = accepted.map((e) => JSON.parse(e.request.postData!.text!).ref_id);
    expect(accepted.map((e) => e._case?.label.replace(/ \d.*$/, ''))).toEqual([
      'a valid create with the ref_id of refused create',
      'the same valid create with a fresh ref_id (twin of round',
      'a valid create with the ref_id of refused create',
      'the same valid create with a fresh ref_id (twin of round',
    ]);
    expect(report.createdIdentities?.map((i) => i.refId)).toEqual(refIds);
    expect(rejudgeHar(entries).rules.find((r) => r.id === RULE)).toMatchObject({ status: 'passed', cases: 2 });
  });

  it('a target that accepts a create without tax details: the other round still judges the rule', async () => {
    const { rule } = await run({ fault: 'id-tax-absent-accepted' });
    expect([rule.status, rule.cases]).toEqual(['passed', 1]);
  });

  it('a target that accepts both creates without tax details: not judged, and says why', async () => {
    let n = 0;
    const accepting: Partial<ScenarioContext> = {
      freshRefId: () => `r${++n}`,
      stamp: (c, refId) => ({ ...c, body: { ...(c.body as object), ref_id: refId } }),
      exercise: async (c) => exchange(c, 201, identityBody()),
    };
    const result = await refusedCreate.run(accepting as ScenarioContext);
    expect(result.outcomes).toEqual([]);
    expect(result.notJudged).toMatch(
      /^refused create 1\/2: without tax_details and tax_details_not_required was accepted, though 4.2 refuses it \(id.tax.absent-rejected judges that\): its ref_id is used, not free; refused create 2\/2: .* \(id.tax.absent-false-rejected judges that\)/,
    );
  });
});

describe('a HAR of the scenario sent again', () => {
  it('re-judges the rule on the target it is sent to: passed where it was recorded, failed on a server with id-refused-create-reserves-ref-id', async () => {
    const recorded = await run({});
    expect(recorded.rule.status).toBe('passed');
    const faulty = await createReferenceServer({ fault: 'id-refused-create-reserves-ref-id' });
    servers.push(faulty);
    const replayed = await replayHar(recorded.entries, referenceRunConfig(faulty));
    expect(replayed.rules.find((r) => r.id === RULE)).toMatchObject({ status: 'failed', cases: 2 });
  });
});
