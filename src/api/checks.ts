/**
 * The harness's checks for exchanges of one's own: every registered check judges the exchange,
 * and each rule that the exchange says something about comes back with its problems (none: the
 * rule passed on it). A check that crashes is a problem of its rule, never an exception.
 */
import { getRule, type RuleDefinition } from '../core/catalogue.ts';
import type { Exchange } from '../core/exchange.ts';
import type { Problem } from '../rules/check.ts';
import { judge } from '../rules/judge.ts';

export interface RuleJudgement {
  rule: RuleDefinition;
  passed: boolean;
  problems: Problem[];
}

export interface CheckOptions {
  /** The fiat account ids that exist on the target: an update of another id must get a 404. */
  fiatAccountIds?: readonly string[];
  /**
   * True when the target merges metadata on update and the account's keys plus this request's
   * exceed 6, so a rejection is a reading of the document, not a fault. Default: never.
   */
  mergeMayExceedLimit?: (exchange: Exchange) => boolean;
}

/** Judges one exchange (as `Client.send` returns it) with every check of the harness. */
export function checkExchange(exchange: Exchange, options: CheckOptions = {}): RuleJudgement[] {
  const judgements = judge(exchange, {
    fiatAccountIds: options.fiatAccountIds ?? (exchange.testCase.fiatAccountId ? [exchange.testCase.fiatAccountId] : []),
    mergeMayExceedLimit: options.mergeMayExceedLimit ?? (() => false),
  });
  return judgements.map((j) => ({ rule: getRule(j.rule), passed: j.problems.length === 0, problems: j.problems }));
}

/** The judgements of `checkExchange` that failed, as one readable line each (empty: all passed). */
export function failedChecks(judgements: readonly RuleJudgement[]): string[] {
  return judgements
    .filter((j) => !j.passed)
    .flatMap((j) => j.problems.map((p) => `${j.rule.id} (§${j.rule.section}, ${j.rule.basis}): ${p.message}${p.instancePath ? ` at ${p.instancePath}` : ''}`));
}
