/**
 * The cases fast-check generates for a family, one at a time, as it would in `fc.check` with the
 * same seed, examples and runs: case `i` is the one fast-check replays with `path: String(i)`.
 * Generating them apart from sending lets the runner send many at once (pipeline.ts) and shrink
 * only a failure, from its path (phases/shrinking.ts).
 *
 * Lazily: fast-check produces the next case only when it is asked for, so a run of 15,000 cases
 * per family never holds them all.
 */
import fc from 'fast-check';
import type { TestCase } from '../core/case.ts';
import type { CaseFamily } from '../rules/cases/family.ts';

export interface CaseStream {
  /** The next case with its index (fast-check's path), or undefined after the last. */
  next(): Promise<{ index: number; testCase: TestCase } | undefined>;
}

/** fast-check's parameters for a family: the examples come first, then `runs` random cases. */
export function propertyParameters(family: CaseFamily, seed: number, runs: number): fc.Parameters<[TestCase]> {
  return { seed, numRuns: family.examples.length + runs, examples: family.examples.map((e) => [e] as [TestCase]) };
}

/** The random cases of a family (its examples are not repeated), in fast-check's order. */
export function generatedCases(family: CaseFamily, seed: number, runs: number): CaseStream {
  if (!family.arbitrary || runs <= 0) return { next: async () => undefined };
  let index = -1;
  /** A case fast-check produced that nobody has asked for yet, and how to let fast-check go on. */
  let ready: { testCase: TestCase; release: () => void } | undefined;
  let waiting: ((testCase: TestCase | undefined) => void) | undefined;
  let releasePrevious: (() => void) | undefined;
  let finished = false;

  // fast-check waits for each predicate: the predicate waits until its case is asked for.
  const predicate = (testCase: TestCase) =>
    new Promise<boolean>((resolve) => {
      const release = () => resolve(true);
      if (waiting) {
        const take = waiting;
        waiting = undefined;
        releasePrevious = release;
        take(testCase);
      } else ready = { testCase, release };
    });
  void fc.check(fc.asyncProperty(family.arbitrary, predicate), propertyParameters(family, seed, runs)).finally(() => {
    finished = true;
    waiting?.(undefined);
    waiting = undefined;
  });

  const take = (): Promise<TestCase | undefined> =>
    new Promise((resolve) => {
      const previous = releasePrevious;
      releasePrevious = undefined;
      previous?.();
      if (ready) {
        releasePrevious = ready.release;
        resolve(ready.testCase);
        ready = undefined;
      } else if (finished) resolve(undefined);
      else waiting = resolve;
    });

  return {
    async next() {
      // The examples come first in fast-check's order: passed over, they keep the indexes aligned.
      while (index + 1 < family.examples.length) {
        if ((await take()) === undefined) return undefined;
        index++;
      }
      const testCase = await take();
      if (testCase === undefined) return undefined;
      index++;
      return { index, testCase };
    },
  };
}
