/**
 * Cases that are judged but not counted as cases of a rule: the account reads of every shard
 * but the first, and twins that another shard counts (shard.ts), so that the shards' cases add
 * up to the unsharded run's. Kept by object identity: each is marked where it is made.
 */
import type { TestCase } from '../core/case.ts';

export class UncountedCases {
  private readonly cases = new WeakSet<TestCase>();

  /** Marks `c`; returns it. */
  add(c: TestCase): TestCase {
    this.cases.add(c);
    return c;
  }

  has(c: TestCase): boolean {
    return this.cases.has(c);
  }
}
