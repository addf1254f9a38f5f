import type { RuleId } from '../core/catalogue.ts';
import type { Exchange } from '../core/exchange.ts';
import type { ProblemData } from './problem-kinds.ts';

/**
 * What a check says about one problem: a message for people and, where it points into the body,
 * a path; and as data, its kind and the params of that kind (problem-kinds.ts).
 */
export type Problem = { message: string; instancePath?: string } & ProblemData;

/** What the runner knows beyond the exchange itself. */
export interface CheckContext {
  /** The fiat account ids the target holds (the user's pool). */
  fiatAccountIds: readonly string[];
  /**
   * True when the target merges metadata on update and this request's keys plus the keys the
   * account already holds exceed 6: a rejection is then a reading of the document, not a fault.
   */
  mergeMayExceedLimit(exchange: Exchange): boolean;
}

/**
 * What of an exchange a check reads, declared with the check so that the engine needs no list
 * of its own: the answer's status against the case's intent (`status`), the answer's headers
 * (`headers`), the body of a success on its own (`body`), that body against the request that
 * was sent (`body-and-request`), or the body of a record the request has just created
 * (`new-record`: a repeat's answer shows an older record).
 */
export type CheckReads = 'status' | 'headers' | 'body' | 'body-and-request' | 'new-record';

/**
 * A check judges one exchange for one rule. It returns `null` when the exchange says nothing
 * about the rule, and otherwise the problems found (an empty array is a pass).
 */
export interface Check {
  rule: RuleId;
  reads: CheckReads;
  /**
   * Judges cases about HTTP around the operation too (another method, an empty body), which
   * otherwise only their own rule judges: set for whether a request got an answer at all.
   */
  judgesAround?: true;
  judge(exchange: Exchange, context: CheckContext): Problem[] | null;
}

export const pass: Problem[] = [];

export function problem(message: string, data: ProblemData, instancePath?: string): Problem[] {
  return [{ message, ...(instancePath !== undefined ? { instancePath } : {}), ...data }];
}
