/** The split of a run into shards: a partition of the plan, deterministic, balanced by planned requests. */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.ts';
import { caseFamilies } from '../../src/rules/cases/families.ts';
import { hasFamily, planRequests, plannedFamilies, plannedRuleShards, plannedScenarios, plannedShare, selectRules } from '../../src/engine/plan.ts';
import { PROFILES } from '../../src/engine/profiles.ts';
import { familyRequests, parseShard, shardUnits, type Shard } from '../../src/engine/shard.ts';

const shards = (count: number): Shard[] => Array.from({ length: count }, (_, i) => ({ index: i + 1, count }));

describe('--shard i/n', () => {
  it('takes i/n with 1 <= i <= n', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, count: 3 });
    expect(parseShard('1/1')).toEqual({ index: 1, count: 1 });
    for (const bad of ['0/3', '4/3', '3', '1/0', 'a/b', '-1/2', '1.5/3', '']) {
      expect(() => parseShard(bad), bad).toThrow(UsageError);
      expect(() => parseShard(bad), bad).toThrow(/--shard takes i\/n with 1 <= i <= n/);
    }
  });
});

describe('the shares of a run', () => {
  it.each([[[]], [['fa.metadata']], [['id.']]] as const)('partition the planned families and scenarios (rules %j), in the plan order', (filter) => {
    const selected = selectRules(filter);
    const families = plannedFamilies(selected, caseFamilies());
    const scenarios = plannedScenarios(selected);
    for (const count of [1, 2, 3, 5]) {
      const shares = shards(count).map((s) => plannedShare(selected, PROFILES.standard, s));
      const sent = shares.flatMap((s) => s.families);
      expect(new Set(sent).size, `${count} shards`).toBe(sent.length);
      expect(new Set(sent)).toEqual(new Set(families));
      expect(shares.flatMap((s) => s.scenarios).length).toBe(scenarios.length);
      for (const share of shares) expect(share.families).toEqual(families.filter((f) => share.families.includes(f)));
    }
  });

  it('are the same every time they are computed, whatever the seed', async () => {
    const selected = selectRules();
    const again = shards(3).map((s) => plannedShare(selected, PROFILES.quick, s));
    expect(shards(3).map((s) => plannedShare(selected, PROFILES.quick, s).families.map((f) => f.rule))).toEqual(
      again.map((s) => s.families.map((f) => f.rule)),
    );
    // The planned requests of a shard change with the seed only as the whole run's do (random twins).
    const plan = (seed: number, shard?: Shard) => planRequests({ runs: PROFILES.quick, accounts: 3, seed, ...(shard ? { shard } : {}) });
    for (const seed of [1, 99]) {
      const parts = await Promise.all(shards(3).map((s) => plan(seed, s)));
      expect(parts.map((p) => p.random)).toEqual((await Promise.all(shards(3).map((s) => plan(1, s)))).map((p) => p.random));
    }
  });

  it('send the scenarios with the family of valid creates, whose identities they repeat', () => {
    for (const count of [2, 3, 4]) {
      const share = shards(count)
        .map((s) => plannedShare(selectRules(), PROFILES.standard, s))
        .find((s) => s.scenarios.length)!;
      expect(share.families.map((f) => f.rule)).toContain('id.valid-accepted');
    }
  });

  it('name, for each rule with cases of its own, the one shard that sends them', () => {
    const owners = plannedRuleShards([], PROFILES.standard, 3);
    for (const s of shards(3)) {
      const share = plannedShare(selectRules(), PROFILES.standard, s);
      for (const family of share.families) expect(owners.get(family.rule)).toBe(s.index);
      for (const scenario of share.scenarios.filter((sc) => !hasFamily(sc.rule))) expect(owners.get(scenario.rule)).toBe(s.index);
    }
    // The rules over the open space judge again what others own: the tax rule stays its family's.
    const tax = shards(3).find((s) => plannedShare(selectRules(), PROFILES.standard, s).families.some((f) => f.rule === 'id.tax.absent-rejected'))!;
    expect(owners.get('id.tax.absent-rejected')).toBe(tax.index);
    // Schema rules have no family: every shard judges them.
    expect(owners.has('fa.response.schema')).toBe(false);
  });

  it.each(Object.keys(PROFILES) as (keyof typeof PROFILES)[])(
    'are balanced by planned requests (%s): each shard within one family of total/n, and the sum is the whole plan with the accounts read in every shard',
    async (profile) => {
      const runs = PROFILES[profile];
      const plan = (shard?: Shard) => planRequests({ runs, accounts: 3, seed: 7, ...(shard ? { shard } : {}) });
      const whole = await plan();
      const largestUnit = Math.max(...shardUnits(caseFamilies(), plannedScenarios(selectRules()), runs).map((u) => u.requests));
      for (const count of [2, 3, 4]) {
        const parts = await Promise.all(shards(count).map((s) => plan(s)));
        const ideal = (whole.total - whole.probes) / count;
        for (const part of parts) expect(Math.abs(part.total - part.probes - ideal), `${count} shards`).toBeLessThanOrEqual(largestUnit);
        // A twin shared by families of different shards is asked in each: at most a few.
        const sum = parts.reduce((n, p) => n + p.total, 0);
        expect(sum - (count - 1) * whole.probes - whole.total).toBeGreaterThanOrEqual(0);
        expect(sum - (count - 1) * whole.probes - whole.total).toBeLessThanOrEqual(count);
        if (count <= 3) for (const part of parts) expect(Math.abs(part.total - part.probes - ideal) / ideal, `${count} shards`).toBeLessThanOrEqual(0.15);
      }
    },
  );

  it('weigh a family by its examples, twins and random cases, not by the seed', () => {
    for (const family of caseFamilies()) expect(familyRequests(family, 50)).toBeGreaterThanOrEqual(family.examples.length);
    expect(familyRequests(caseFamilies().find((f) => f.rule === 'fa.valid-accepted')!, 50)).toBe(
      caseFamilies().find((f) => f.rule === 'fa.valid-accepted')!.examples.length + 50,
    );
  });
});
