/**
 * One embedded run per fault (and one of the faithful server), asserted two ways, so the 86 runs
 * are made once instead of twice:
 * - the offline re-judge of its exchanges.har (src/run/har-rejudge.ts) gives the report's rule
 *   statuses, the same failures found again from the answers;
 * - findings as data (docs/design.md section 5.5, `rules[].failures[].kind`): each failure
 *   carries a kind of the vocabulary and the params of that kind, which the report schema checks
 *   kind by kind; a pointer-kind's field is the failure's instancePath, so a reader can group by
 *   either.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HarEntry } from '../../src/report/files/har.ts';
import type { ConformanceReport, ReportFailure } from '../../src/report/model/model.ts';
import { PROBLEM_KINDS, type ProblemKind } from '../../src/rules/problem-kinds.ts';
import { rejudgeDisagreement, rejudgeHar } from '../../src/run/har-rejudge.ts';
import { registry } from '../../src/schema/registry.ts';
import { FAULTS } from '../../src/server/faults.ts';
import { embeddedReportFolder } from '../report/bundle-fixture.ts';

const SEED = 7;

const harEntriesOf = (dir: string): HarEntry[] =>
  (JSON.parse(readFileSync(path.join(dir, 'exchanges.har'), 'utf8')) as { log: { entries: HarEntry[] } }).log.entries;
const failedIds = (rules: readonly { id: string; status: string }[]) =>
  rules
    .filter((r) => r.status === 'failed')
    .map((r) => r.id)
    .sort();

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

describe('each fault run once: its HAR re-judged, its findings typed', () => {
  const seen = new Set<ProblemKind>();
  let faultsRun = 0;

  // Every fault agrees offline, none is excluded: those of timing (a ref_id race, a server that dies
  // mid-run) show in the answers the HAR recorded (the race's creates, `_error` entries), which the run judged too.
  // Concurrent, as the fault matrix: each run has its own server and report folder.
  it.concurrent.for([{ name: 'faithful', fault: undefined }, ...FAULTS.map((f) => ({ name: f.name, fault: f }))])(
    "$name: the HAR re-judges to the report's statuses, and each failure has a kind of the vocabulary and params the schema accepts for it",
    async ({ fault }, { expect }) => {
      const { dir, report } = await embeddedReportFolder(SEED, fault?.name);
      const rejudged = rejudgeHar(harEntriesOf(dir), report.target.fiatAccountIds);
      expect(rejudgeDisagreement(report, rejudged)).toBeUndefined();
      expect(rejudged.notRejudged).toEqual([]);
      // The same failures, found again from the answers, not carried over from the report.
      expect(failedIds(rejudged.rules)).toEqual(failedIds(report.rules));
      const judged = report.rules.filter((r) => r.status === 'passed' || r.status === 'failed');
      expect(rejudged.rules.length).toBeGreaterThanOrEqual(judged.length);

      const failures = failuresOf(report);
      if (fault && (fault.expect ?? 'failed') === 'failed') expect(failures.length, `${fault.name} fails ${fault.ruleId}`).toBeGreaterThan(0);
      expect(failures.flatMap(({ rule, failure }) => kindProblems(rule, failure))).toEqual([]);
      expect(registry().validate('conformance-report', report)).toEqual([]);
      for (const { failure } of failures) if (failure.kind) seen.add(failure.kind);
      if (fault) faultsRun += 1;
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
