/** What the engine needs to know of a run; how the run is reported is src/report's business. */
import type { RuleDefinition } from '../core/catalogue.ts';
import type { RunPlan } from './plan.ts';
import type { Shard } from './shard.ts';

export interface RunSettings {
  /** The fiat account ids the target holds (the user's pool, or the embedded server's). */
  fiatAccountIds: string[];
  seed: number;
  /** Random cases per family, on top of the deterministic examples. */
  runs: number;
  /** How many identical creates the concurrent ref_id scenario sends at once. */
  concurrentDuplicates: number;
  /** Cases sent ahead of the one being judged (--concurrency); 1 by default: one at a time. */
  concurrency?: number;
  /** Only rules whose id starts with one of these prefixes (all when empty). */
  ruleFilter?: string[];
  /**
   * Aborted when the user interrupts the run (its reason is the signal's name): no further case
   * is sent, and the run ends with what was judged until then (`stopped.kind: 'interrupted'`).
   */
  signal?: AbortSignal;
  /** --fail-fast: the first failure of a rule this accepts ends the run (`stopped.kind: 'fail-fast'`). */
  failFast?: (rule: RuleDefinition) => boolean;
  /**
   * --shard: send only this shard's share of the families and scenarios (shard.ts). The accounts
   * are read in every shard; those reads count as cases in the first shard only, so the shards'
   * cases add up to the unsharded run's.
   */
  shard?: Shard;
  /**
   * False (--no-restore): leave the pool accounts as the run's last update left them. Otherwise
   * they are read before the probe and put back at the end (restore/account-restore.ts).
   */
  restore?: boolean;
  /** The target's base URL, as the restore journal names it. */
  baseUrl?: string;
  /** Where the restore journal is written before the first write (restore-journal.ts); in memory only when absent. */
  journalFile?: string;
  /** --read-with-empty-update: a target without GET of fiat accounts may be read with `PUT {}`. */
  readWithEmptyUpdate?: boolean;
  /** --restore-patience: how long a restore request waits for a target that is away, ms. */
  restorePatienceMs?: number;
  /** The run's plan (plan.ts planRun), made once by whoever composes the run; made here when absent. */
  plan?: Pick<RunPlan, 'selected' | 'share' | 'budget'>;
}
