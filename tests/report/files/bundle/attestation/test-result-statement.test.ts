/**
 * The Test Result statement: which list each rule status goes to, the result each verdict gives,
 * and the statement valid against the Statement v1, ResourceDescriptor and Test Result schemas
 * written from the published spec (schemas/in-toto/), compiled here by a fresh ajv; the schemas
 * refuse what the spec forbids (so the check can fail).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import {
  TEST_RESULT_PREDICATE,
  testListOf,
  testResultOf,
  testResultStatement,
} from '../../../../../src/report/files/bundle/attestation/test-result-statement.ts';
import { statementProblems } from '../../../../../src/report/files/bundle/attestation/statement-schemas.ts';
import type { ConformanceReport, ReportRule, Verdict } from '../../../../../src/report/model/model.ts';
import { SCHEMA_DIR } from '../../../../../src/schema/registry.ts';

const rule = (id: string, status: ReportRule['status'], blocking: boolean) => ({ id, status, blocking }) as ReportRule;

/** A report with the fields the statement reads. */
function report(verdict: Verdict, rules: ReportRule[]): ConformanceReport {
  return {
    tool: { name: 'conformance', version: '9.8.7' },
    target: { baseUrl: 'HTTPS://Sandbox.Example.com/api', embedded: false, fiatAccountIds: ['0f8fad5b-d9cb-469f-a165-70867728950e'] },
    schemasHash: 'a'.repeat(64),
    seed: 42,
    profile: 'deep',
    runs: 200,
    strict: false,
    startedAt: '2026-11-27T08:00:00.000Z',
    durationMs: 1500,
    summary: { verdict },
    rules,
  } as unknown as ConformanceReport;
}

const subjects = [
  { name: 'junit.xml', sha256: 'b'.repeat(64) },
  { name: 'conformance.json', sha256: 'c'.repeat(64) },
];

describe('rules to tests, verdict to result', () => {
  it('passed to passedTests; a blocking failure or a crash to failedTests; a non-blocking failure or an inconclusive rule to warnedTests; skipped to none', () => {
    expect(testListOf({ status: 'passed', blocking: false })).toBe('passedTests');
    expect(testListOf({ status: 'failed', blocking: true })).toBe('failedTests');
    expect(testListOf({ status: 'error', blocking: true })).toBe('failedTests');
    expect(testListOf({ status: 'failed', blocking: false })).toBe('warnedTests');
    expect(testListOf({ status: 'inconclusive', blocking: true })).toBe('warnedTests');
    expect(testListOf({ status: 'inconclusive', blocking: false })).toBe('warnedTests');
    expect(testListOf({ status: 'skipped', blocking: false })).toBeUndefined();
  });

  it('FAILED for every verdict but conformant; conformant is WARNED when a rule warned, else PASSED', () => {
    const clean = [rule('a', 'passed', false)];
    const warned = [rule('a', 'passed', false), rule('b', 'failed', false)];
    expect(testResultOf(report('conformant', clean))).toBe('PASSED');
    expect(testResultOf(report('conformant', warned))).toBe('WARNED');
    for (const verdict of ['non-conformant', 'inconclusive', 'error', 'interrupted'] as const)
      expect(testResultOf(report(verdict, clean)), verdict).toBe('FAILED');
  });
});

describe('the statement', () => {
  const statement = testResultStatement(
    report('non-conformant', [rule('a', 'passed', false), rule('b', 'failed', true), rule('c', 'inconclusive', false), rule('d', 'skipped', false)]),
    subjects,
    { commandLine: 'conformance run --seed 42 --profile deep', redactedValues: 7 },
  );

  it('names the subjects by name and SHA-256 in name order, the rules by id, and what repeats the run', () => {
    expect(statement.subject).toEqual([
      { name: 'conformance.json', digest: { sha256: 'c'.repeat(64) } },
      { name: 'junit.xml', digest: { sha256: 'b'.repeat(64) } },
    ]);
    expect(statement.predicateType).toBe(TEST_RESULT_PREDICATE);
    expect(statement.predicate).toMatchObject({ result: 'FAILED', passedTests: ['a'], warnedTests: ['c'], failedTests: ['b'] });
    const [tool, command, target, schemas] = statement.predicate.configuration;
    expect(tool).toMatchObject({ name: 'tool', uri: 'pkg:npm/fiat-identity-conformance@9.8.7' });
    expect(Buffer.from(command.content!, 'base64').toString('utf8')).toBe('conformance run --seed 42 --profile deep');
    expect(command.annotations).toMatchObject({ seed: 42, profile: 'deep', runs: 200, redacted: true, redactedValues: 7, endedAt: '2026-11-27T08:00:01.500Z' });
    // A ResourceURI's scheme and authority are lowercase; its path keeps its case.
    expect(target).toMatchObject({ uri: 'https://sandbox.example.com/api', annotations: { embedded: false } });
    expect(schemas).toEqual({ name: 'schemas', digest: { sha256: 'a'.repeat(64) } });
  });

  /** A fresh ajv over schemas/in-toto/, strict as the project's. */
  function validators() {
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    const dir = path.join(SCHEMA_DIR, 'in-toto');
    for (const file of readdirSync(dir)) ajv.addSchema(JSON.parse(readFileSync(path.join(dir, file), 'utf8')));
    return { statement: ajv.getSchema('in-toto/statement-v1.schema.json')!, predicate: ajv.getSchema('in-toto/test-result-v0.1.schema.json')! };
  }

  it('is valid against the published Statement v1 and Test Result v0.1, as a fresh ajv compiles them', () => {
    const { statement: isStatement, predicate: isPredicate } = validators();
    expect(isStatement(statement), JSON.stringify(isStatement.errors)).toBe(true);
    expect(isPredicate(statement.predicate), JSON.stringify(isPredicate.errors)).toBe(true);
    expect(statementProblems(statement)).toEqual([]);
  });

  it('the schemas refuse what the spec forbids: no result, another result, a descriptor with no uri, digest or content, a subject without digest, another _type', () => {
    const { statement: isStatement, predicate: isPredicate } = validators();
    const { result: _, ...noResult } = statement.predicate;
    const cases: [string, unknown, unknown][] = [
      ['no result', statement, noResult],
      ['result SUCCESS', statement, { ...statement.predicate, result: 'SUCCESS' }],
      ['no configuration', statement, { ...statement.predicate, configuration: undefined }],
      ['a bare descriptor', statement, { ...statement.predicate, configuration: [{ name: 'x', annotations: {} }] }],
      ['a test name not a string', statement, { ...statement.predicate, failedTests: [3] }],
      ['a subject without digest', { ...statement, subject: [{ name: 'x' }] }, statement.predicate],
      ['no subject', { ...statement, subject: [] }, statement.predicate],
      ['a short sha256', { ...statement, subject: [{ name: 'x', digest: { sha256: 'abc' } }] }, statement.predicate],
      ['Statement v0.2', { ...statement, _type: 'https://in-toto.io/Statement/v0.2' }, statement.predicate],
      ['an uppercase host', statement, { ...statement.predicate, configuration: [{ uri: 'https://Example.com/x' }] }],
    ];
    for (const [name, s, p] of cases) {
      const valid = isStatement(s) && isPredicate(JSON.parse(JSON.stringify(p)));
      expect(valid, name).toBe(false);
      expect(statementProblems({ ...(s as object), predicate: JSON.parse(JSON.stringify(p)) }), name).not.toEqual([]);
    }
  });
});
