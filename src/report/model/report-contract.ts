/**
 * The observed contract a report records. Reports before 1.7.0 have none: their runs tried no
 * open point, so it reads as empty, and `recorded` says so to whoever compares it.
 */
import { emptyContract } from '../../core/observed-contract.ts';
import type { ObservedContract, ObservedLimit } from '../../core/open-point.ts';
import type { ConformanceReport } from './model.ts';

export interface ReportContract {
  contract: ObservedContract;
  /** False for a report older than 1.7.0. */
  recorded: boolean;
}

export function contractOf(report: ConformanceReport): ReportContract {
  return report.observedContract ? { contract: report.observedContract, recorded: true } : { contract: emptyContract(), recorded: false };
}

/** The limits where the target refused something: what the reports list. */
export const refusedLimits = (contract: ObservedContract): ObservedLimit[] => contract.limits.filter((l) => l.refused.length > 0);
