/**
 * What the engine asks about a rule, read from what its checks declare (check.ts `reads`), so
 * that no list of rules is kept beside the checks: whether the rule compares an answer with the
 * request, whether it is judged from the body of a success, which rules judge an identity's body
 * on its own. And who judges each rule: its checks, or a judge across exchanges (below); the
 * scenarios that judge their own rule are added in judges-of-rules.ts.
 */
import type { Operation } from '../core/operations.ts';
import { getRule, type RuleId } from '../core/catalogue.ts';
import type { CheckReads } from './check.ts';
import { CHECKS } from './checks/index.ts';

const readsOf = (rule: string): Set<CheckReads> => new Set(CHECKS.filter((c) => c.rule === rule).map((c) => c.reads));

/** The rule compares an answer with the request that made it: an answer that is another create's identity says nothing of it. */
export const comparesWithRequest = (rule: string): boolean => readsOf(rule).has('body-and-request');

const BODY_READS: readonly CheckReads[] = ['body', 'body-and-request', 'new-record'];

/** The rule is judged from the body of a success: a success that holds none of its fields leaves it silent. */
export const judgesSuccessBody = (rule: string): boolean => [...readsOf(rule)].some((r) => BODY_READS.includes(r));

/** The rules of an operation that judge an answer on its own (body or headers): any answer of the operation, a repeat's too, feeds them. */
export function rulesOfAnswersAlone(operation: Operation): RuleId[] {
  const rules = CHECKS.filter((c) => (c.reads === 'body' || c.reads === 'headers') && getRule(c.rule).operation === operation).map((c) => c.rule);
  return [...new Set(rules)];
}

/** Rules judged across the exchanges of a run, not by a check of one exchange. */
export const ACROSS_EXCHANGES: ReadonlyMap<RuleId, string> = new Map<RuleId, string>([
  ['id.distinct-identities', 'the identities created so far (created-identities.ts)'],
]);

/** The rules that have checks. */
export const CHECKED_RULES: ReadonlySet<RuleId> = new Set(CHECKS.map((c) => c.rule));
