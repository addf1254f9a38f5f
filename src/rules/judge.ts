/**
 * Runs every registered check on an exchange. A check that throws becomes a finding of its rule
 * (docs/design.md section 4.2): it never stops the run.
 */
import { CHECKS } from './checks/index.ts';
import type { CheckContext, Problem } from './check.ts';
import type { RuleId } from '../core/catalogue.ts';
import type { Exchange } from '../core/exchange.ts';

export interface Judgement {
  rule: RuleId;
  problems: Problem[];
  crashed?: boolean;
}

export function judge(exchange: Exchange, context: CheckContext): Judgement[] {
  const byRule = new Map<RuleId, Judgement>();
  const around = exchange.testCase.around;
  for (const check of CHECKS) {
    // A case about HTTP around the operation: its answer is no update or create, only its rule judges it.
    if (around !== undefined && check.rule !== around && !check.judgesAround) continue;
    let problems: Problem[] | null;
    let crashed = false;
    try {
      problems = check.judge(exchange, context);
    } catch (error) {
      problems = [
        {
          message: `the check crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
          kind: 'check-crashed',
          params: { error: error instanceof Error ? error.message : String(error) },
        },
      ];
      crashed = true;
    }
    if (problems === null) continue;
    const seen = byRule.get(check.rule);
    if (seen) {
      seen.problems.push(...problems);
      seen.crashed ||= crashed;
    } else byRule.set(check.rule, { rule: check.rule, problems: [...problems], ...(crashed ? { crashed } : {}) });
  }
  return [...byRule.values()];
}
