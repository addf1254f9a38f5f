/**
 * Requests a run keeps out of its phases' reach under --max-requests, for the housekeeping at its
 * end (restoring the fiat accounts it changed): the budget's `reserved`. The one place the
 * reserve is decided, so that the usage check, the plan and the run agree.
 */
import { restoreRequests } from '../engine/restore/restore-requests.ts';
import { MIN_ACCOUNTS } from '../server/seeded-accounts.ts';
import type { RunConfig } from './run-config.ts';

/** What restoring the pool accounts may send, or nothing under --no-restore. */
export const reservedRequests = (accounts: number, restore: boolean): number => (restore ? restoreRequests(accounts) : 0);

/** The fiat accounts a run with this config updates: the user's, or the embedded server's seeded ones. */
export const poolSize = (config: Pick<RunConfig, 'baseUrl' | 'fiatAccountIds'>): number =>
  config.baseUrl === undefined ? MIN_ACCOUNTS : config.fiatAccountIds.length;
