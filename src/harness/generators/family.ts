import type fc from 'fast-check';
import type { RuleId } from '../../rules/catalogue.ts';
import type { TestCase } from '../case.ts';

/**
 * The cases of one rule: deterministic examples that always run (the exact boundaries), and an
 * arbitrary that adds random cases and shrinks a failure to a minimal payload.
 */
export interface CaseFamily {
  rule: RuleId;
  examples: TestCase[];
  arbitrary?: fc.Arbitrary<TestCase>;
}
