/**
 * The tally of open cases (docs/design.md, "What the document guarantees, forbids, and leaves
 * open") by the target's answer, for `summary.openCases`: the observed contract keeps a few
 * distinct values per point, not how many cases were sent.
 */
import type { Exchange } from '../../core/exchange.ts';
import type { ConformanceReport } from './model.ts';

export type OpenCaseCounts = NonNullable<ConformanceReport['summary']['openCases']>;

/** A 2xx accepts; a 4xx refuses, but a 429 is about the pace, not the value; anything else is neither. */
function answerOf(exchange: Exchange): keyof OpenCaseCounts | undefined {
  const status = exchange.response?.status;
  if (status === undefined) return undefined;
  if (status >= 200 && status < 300) return 'accepted';
  if (status >= 400 && status < 500 && status !== 429) return 'refused';
  return undefined;
}

/** Counts the exchanges of open cases as they come. */
export function createOpenCaseTally(): { count(exchange: Exchange): void; counts(): OpenCaseCounts } {
  const counts: OpenCaseCounts = { accepted: 0, refused: 0 };
  return {
    count(exchange) {
      if (!exchange.testCase.open) return;
      const answer = answerOf(exchange);
      if (answer) counts[answer]++;
    },
    counts: () => ({ ...counts }),
  };
}
