/**
 * A target whose answers are bigger than any report should be: findings keep the first
 * EVIDENCE_BODY_CHARS of a body (src/engine/evidence.ts), so the reports stay small and valid
 * however many rules fail on huge answers.
 */
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConfig } from '../../src/run/run-config.ts';
import { runOnce } from '../../src/run/orchestrate-run.ts';
import { writeReports, REPORT_FILES } from '../../src/report/files/write-reports.ts';
import { EVIDENCE_BODY_CHARS, EVIDENCE_MESSAGE_CHARS, asEvidence, problemAsEvidence } from '../../src/engine/evidence.ts';
import { registry } from '../../src/schema/registry.ts';
import type { ConformanceReport } from '../../src/report/model/model.ts';
import type { Exchange } from '../../src/core/exchange.ts';
import { startHostileTarget, type HostileTarget } from '../hostile/hostile-target.ts';

describe('huge answers in findings', () => {
  let target: HostileTarget;
  let report: ConformanceReport;
  beforeAll(async () => {
    // Every third answer is 4 MB of JSON: cut by the transport at 1 MiB, then judged.
    target = await startHostileTarget({ misbehaviour: 'huge-json', when: (n) => n % 3 === 0, size: 4 * 1024 * 1024 });
    const config = runConfig({
      seed: 3,
      profile: 'quick',
      runs: 2,
      baseUrl: target.baseUrl,
      auth: { kind: 'static', token: target.token },
      fiatAccountIds: target.accountIds,
      timeoutMs: 30_000,
    });
    ({ report } = await runOnce(config));
  }, 120_000);
  afterAll(() => target.close());

  it('keep a cut body as evidence: at most EVIDENCE_BODY_CHARS, marked truncated, json false', () => {
    const failures = report.rules.flatMap((r) => r.failures);
    const cut = failures.filter((f) => f.response?.truncated);
    expect(cut.length).toBeGreaterThan(0);
    for (const f of failures) expect(f.response?.rawBody.length ?? 0).toBeLessThanOrEqual(EVIDENCE_BODY_CHARS);
    for (const f of cut) {
      expect(f.response?.json).toBe(false);
      expect(f.response?.truncated?.receivedBytes).toBeGreaterThanOrEqual(1024 * 1024);
      expect(f.response?.truncated?.keptBytes).toBe(Buffer.byteLength(f.response!.rawBody));
    }
  });

  it('write every report, small and valid', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'huge-evidence-'));
    const { written, errors } = await writeReports(dir, report, [], { secrets: [target.token] });
    expect(errors).toEqual([]);
    expect(written).toHaveLength(Object.keys(REPORT_FILES).length);
    const json = path.join(dir, REPORT_FILES.json);
    // 5 findings of ~50 rules at 64 KiB each would be the most; far from 4 MB answers times that.
    expect(statSync(json).size).toBeLessThan(report.rules.length * 5 * EVIDENCE_BODY_CHARS + 1024 * 1024);
    expect(registry().validate('conformance-report', JSON.parse(readFileSync(json, 'utf8')))).toEqual([]);
  });
});

describe('asEvidence', () => {
  const exchange = (rawBody: string, extra: object = {}): Exchange => ({
    testCase: { operation: 'createIdentity', mode: 'valid', label: 'x', body: {} },
    request: { method: 'POST', url: 'http://t/v2/identity/identities', headers: {} },
    response: { status: 200, headers: {}, rawBody, json: true, body: { big: true }, ...extra },
    startedAt: '2026-01-01T00:00:00Z',
    durationMs: 1,
  });

  it('leaves a small answer as it is', () => {
    const small = exchange('{"id":"x"}');
    expect(asEvidence(small)).toBe(small);
  });

  it('cuts a long one, drops its parse and says how much came', () => {
    const long = asEvidence(exchange(`"${'é'.repeat(EVIDENCE_BODY_CHARS)}"`));
    expect(long.response).toEqual({
      status: 200,
      headers: {},
      rawBody: `"${'é'.repeat(EVIDENCE_BODY_CHARS - 1)}`,
      json: false,
      truncated: { keptBytes: 1 + 2 * (EVIDENCE_BODY_CHARS - 1), receivedBytes: 2 + 2 * EVIDENCE_BODY_CHARS },
    });
    const cutBefore = asEvidence(exchange('x'.repeat(EVIDENCE_BODY_CHARS + 1), { json: false, truncated: { keptBytes: 1, receivedBytes: 99_000_000 } }));
    expect(cutBefore.response?.truncated?.receivedBytes).toBe(99_000_000);
  });

  it('cuts a message that quotes an enormous value', () => {
    const problem = { message: 'm'.repeat(10 * EVIDENCE_MESSAGE_CHARS), kind: 'check-crashed' as const, params: { error: 'x' } };
    expect(problemAsEvidence(problem).message).toHaveLength(EVIDENCE_MESSAGE_CHARS + 1);
  });

  it('cuts a param the target made enormous; params stay objects and a list of ids stays a list', () => {
    const huge = 'é'.repeat(10 * EVIDENCE_MESSAGE_CHARS);
    const field = '/fiat_account_owner/person_details/first_name';
    const cut = problemAsEvidence({ message: 'short', kind: 'not-reflected', params: { field, sent: 'Ada', received: huge } });
    expect(cut.params).toEqual({ field, sent: 'Ada', received: `${huge.slice(0, EVIDENCE_MESSAGE_CHARS)}…` });
    const object = problemAsEvidence({ message: 'short', kind: 'mismatch', params: { field: '/type', expected: 'PERSON', received: { a: huge } } });
    expect(object.params).toMatchObject({ field: '/type', expected: 'PERSON' });
    expect(typeof (object.params as { received: unknown }).received).toBe('string');
    expect(String((object.params as { received: unknown }).received)).toHaveLength(EVIDENCE_MESSAGE_CHARS + 1);
    const ids = Array.from({ length: 100 }, (_, i) => `id-${i}-${'x'.repeat(40)}`);
    const duplicated = problemAsEvidence({ message: 'short', kind: 'identity-duplicated', params: { refId: 'r', ids, creates: 100 } });
    expect(duplicated.params).toEqual({ refId: 'r', ids, creates: 100 });
    const small = { message: 'short', kind: 'status' as const, params: { expected: '2xx' as const, received: 500 } };
    expect(problemAsEvidence(small)).toBe(small);
  });
});
