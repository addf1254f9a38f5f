/**
 * The line a remote run prints before its first case: how many requests it plans and how long
 * that takes at the run's rate limit and concurrency, with the round trip measured while
 * connecting. A sandbox's quota and a CI job's time limit are then known up front.
 */
import type { BudgetedPlan, RequestPlan, RunPlan } from '../engine/plan.ts';
import { ruledOutLine, ruledOutRules } from '../engine/ruled-out.ts';
import { RULES } from '../core/catalogue.ts';
import { formatDuration } from '../core/duration.ts';
import { budgetName } from '../engine/request-budget.ts';
import type { RunConfig } from './run-config.ts';
import { fetchesTokens } from './run-plan.ts';

export interface Pace {
  rateLimitPerSecond: number | null;
  concurrency: number;
  /** Fiat accounts in the pool: the updates of one account go one at a time. */
  accounts: number;
  roundTripMs: number;
}

/** Seconds a plan takes: bound by the rate limit, or by round trips over what may be in flight; and the waits for the target's clock. */
export function estimateMs(plan: Pick<RequestPlan, 'total' | 'updates'> & Partial<Pick<RequestPlan, 'waitsAtMostMs'>>, pace: Pace): number {
  const inFlight = Math.max(1, pace.concurrency);
  const updatesInFlight = Math.max(1, Math.min(pace.accounts, inFlight));
  const byRoundTrips = (plan.updates / updatesInFlight + (plan.total - plan.updates) / inFlight) * pace.roundTripMs;
  const byRate = pace.rateLimitPerSecond ? (plan.total / pace.rateLimitPerSecond) * 1000 : 0;
  return Math.max(byRoundTrips, byRate) + (plan.waitsAtMostMs ?? 0);
}

/** The line itself, from the run's plan (prepareRun's `plan`) and the round trip measured while connecting. */
export function plannedRunLine(config: RunConfig, plan: RequestPlan, accounts: readonly string[], roundTripMs: number): string {
  const pace: Pace = { rateLimitPerSecond: config.rateLimitPerSecond, concurrency: config.concurrency, accounts: accounts.length, roundTripMs };
  const parts = `${plan.fixed} fixed cases, ${plan.random} random, ${plan.twins} valid twins, ${plan.scenarios} in scenarios, ${plan.probes} to check the target and read the accounts`;
  const rate = config.rateLimitPerSecond ? `at most ${config.rateLimitPerSecond} requests a second` : 'no rate limit';
  const budget = config.maxRequests !== undefined ? `, within ${budgetName(config.maxRequests)}` : '';
  const restore = config.noRestore ? '' : `, restoring the accounts at most ${plan.restoreAtMost}`;
  return `planned: about ${plan.total} requests${budget} (${parts}; shrinking adds at most ${plan.shrinkAtMost} if something fails${restore}): about ${formatDuration(estimateMs(plan, pace))} with ${rate}, ${config.concurrency} in flight, ${Math.round(roundTripMs)} ms a round trip`;
}

/** What --max-requests made the plan leave out, one line (`conformance plan` lists it in full). */
export function budgetCutLine(budget: Pick<BudgetedPlan, 'maxRequests' | 'trimmed' | 'wholePlan'>): string {
  return `${budgetName(budget.maxRequests)} left out: ${budget.trimmed.join('; ')} (the whole plan needs --max-requests ${budget.wholePlan})`;
}

/**
 * The rules this configuration cannot judge whatever the target does (too few fiat accounts, a
 * static token, a budget below their minimum) and the smallest change that would, as one line; undefined when none.
 */
export async function ruledOutRunLine(config: Pick<RunConfig, 'runs' | 'baseUrl' | 'auth'>, plan: RunPlan, accounts: number): Promise<string | undefined> {
  return ruledOutLine(await ruledOutRules(plan, accounts, config.runs, fetchesTokens(config)));
}

/** What --rule leaves out, one line: the verdict speaks for the selected rules only. Undefined without a filter. */
export function ruleFilterLine(config: Pick<RunConfig, 'ruleFilter'>, plan: Pick<RunPlan, 'selected'>): string | undefined {
  if (!config.ruleFilter.length) return undefined;
  const left = RULES.length - plan.selected.length;
  return `not selected by --rule ${config.ruleFilter.join(' --rule ')}: ${left} of ${RULES.length} rules (the verdict covers the ${plan.selected.length} selected; drop --rule to judge them all)`;
}
