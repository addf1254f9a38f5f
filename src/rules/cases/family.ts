import type fc from 'fast-check';
import type { Operation, RuleId } from '../../core/catalogue.ts';
import type { Mode, TestCase } from '../../core/case.ts';

/**
 * The cases of one rule: deterministic examples that always run (the exact boundaries), and an
 * arbitrary that adds random cases and shrinks a failure to a minimal payload.
 */
export interface CaseFamily {
  rule: RuleId;
  examples: TestCase[];
  arbitrary?: fc.Arbitrary<TestCase>;
}

/**
 * A case builder for one operation: an invalid case names the rule it violates, a boundary case
 * the rule it exercises.
 */
export const caseBuilder =
  (operation: Operation) =>
  (label: string, mode: Mode, body: unknown, rule?: RuleId, extra: Partial<TestCase> = {}): TestCase => ({
    operation,
    mode,
    label,
    body,
    ...(mode === 'invalid' && rule ? { violates: rule } : {}),
    ...(mode === 'boundary' && rule ? { exercises: rule } : {}),
    ...extra,
  });
