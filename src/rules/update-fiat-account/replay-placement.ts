/**
 * Where a report's failing update goes when a replay sends it again (run/report-replay.ts): a
 * malformed id (no account id) as recorded; the case of an unknown id to a fresh random id, which
 * no account has; any other update to an account of the target the replay may write.
 */
import type { TestCase } from '../../core/case.ts';
import type { RuleId } from '../../core/catalogue.ts';
import { usesFiatAccount } from '../../core/operations.ts';

export type ReplayPlacement = 'as-recorded' | 'unknown-account' | 'target-account';

export function replayPlacement(testCase: TestCase, failedRule: RuleId): ReplayPlacement {
  if (!usesFiatAccount(testCase.operation) || testCase.violates === 'fa.malformed-id-4xx') return 'as-recorded';
  return failedRule === 'fa.unknown-id-404' ? 'unknown-account' : 'target-account';
}
