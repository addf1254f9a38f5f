/**
 * Operations on a target's observed contract (open-point.ts) that the engine and the reports
 * share, so a run and a merge of shard reports say the same thing the same way.
 */
import type { ObservedContract } from './open-point.ts';

/** The contract of a run that tried no open point. */
export const emptyContract = (): ObservedContract => ({ version: 1, limits: [] });
