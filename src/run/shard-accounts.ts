/**
 * The fiat accounts of one shard (`conformance run --shard i/n` against a remote target): shards
 * run at the same time, so no two of them may write the same account. The given ids are split
 * into n disjoint shares that together are the given list, the same on every runner whatever the
 * order the ids were listed in: sorted (letter case ignored, repeats dropped), each shard first
 * gets what its share of the cases needs (shard.ts `fiatAccountsNeeded`), then the rest go out
 * one by one from shard 1, and shard i takes a contiguous block of the sorted list. Fewer ids
 * than the shards need together is a usage error. The embedded server needs no split: each shard
 * starts one of its own.
 */
import { UsageError } from '../core/errors.ts';
import { plannedShare, selectRules } from '../engine/plan.ts';
import { fiatAccountsNeeded, type Shard, shardName } from '../engine/shard.ts';

/** The fiat accounts each shard of `count` needs (index 0 is shard 1), from the plan of the selected rules. */
export function shardAccountNeeds(ruleFilter: readonly string[], runs: number, count: number): number[] {
  const selected = selectRules(ruleFilter);
  return Array.from({ length: count }, (_, i) => fiatAccountsNeeded(plannedShare(selected, runs, { index: i + 1, count })));
}

/** The given ids, once each (letter case ignored: a UUID's hex digits), sorted: the split depends on the set alone. */
function distinctSorted(ids: readonly string[]): string[] {
  const byKey = new Map<string, string>();
  for (const id of ids) if (!byKey.has(id.toLowerCase())) byKey.set(id.toLowerCase(), id);
  return [...byKey.keys()].sort().map((key) => byKey.get(key)!);
}

/** How many accounts each shard gets: its need, then one more each in turn from shard 1 while any are left. */
function shareSizes(available: number, needs: readonly number[]): number[] {
  const spare = available - needs.reduce((a, b) => a + b, 0);
  return needs.map((need, i) => need + Math.floor(spare / needs.length) + (i < spare % needs.length ? 1 : 0));
}

/**
 * The ids `shard` updates, out of every shard's `given` ids; `needs` from shardAccountNeeds.
 * Throws a UsageError, one line saying what to do, when the ids are fewer than the shards need.
 */
export function shardAccounts(given: readonly string[], shard: Shard, needs: readonly number[]): string[] {
  const ids = distinctSorted(given);
  const total = needs.reduce((a, b) => a + b, 0);
  if (ids.length < total) {
    const twos = needs.flatMap((n, i) => (n > 1 ? [`shard ${i + 1}/${shard.count}`] : []));
    const why = twos.length ? `, ${twos.join(' and ')} ${twos.length > 1 ? 'run' : 'runs'} the account sequences, which need two` : '';
    throw new UsageError(
      `${shardName(shard)}: ${shard.count} shards need at least ${total} distinct fiat account ids between them, got ${ids.length} (shards never write the same account: one each${why}): give at least ${total} with --fiat-account-id (or CONFORMANCE_FIAT_ACCOUNT_IDS), or run unsharded`,
    );
  }
  const sizes = shareSizes(ids.length, needs);
  const start = sizes.slice(0, shard.index - 1).reduce((a, b) => a + b, 0);
  return ids.slice(start, start + sizes[shard.index - 1]);
}
