/**
 * What the runner knows of a case beyond the case itself: whether it came from the fixed
 * examples and scenarios (else it is random), and whether it counts at all (the account reads of
 * every shard but the first, and twins another shard counts, judge but are not counted).
 * Kept by object identity: the account pool and ref_id stamping make new case objects, and each
 * is marked where it is made.
 */
import type { TestCase } from '../core/case.ts';

export class CaseMarks {
  private readonly fixedCases = new WeakSet<TestCase>();
  private readonly uncountedCases = new WeakSet<TestCase>();

  /** Marks `c` as a fixed case when `fixed`; returns it. */
  fixed(c: TestCase, fixed = true): TestCase {
    if (fixed) this.fixedCases.add(c);
    return c;
  }

  isFixed(c: TestCase): boolean {
    return this.fixedCases.has(c);
  }

  /** Marks `c` as judged but not counted; returns it. */
  uncounted(c: TestCase): TestCase {
    this.uncountedCases.add(c);
    return c;
  }

  isCounted(c: TestCase): boolean {
    return !this.uncountedCases.has(c);
  }
}
