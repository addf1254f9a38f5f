/**
 * A check of one operation's successful answers: judged from the answer's body and the request
 * that made it (and the case, for what the path carried); null for another operation's exchange
 * and for an answer with no success body, which judge nothing.
 */
import type { TestCase } from '../../core/case.ts';
import type { Operation, RuleId } from '../../core/catalogue.ts';
import type { Check, CheckReads, Problem } from '../check.ts';
import { requestBody, successBody } from './exchange-facts.ts';

export type SuccessJudge = (body: Record<string, unknown>, request: Record<string, unknown>, testCase: TestCase) => Problem[] | null;

export const successCheckOf =
  (operation: Operation) =>
  (rule: RuleId, reads: CheckReads, judge: SuccessJudge): Check => ({
    rule,
    reads,
    judge(e) {
      if (e.testCase.operation !== operation) return null;
      const body = successBody(e);
      return body ? judge(body, requestBody(e), e.testCase) : null;
    },
  });
