/**
 * The hard request budget of a run (`--max-requests N`): a shared, rate-limited sandbox counts
 * every request, so the run never sends more than N, whatever a phase asks. The transport takes
 * one unit per request on the wire (reachability checks and 429 retries included, token requests
 * not: they go to another host); a request the budget refuses is never sent. `reserved` units are
 * kept out of the phases' reach for the run's housekeeping at its end (restoring the accounts it
 * changed), which takes them with `takeReserved()`.
 */
import { UsageError } from '../core/errors.ts';
import { RunStop } from './run-stop.ts';
import { REACHABILITY_ASKS } from './transport/reachability.ts';

/** The check that the target answers at all, then a round trip on the open connection, before the probe (transport/reachability.ts). */
export const REACHABILITY_REQUESTS = REACHABILITY_ASKS;
/** The probe's two one-pair updates that tell replace from merge (phases/probe.ts), beside a read of each account. */
export const METADATA_PROBES = 2;

export interface BudgetInput {
  maxRequests: number;
  /** Kept out of the phases' reach for the housekeeping at the run's end. */
  reserved: number;
}

/** What the report says about the budget (the payload of run-end's `budget`). */
export interface BudgetSummary {
  /** --max-requests */
  maxRequests: number;
  /** Kept for the housekeeping at the run's end. */
  reserved: number;
  /** Requests the plan fitted into the budget (reachability and probe included; shrinking, retries and housekeeping not). */
  planned: number;
  /** Requests sent. */
  used: number;
  /** Requests the budget refused: never sent (the run stopped there). */
  refused: number;
  /** What the plan left out to fit, one line each (empty: the whole plan fitted). */
  trimmed: string[];
}

/** `the request budget (--max-requests 200)`: how every line about the budget names it. */
export const budgetName = (maxRequests: number): string => `the request budget (--max-requests ${maxRequests})`;

/** The smallest budget a run can start with: the reachability check, the probe and the reserve. */
export const smallestBudget = (accounts: number, reserved: number): number => REACHABILITY_REQUESTS + accounts + METADATA_PROBES + reserved;

/** A UsageError before anything is sent when the budget cannot hold even the probe; `name` is the setting as the caller wrote it. */
export function checkBudget(budget: BudgetInput, accounts: number, name = '--max-requests'): void {
  const smallest = smallestBudget(accounts, budget.reserved);
  if (budget.maxRequests >= smallest) return;
  const kept = budget.reserved ? `, ${budget.reserved} kept for restoring the accounts at the end` : '';
  throw new UsageError(
    `${name} ${budget.maxRequests} is too small: a run needs at least ${smallest} requests (${REACHABILITY_REQUESTS} to check the target answers and time a round trip, ${accounts + METADATA_PROBES} to read the ${accounts} fiat account${accounts === 1 ? '' : 's'} and tell replace from merge${kept}); give ${name} ${smallest} or more`,
  );
}

export class RequestBudget {
  private used = 0;
  private refused = 0;
  private reserve: number;

  constructor(
    readonly maxRequests: number,
    readonly reserved = 0,
  ) {
    this.reserve = reserved;
  }

  /** Requests the phases may still send. */
  get left(): number {
    return Math.max(0, this.maxRequests - this.reserve - this.used);
  }

  /** Takes one request's unit, or throws RunStop('budget'): the request is not sent. */
  take(what: string): void {
    if (this.left > 0) {
      this.used++;
      return;
    }
    this.refused++;
    throw new RunStop('budget', `${budgetName(this.maxRequests)} was spent after ${this.used} requests: ${what} was not sent`);
  }

  /**
   * Takes a housekeeping request's unit (the accounts' restore): from the reserve kept for it
   * first, then from what the phases left. Never refused: a restore that a target makes retry
   * may pass the budget rather than leave an account changed (`beyond` counts those requests).
   */
  takeReserved(_what: string): void {
    if (this.reserve > 0) this.reserve--;
    else if (this.left <= 0) this.beyond++;
    this.used++;
  }

  /** Housekeeping requests sent past the budget (the restore retried a target that failed). */
  beyond = 0;

  summary(planned: number, trimmed: readonly string[]): BudgetSummary {
    return { maxRequests: this.maxRequests, reserved: this.reserved, planned, used: this.used, refused: this.refused, trimmed: [...trimmed] };
  }
}
