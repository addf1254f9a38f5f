/**
 * The plan of a run with a config: made here for `conformance run` (prepare-run.ts) and for
 * `conformance plan`, which prints it and sends nothing, so the two cannot disagree. The engine
 * is handed this plan and never makes one of its own.
 */
import { planRun, type RunPlan } from '../engine/plan.ts';
import type { BudgetInput } from '../engine/request-budget.ts';
import type { RunConfig } from './run-config.ts';
import { reservedRequests } from './request-reserve.ts';

/** The request budget of a run over `accounts` fiat accounts, under --max-requests. */
export function budgetOf(config: Pick<RunConfig, 'maxRequests' | 'noRestore'>, accounts: number): BudgetInput | undefined {
  return config.maxRequests === undefined ? undefined : { maxRequests: config.maxRequests, reserved: reservedRequests(accounts, !config.noRestore) };
}

/** Whether the run's token comes from a token endpoint (client credentials; the embedded server's), so it can be renewed. */
export const fetchesTokens = (config: Pick<RunConfig, 'baseUrl' | 'auth'>): boolean =>
  config.baseUrl === undefined || config.auth.kind === 'client-credentials';

/**
 * The run's plan over `accounts` fiat accounts; under --max-requests, fitted into the budget.
 * `remembered`: the identities earlier runs created (--state), a few of whose ref_ids it repeats.
 */
export function runPlanOf(config: RunConfig, accounts: number, remembered = 0): Promise<RunPlan> {
  const budget = budgetOf(config, accounts);
  // The config is the plan's settings as it is (seed, runs, concurrency, rule filter, shard).
  return planRun({ ...config, accounts, fetchesTokens: fetchesTokens(config), ...(budget ? { budget } : {}), ...(remembered ? { remembered } : {}) });
}
