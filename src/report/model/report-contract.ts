/**
 * The observed contract a report records. Reports before 1.7.0 have none: their runs tried no
 * open point, so it reads as empty, and `recorded` says so to whoever compares it.
 */
import { emptyContract } from '../../core/observed-contract.ts';
import type { ObservedContract, ObservedLimit } from '../../core/open-point.ts';
import type { ConformanceReport } from './model.ts';
import { targetWords } from './target-words.ts';
import { dottedPath } from '../../core/word-candidates.ts';

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

/**
 * The engine's contract as a report records it: each refusal with the target's own words, taken
 * from the response the engine kept, which the report leaves out (redaction of the whole report
 * happens when it is written).
 */
export function recordedContract(contract: ObservedContract | undefined): ObservedContract {
  if (!contract) return emptyContract();
  return {
    ...contract,
    limits: contract.limits.map((limit) => ({
      ...limit,
      refused: limit.refused.map(({ response, said, ...answer }) => {
        // The words on the refused field, when the target said several things.
        const words = said ?? targetWords(response, undefined, { fields: [dottedPath(limit.field)] });
        return { ...answer, ...(words ? { said: words } : {}) };
      }),
    })),
  };
}
