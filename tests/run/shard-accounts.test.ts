/** Shards never write the same account: the given fiat account ids split into disjoint shares whose union is the list. */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.ts';
import { PROFILES } from '../../src/engine/profiles.ts';
import { fiatAccountsNeeded } from '../../src/engine/shard.ts';
import { planSummary, planLines } from '../../src/run/plan-summary.ts';
import { resolveRunConfig } from '../../src/run/run-config.ts';
import { shardAccountNeeds, shardAccounts } from '../../src/run/shard-accounts.ts';
import { accountSequences } from '../../src/rules/update-fiat-account/sequences/account-sequences.ts';

const ids = (n: number): string[] => Array.from({ length: n }, (_, i) => `abcdef0${i % 10}-0000-4000-8000-${String(i).padStart(12, '0')}`);
const remote = (shard: string, accounts: readonly string[], extra: string[] = []) => [
  '--base-url',
  'https://sandbox.example.com',
  '--token',
  't0k',
  '--seed',
  '5',
  '--profile',
  'quick',
  '--shard',
  shard,
  ...accounts.flatMap((id) => ['--fiat-account-id', id]),
  ...extra,
];
const resolve = (argv: string[]) => resolveRunConfig(argv, {}, () => 1)!;

describe('the fiat accounts of a shard', () => {
  it('every shard needs one account for its probe; the shard with the account sequences needs two (isolation)', () => {
    expect(fiatAccountsNeeded({ scenarios: [] })).toBe(1);
    expect(fiatAccountsNeeded({ scenarios: [accountSequences] })).toBe(2);
    const needs = shardAccountNeeds([], PROFILES.quick, 3);
    expect([...needs].sort()).toEqual([1, 1, 2]);
    // Without the sequence rules no shard needs two.
    expect(shardAccountNeeds(['id.'], PROFILES.quick, 3)).toEqual([1, 1, 1]);
  });

  it.each([2, 3, 5])('split into %i disjoint shares whose union is the given list, whatever order the ids are given in', (count) => {
    const needs = shardAccountNeeds([], PROFILES.quick, count);
    for (const available of [needs.reduce((a, b) => a + b, 0), 7, 12]) {
      const given = ids(available);
      const shards = Array.from({ length: count }, (_, i) => ({ index: i + 1, count }));
      const shares = shards.map((s) => shardAccounts(given, s, needs));
      const all = shares.flat();
      expect(new Set(all).size, 'disjoint').toBe(all.length);
      expect([...all].sort()).toEqual([...given].sort());
      for (const [i, share] of shares.entries()) expect(share.length).toBeGreaterThanOrEqual(needs[i]);
      // Another runner given the same ids in another order, or in another letter case, gets the same share.
      const shuffled = [...given].reverse().map((id, i) => (i % 2 ? id.toUpperCase() : id));
      expect(shards.map((s) => shardAccounts(shuffled, s, needs).map((id) => id.toLowerCase()))).toEqual(shares);
    }
  });

  it('an id listed twice goes to one shard only', () => {
    const given = ids(4);
    const shares = [1, 2].map((index) => shardAccounts([...given, given[0].toUpperCase()], { index, count: 2 }, [2, 1]));
    expect(
      shares
        .flat()
        .map((id) => id.toLowerCase())
        .sort(),
    ).toEqual(given);
  });

  it('fewer ids than the shards need: a usage error, one line that says what to do', () => {
    const needs = shardAccountNeeds([], PROFILES.quick, 3);
    const error = (() => {
      try {
        shardAccounts(ids(3), { index: 1, count: 3 }, needs);
      } catch (e) {
        return e as UsageError;
      }
      throw new Error('expected a usage error');
    })();
    expect(error).toBeInstanceOf(UsageError);
    expect(error.exitCode).toBe(2);
    expect(error.message.split('\n')).toHaveLength(1);
    expect(error.message).toMatch(/need at least 4 distinct fiat account ids between them, got 3/);
    expect(error.message).toMatch(/give at least 4 with --fiat-account-id .*, or run unsharded$/);
    expect(error.message).toMatch(/runs the account sequences, which need two/);
  });
});

describe('conformance run --shard against a remote target', () => {
  it('runs each shard on its own share of the accounts; the plan says so', async () => {
    const given = ids(5);
    const configs = ['1/2', '2/2'].map((s) => resolve(remote(s, given)));
    const [a, b] = configs.map((c) => c.fiatAccountIds);
    expect(a.filter((id) => b.includes(id))).toEqual([]);
    expect([...a, ...b].sort()).toEqual(given);
    expect(configs[0].fiatAccountsGiven).toBe(5);
    const lines = planLines(await planSummary(configs[1]));
    expect(lines.join('\n')).toContain(
      `fiat accounts it would change: ${b.join(', ')} (shard 2/2's own ${b.length} of the 5 ids given: shards never write the same account)`,
    );
  });

  it('refuses too few accounts before anything is sent (exit 2), and an unsharded run on one account stays allowed', () => {
    expect(() => resolve(remote('1/2', ids(2)))).toThrow(/2 shards need at least 3 distinct fiat account ids/);
    expect(() => resolve(remote('2/2', ids(1)))).toThrow(UsageError);
    // --rule id.: no sequences, one account per shard is enough.
    expect(resolve(remote('2/2', ids(2), ['--rule', 'id.'])).fiatAccountIds).toHaveLength(1);
  });

  it('the embedded server is not split: each shard starts its own', () => {
    expect(resolve(['--seed', '5', '--shard', '1/2']).fiatAccountIds).toEqual([]);
  });
});
