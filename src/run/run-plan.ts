/**
 * The plan of a run with a config: made here for `conformance run` (prepare-run.ts) and for
 * `conformance plan`, which prints it and sends nothing, so the two cannot disagree.
 */
import { planRunWithin, type RunPlan } from '../engine/plan.ts';
import type { BudgetInput } from '../engine/request-budget.ts';
import type { RunConfig } from './run-config.ts';
import { reservedRequests } from './request-reserve.ts';

/**
 * How many identical creates the concurrent ref_id scenario sends: at least 10 (a race needs a
 * crowd), more when the user allows more requests in flight, never more than 20.
 */
export const concurrentDuplicates = (concurrency: number): number => Math.max(10, Math.min(concurrency, 20));

/** The request budget of a run over `accounts` fiat accounts, under --max-requests. */
export function budgetOf(config: Pick<RunConfig, 'maxRequests' | 'noRestore'>, accounts: number): BudgetInput | undefined {
  return config.maxRequests === undefined ? undefined : { maxRequests: config.maxRequests, reserved: reservedRequests(accounts, !config.noRestore) };
}

/** The run's plan over `accounts` fiat accounts; under --max-requests, fitted into the budget. */
export function runPlanOf(config: RunConfig, accounts: number): Promise<RunPlan> {
  const budget = budgetOf(config, accounts);
  return planRunWithin({
    runs: config.runs,
    accounts,
    seed: config.seed,
    concurrentDuplicates: concurrentDuplicates(config.concurrency),
    ruleFilter: config.ruleFilter,
    ...(config.shard ? { shard: config.shard } : {}),
    ...(budget ? { budget } : {}),
  });
}
