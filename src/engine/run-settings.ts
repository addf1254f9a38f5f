/**
 * What the engine needs to know of a run; how the run is reported is src/report's business.
 * The settings are the resolved options under the names they have everywhere (src/run/run-config.ts
 * RunConfig extends EngineOptions), so whoever composes a run hands the config on as it is, with what
 * only the composed run knows (the target's accounts and URL, the plan, an interrupt).
 */
import type { RunPlan } from './plan.ts';
import type { Shard } from './shard.ts';
import type { IdentityMemory } from '../rules/create-identity/remembered-identities.ts';

/** The options of a run that the engine and its plan read, as the one resolver gives them. */
export interface EngineOptions {
  seed: number;
  /** Random cases per family, on top of the deterministic examples. */
  runs: number;
  /** Cases sent ahead of the one being judged (--concurrency); 1 by default: one at a time. */
  concurrency?: number;
  /** Only rules whose id starts with one of these prefixes (all when empty). */
  ruleFilter?: readonly string[];
  /**
   * --shard: send only this shard's share of the families and scenarios (shard.ts). The accounts
   * are read in every shard; those reads count as cases in the first shard only, so the shards'
   * cases add up to the unsharded run's.
   */
  shard?: Shard;
  /** A failed convention rule also makes the run non-conformant (--strict): under --fail-fast it ends the run too. */
  strict?: boolean;
  /** --fail-fast: the first failure that makes the run non-conformant ends it (`stopped.kind: 'fail-fast'`). */
  failFast?: boolean;
  /**
   * --no-restore: leave the pool accounts as the run's last update left them. Otherwise they are
   * read before the probe and put back at the end (restore/account-restore.ts).
   */
  noRestore?: boolean;
  /** --read-with-empty-update: a target without GET of fiat accounts may be read with `PUT {}`. */
  readWithEmptyUpdate?: boolean;
  /** --restore-patience: how long a restore request waits for a target that is away, ms. */
  restorePatienceMs?: number;
  /** --lifetime: the run also repeats its first ref_ids this long after their creation (waiting at its end if need be), ms. */
  lifetimeMs?: number;
}

export interface RunSettings extends EngineOptions {
  /** The fiat account ids the target holds (the user's pool, or the embedded server's). */
  fiatAccountIds: string[];
  /**
   * Aborted when the user interrupts the run (its reason is the signal's name): no further case
   * is sent, and the run ends with what was judged until then (`stopped.kind: 'interrupted'`).
   */
  signal?: AbortSignal;
  /** The target's base URL, as the restore journal names it. */
  baseUrl?: string;
  /** Where the restore journal is written before the first write (restore-journal.ts); in memory only when absent. */
  journalFile?: string;
  /** --state: what earlier runs created for this API user on this target, and where this run's identities go (run/identity-state.ts). */
  identityMemory?: IdentityMemory;
  /** The run's plan (plan.ts planRun), made once by whoever composes the run: the engine never plans on its own. */
  plan: Pick<RunPlan, 'selected' | 'share' | 'budget'>;
}
