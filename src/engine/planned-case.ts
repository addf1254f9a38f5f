/** One case of a family's plan, as the fixed-case and random-case phases send it. */
import type { TestCase } from '../core/case.ts';
import type { CaseFamily } from '../rules/cases/families.ts';
import { generatedCases } from './generated-cases.ts';
import type { ItemSource } from './pipeline.ts';

/** An example (fixed) or a random case of a family, with fast-check's replay path. */
export interface PlannedCase {
  family: CaseFamily;
  /** The case's index in its family's property: `String(index)` replays it. */
  index: number;
  fixed: boolean;
  /** The case as generated, then with its ref_id and (when the pool is read in turn) its account. */
  testCase: TestCase;
  /** The pool account of the case, or of its twin (assigned in plan order; merge: when it starts). */
  account?: string;
}

/** The examples of a family as planned cases. */
export function examplesOf(family: CaseFamily): PlannedCase[] {
  return family.examples.map((testCase, index): PlannedCase => ({ family, index, fixed: true, testCase }));
}

/** The random cases of a family as planned cases. */
export function randomCasesOf(family: CaseFamily, seed: number, runs: number): ItemSource<PlannedCase> {
  const stream = generatedCases(family, seed, runs);
  return {
    async next() {
      const next = await stream.next();
      return next && { family, index: next.index, fixed: false, testCase: next.testCase };
    },
  };
}
