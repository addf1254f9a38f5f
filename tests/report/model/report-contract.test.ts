/**
 * conformance.json 1.7.0: the observed contract of the run-end event, the open cases counted by
 * the target's answer, a failing case's intent and open probe; and reports before 1.7.0, which
 * have none of them, still read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getRule } from '../../../src/core/catalogue.ts';
import type { TestCase } from '../../../src/core/case.ts';
import type { Exchange } from '../../../src/core/exchange.ts';
import { OPEN_KINDS, type OpenProbe } from '../../../src/core/open-point.ts';
import type { RunEvent } from '../../../src/engine/events.ts';
import { createReportBuilder, type RunFacts } from '../../../src/report/model/report-builder.ts';
import { REPORT_VERSION } from '../../../src/report/model/model.ts';
import { readReport } from '../../../src/report/model/read-report.ts';
import { recordedCase } from '../../../src/report/model/recorded-case.ts';
import { contractOf } from '../../../src/report/model/report-contract.ts';
import { registry } from '../../../src/schema/registry.ts';
import { BASE_URL, SAMPLE_CONTRACT, legacyReport, sampleReport } from '../sample-report.ts';

const FACTS: RunFacts = { baseUrl: BASE_URL, embedded: false, fiatAccountIds: [], seed: 9, profile: 'quick', runs: 10, strict: false };
const PROBE: OpenProbe = { field: 'person_details.first_name', kind: 'alphabet', value: 'cjk', alphabet: 'cjk' };

const openCase: TestCase = {
  operation: 'createIdentity',
  mode: 'valid',
  label: 'first name in cjk',
  body: { person_details: { first_name: '山田' } },
  open: PROBE,
};
const guaranteedCase: TestCase = { operation: 'createIdentity', mode: 'valid', label: 'valid person', body: {} };

function exchange(testCase: TestCase, status?: number): Exchange {
  return {
    testCase,
    request: { method: 'POST', url: `${BASE_URL}/v2/identity/identities`, headers: {}, body: testCase.body },
    ...(status === undefined
      ? { error: { kind: 'timeout' as const, message: 'no answer within 10000 ms' } }
      : { response: { status, headers: {}, rawBody: '{}', json: true, body: {} } }),
    startedAt: '2026-01-05T10:00:00.000Z',
    durationMs: 5,
  };
}

/** A run of the given exchanges whose run-end carries `contract`; one rule fails on the open case's exchange. */
async function run(exchanges: Exchange[], runEnd: Partial<Extract<RunEvent, { type: 'run-end' }>> = {}) {
  const builder = createReportBuilder(FACTS);
  const rule = getRule('id.valid-accepted');
  await builder.listener({ type: 'run-start', rules: [rule], fiatAccountIds: [] });
  for (const e of exchanges) await builder.listener({ type: 'exchange', exchange: e });
  const coverage = { fixed: 5, random: 10, distinctInputs: 15, minimum: { fixed: 1, random: 1 } };
  const findings = [
    {
      problem: {
        message: 'the response does not carry the first name sent',
        kind: 'not-reflected' as const,
        params: { field: '/person_details/first_name', sent: 'Ada' },
      },
      exchange: exchange(openCase, 201),
    },
  ];
  await builder.listener({
    type: 'run-end',
    outcomes: [{ rule, cases: 15, coverage, findings, crashed: false }],
    startedAt: '2026-01-05T10:00:00.000Z',
    durationMs: 100,
    requests: exchanges.length,
    undocumentedFields: [],
    ...runEnd,
  });
  return builder.report();
}

const schemaErrors = (report: unknown) => registry().validate('conformance-report', report);

describe('conformance.json 1.7.0', () => {
  it("is version 1.12.0 (1.8.0 adds case.around, 1.9.0 restore, createdIdentities, budget, every request the HAR holds counted and an aborted run's reason, 1.10.0 the restore journal and the creates whose answer was lost, 1.11.0 a failure's kind and params, 1.12.0 the stop kind authorization, the open kind null-or-empty, a rule's ruledOutBy the target's credentials kind, a rule's failedCases and the answers per operation, 1.13.0 openSpace and a case's combined values)", () => {
    expect(REPORT_VERSION).toBe('1.13.0');
  });

  it("carries the run-end event's restore and created identities, and validates", async () => {
    const restore = {
      enabled: true,
      note: 'fiat accounts: 1 partly restored',
      requests: 4,
      accounts: [
        {
          id: '0f8fad5b-d9cb-469f-a165-70867728950e',
          outcome: 'partly-restored' as const,
          restored: ['fiat_account_owner.person_details.first_name'],
          notRestored: [{ field: 'metadata.k1', reason: 'added by the run' }],
        },
      ],
    };
    const createdIdentities = [
      { outcome: 'created' as const, id: 'i-1', refId: 'conformance-1-x-1', runTag: 'conformance-1-x', createdAt: '2026-01-05T10:00:00Z' },
      { outcome: 'unknown' as const, refId: 'conformance-1-x-2', runTag: 'conformance-1-x', why: 'timeout' as const, sentAt: '2026-01-05T10:00:01Z' },
    ];
    const report = await run([], { restore, createdIdentities });
    expect(report.restore).toEqual(restore);
    expect(report.createdIdentities).toEqual(createdIdentities);
    expect(schemaErrors(report)).toEqual([]);
  });

  it('takes a 1.9.0 ledger entry (no outcome: created); an unknown entry needs why and sentAt and has no id', async () => {
    const report = await run([], {});
    const older = { ...report, reportVersion: '1.9.0', createdIdentities: [{ id: 'i-1', refId: 'r-1', runTag: 't' }] };
    expect(schemaErrors(older)).toEqual([]);
    const unknown = { outcome: 'unknown', refId: 'r-2', runTag: 't', why: 'timeout', sentAt: '2026-01-05T10:00:01Z' };
    expect(schemaErrors({ ...report, createdIdentities: [unknown] })).toEqual([]);
    expect(schemaErrors({ ...report, createdIdentities: [{ ...unknown, id: 'i-2' }] })).not.toEqual([]);
    expect(schemaErrors({ ...report, createdIdentities: [{ outcome: 'unknown', refId: 'r-2', runTag: 't' }] })).not.toEqual([]);
    expect(schemaErrors({ ...report, createdIdentities: [{ outcome: 'created', refId: 'r-2', runTag: 't' }] })).not.toEqual([]);
  });

  it("carries the run-end event's observed contract as it came, and validates", async () => {
    const report = await run([], { observedContract: structuredClone(SAMPLE_CONTRACT) });
    expect(report.observedContract).toEqual(SAMPLE_CONTRACT);
    expect(schemaErrors(report)).toEqual([]);
  });

  it('writes an empty contract and no open case when the run tried no open point', async () => {
    const report = await run([exchange(guaranteedCase, 201)]);
    expect(report.observedContract).toEqual({ version: 1, limits: [] });
    expect(report.summary.openCases).toEqual({ accepted: 0, refused: 0 });
    expect(schemaErrors(report)).toEqual([]);
  });

  it('counts the open cases by answer: 2xx accepted, 4xx refused; a 429, a 5xx, no answer and guaranteed cases are neither', async () => {
    const report = await run([
      exchange(openCase, 201),
      exchange(openCase, 200),
      exchange(openCase, 400),
      exchange(openCase, 422),
      exchange(openCase, 429),
      exchange(openCase, 500),
      exchange(openCase),
      exchange(guaranteedCase, 201),
      exchange(guaranteedCase, 400),
    ]);
    expect(report.summary.openCases).toEqual({ accepted: 2, refused: 2 });
  });

  it("records a failing case's intent and its open probe", async () => {
    const report = await run([]);
    const [failure] = report.rules[0].failures;
    expect(failure.case).toEqual({ operation: 'createIdentity', label: 'first name in cjk', mode: 'valid', intent: 'open', open: PROBE });
    expect(schemaErrors(report)).toEqual([]);
    // A replay of it is the same open case.
    expect(recordedCase(failure)).toMatchObject({ mode: 'valid', open: PROBE });
  });
});

describe('the schema of the observed contract', () => {
  it('names the kinds of open-point.ts and the intents of a case', () => {
    const defs = registry().schema('conformance-report').$defs as Record<string, { enum: string[] }>;
    expect(defs.openKind.enum).toEqual(OPEN_KINDS);
    expect(defs.intent.enum).toEqual(['guaranteed', 'forbidden', 'open']);
  });

  it('requires the contract and the open-case counts from 1.7.0 on, not before', () => {
    const { observedContract: _none, ...withoutContract } = sampleReport();
    expect(schemaErrors(withoutContract).map((e) => e.message)).toContain("must have required property 'observedContract'");
    const uncounted = sampleReport();
    delete uncounted.summary.openCases;
    expect(schemaErrors(uncounted).map((e) => e.message)).toContain("must have required property 'openCases'");
    expect(schemaErrors({ ...sampleReport(), reportVersion: '1.12.0', observedContract: undefined })).not.toEqual([]);
    expect(schemaErrors(legacyReport())).toEqual([]);
  });

  it('refuses a limit of an unknown kind, a date not YYYY-MM-DD, a refusal without its status, and a contract of another version', () => {
    const damaged = [
      (r: ReturnType<typeof sampleReport>) => (r.observedContract!.limits[0].kind = 'colour' as never),
      (r: ReturnType<typeof sampleReport>) => (r.observedContract!.limits[3].earliestAccepted = '01/01/1930'),
      (r: ReturnType<typeof sampleReport>) => delete (r.observedContract!.limits[1].refused[0] as { status?: number }).status,
      (r: ReturnType<typeof sampleReport>) => (r.observedContract!.version = 2 as never),
      (r: ReturnType<typeof sampleReport>) => (r.rules.find((x) => x.failures.length)!.failures[0].case.intent = 'maybe' as never),
    ];
    for (const damage of damaged) {
      const report = sampleReport();
      damage(report);
      expect(schemaErrors(report), String(damage)).not.toEqual([]);
    }
  });
});

describe('reading reports of every 1.x version', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'report-contract-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads a 1.7.0 report with its contract, and a 1.6.0 one as recording none', async () => {
    const current = path.join(dir, 'current.json');
    const legacy = path.join(dir, 'legacy.json');
    await writeFile(current, JSON.stringify(sampleReport()));
    await writeFile(legacy, JSON.stringify(legacyReport()));
    expect(contractOf(await readReport(current))).toEqual({ contract: SAMPLE_CONTRACT, recorded: true });
    expect(contractOf(await readReport(legacy))).toEqual({ contract: { version: 1, limits: [] }, recorded: false });
  });

  it('refuses a 1.7.0 report without its contract, in one line', async () => {
    const file = path.join(dir, 'cut.json');
    const { observedContract: _none, ...cut } = sampleReport();
    await writeFile(file, JSON.stringify(cut));
    await expect(readReport(file)).rejects.toThrow(
      /cut\.json is not a valid conformance\.json report: \(top level\): must have required property 'observedContract'/,
    );
  });

  it('says what a date of the contract must be', async () => {
    const file = path.join(dir, 'date.json');
    const report = sampleReport();
    report.observedContract!.limits[3].latestAccepted = '30.06.2005';
    await writeFile(file, JSON.stringify(report));
    await expect(readReport(file)).rejects.toThrow(/\/observedContract\/limits\/3\/latestAccepted: must be a date YYYY-MM-DD, got "30\.06\.2005"/);
  });
});
