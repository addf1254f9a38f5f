/**
 * conformance.json 1.11.0: a failure's kind and params (docs/design.md section 5.5). The report
 * schema knows the vocabulary of src/rules/problem-kinds.ts, types each kind's params and takes
 * neither without the other; a failure without both (an older report's, or an older shard's in a
 * merge) still reads.
 */
import { describe, expect, it } from 'vitest';
import { PROBLEM_KINDS } from '../../src/rules/problem-kinds.ts';
import { registry } from '../../src/schema/registry.ts';
import type { ReportFailure } from '../../src/report/model/model.ts';
import { sampleReport } from './sample-report.ts';

const schemaErrors = (report: unknown) => registry().validate('conformance-report', report);

/** The sample report with its first failure's kind and params replaced (undefined: removed). */
function withFirstFailure(change: Partial<Record<'kind' | 'params', unknown>>, reportVersion?: string) {
  const report = sampleReport();
  const failure = report.rules.find((r) => r.failures.length)!.failures[0] as unknown as Record<string, unknown>;
  for (const [key, value] of Object.entries(change)) {
    if (value === undefined) delete failure[key];
    else failure[key] = value;
  }
  return reportVersion ? { ...report, reportVersion } : report;
}

describe('a failure as data in conformance.json', () => {
  it('names the vocabulary of problem-kinds.ts, in its order', () => {
    const defs = registry().schema('conformance-report').$defs as Record<string, { enum: string[] }>;
    expect(defs.findingKind.enum).toEqual([...PROBLEM_KINDS]);
  });

  it('validates the sample report, whose failures carry kinds', () => {
    const failures: ReportFailure[] = sampleReport().rules.flatMap((r) => r.failures);
    expect(failures.length).toBeGreaterThan(0);
    expect(failures.every((f) => f.kind !== undefined)).toBe(true);
    expect(schemaErrors(sampleReport())).toEqual([]);
  });

  it.each([
    ['a kind outside the vocabulary', { kind: 'weird', params: {} }],
    ['a status received as text', { kind: 'status', params: { expected: '4xx', received: '200' } }],
    ['a status expected outside the classes', { kind: 'status', params: { expected: '3xx', received: 200 } }],
    ['a schema error without its keyword', { kind: 'schema', params: { field: '/id', keywordParams: {} } }],
    ["another kind's params", { kind: 'header', params: { expected: '4xx', received: 200 } }],
    ['a param no kind has', { kind: 'no-answer', params: { error: 'timeout', retries: 3 } }],
    ['a kind without params', { kind: 'status', params: undefined }],
    ['params without a kind', { kind: undefined }],
  ])('refuses %s', (_what, change) => {
    expect(schemaErrors(withFirstFailure(change))).not.toEqual([]);
  });

  it('reads a failure without kind and params: a 1.10.0 report, or an older shard kept by a merge', () => {
    const unkinded = { kind: undefined, params: undefined };
    expect(schemaErrors(withFirstFailure(unkinded, '1.10.0'))).toEqual([]);
    expect(schemaErrors(withFirstFailure(unkinded))).toEqual([]);
  });
});
