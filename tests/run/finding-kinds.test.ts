/**
 * Findings as data (docs/design.md section 5.5, `rules[].failures[].kind`): a run of the embedded
 * server with each fault gives failures that each carry a kind of the vocabulary and the params
 * of that kind, which the report schema checks kind by kind; a pointer-kind's field is the
 * failure's instancePath, so a reader can group by either.
 */
import { describe, expect, it } from 'vitest';
import { FAULTS, restorePatienceUnder } from '../../src/run/fault-matrix.ts';
import { runEmbedded } from '../../src/run/embedded-run.ts';
import { PROBLEM_KINDS, type ProblemKind } from '../../src/rules/problem-kinds.ts';
import { registry } from '../../src/schema/registry.ts';
import type { ConformanceReport, ReportFailure } from '../../src/report/model/model.ts';

const RUNS = 3;
const SEED = 11;

/** Kinds whose field is not a pointer into the response body. */
const FIELD_NOT_A_POINTER = new Set<ProblemKind>(['header', 'unexplained-refusal']);

const failuresOf = (report: ConformanceReport): { rule: string; failure: ReportFailure }[] =>
  report.rules.flatMap((r) => r.failures.map((failure) => ({ rule: r.id, failure })));

/** What is wrong with a failure's kind and params, beyond what the schema says; empty when nothing. */
function kindProblems(rule: string, f: ReportFailure): string[] {
  const wrong: string[] = [];
  if (f.kind === undefined || !PROBLEM_KINDS.includes(f.kind)) wrong.push(`${rule}: kind ${String(f.kind)} is not of the vocabulary (${f.message})`);
  const field = (f.params as { field?: unknown } | undefined)?.field;
  if (f.kind && !FIELD_NOT_A_POINTER.has(f.kind) && f.instancePath !== undefined && field !== f.instancePath)
    wrong.push(`${rule}: ${f.kind} points at ${String(field)}, the failure at ${f.instancePath}`);
  return wrong;
}

describe('every failure of a run says its kind and params', () => {
  const seen = new Set<ProblemKind>();
  let faultsRun = 0;

  it.each(FAULTS.map((f) => [f.name, f] as const))(
    '%s: each failure has a kind of the vocabulary and params the schema accepts for it',
    async (_name, fault) => {
      const { report } = await runEmbedded({ fault: fault.name, runs: RUNS, seed: SEED, strict: true, ...restorePatienceUnder(fault) });
      const failures = failuresOf(report);
      if ((fault.expect ?? 'failed') === 'failed') expect(failures.length, `${fault.name} fails ${fault.ruleId}`).toBeGreaterThan(0);
      expect(failures.flatMap(({ rule, failure }) => kindProblems(rule, failure))).toEqual([]);
      expect(registry().validate('conformance-report', report)).toEqual([]);
      for (const { failure } of failures) if (failure.kind) seen.add(failure.kind);
      faultsRun += 1;
    },
  );

  it('the faults show every kind but two: the kinds are no one label stuck on everything', () => {
    // No fault of the embedded server sends a body the harness cannot read or crashes a check:
    // tests/rules/unreadable-bodies.test.ts and tests/rules/checks.test.ts show those two kinds.
    // It reads the runs above: run alone (a -t filter), it has nothing to judge.
    if (faultsRun < FAULTS.length) return;
    expect([...seen].sort()).toEqual(PROBLEM_KINDS.filter((k) => k !== 'unreadable-body' && k !== 'check-crashed').sort());
  });
});
