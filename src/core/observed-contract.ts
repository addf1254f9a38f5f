/**
 * Operations on a target's observed contract (open-point.ts) that the engine and the reports
 * share, so a run and a merge of shard reports say the same thing the same way.
 */
import { OPERATION_IDS } from './operations.ts';
import { OPEN_KINDS, type ObservedContract, type ObservedLimit } from './open-point.ts';

/** The contract of a run that tried no open point. */
export const emptyContract = (): ObservedContract => ({ version: 1, limits: [] });

/** What names one open point: its operation, field and kind. */
export const limitKey = (limit: Pick<ObservedLimit, 'operation' | 'field' | 'kind'>): string => `${limit.operation} ${limit.field} ${limit.kind}`;

/** The contract's fixed order: operation as the operation table lists them, field (by code unit), kind as OPEN_KINDS lists them. */
export function compareLimits(a: ObservedLimit, b: ObservedLimit): number {
  return (
    OPERATION_IDS.indexOf(a.operation) - OPERATION_IDS.indexOf(b.operation) ||
    (a.field < b.field ? -1 : a.field > b.field ? 1 : 0) ||
    OPEN_KINDS.indexOf(a.kind) - OPEN_KINDS.indexOf(b.kind)
  );
}
