/**
 * Sharding (`conformance run --shard i/n`): the planned families and scenarios split into n
 * shares, one per CI runner, that together send what the unsharded run sends.
 *
 * The unit is a family of cases: its fixed examples and its random cases, which fast-check draws
 * from the run's seed for that family alone, so they do not depend on which other families run.
 * The scenarios of identities go with the first family of valid creates: the sequential ref_id
 * scenario repeats an identity made earlier in the run, and the concurrent one needs two; a
 * scenario of the fiat account operation is a unit of its own. Units go to shards by
 * their planned requests, largest first, each to the shard with the fewest so far: deterministic,
 * and independent of the seed, the concurrency and the target.
 *
 * A valid twin that fixed examples of several families share is asked once by the unsharded run,
 * and once by each shard that holds one of them: it counts as a case only in the shard of the
 * first of those families (`foreignTwins`), as the reads of the accounts count only in shard 1,
 * so that the shards' cases add up to the unsharded run's.
 */
import { getRule } from '../core/catalogue.ts';
import { UsageError } from '../core/errors.ts';
import type { TestCase } from '../core/case.ts';
import type { CaseFamily } from '../rules/cases/family.ts';
import { scenarioRules, type Scenario } from '../rules/scenarios.ts';
import { inputKey, randomRuns } from './coverage.ts';

/** One share of a sharded run: `index` from 1 to `count`. */
export interface Shard {
  index: number;
  count: number;
}

/** Families and scenarios that go to one shard together, with the requests they plan. */
export interface ShardUnit {
  families: CaseFamily[];
  scenarios: Scenario[];
  requests: number;
}

/** What one shard sends, in the unsharded run's order. */
export interface ShardShare {
  families: CaseFamily[];
  scenarios: Scenario[];
  /** Fixed twins (by inputKey of what they send) this shard asks but another shard counts. */
  foreignTwins?: ReadonlySet<string>;
}

/** `2/3` as a shard, or a UsageError that says what is wanted, naming the setting as the caller wrote it. */
export function parseShard(text: string, name = '--shard', example = `${name} 2/3`): Shard {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = match ? Number(match[1]) : NaN;
  const count = match ? Number(match[2]) : NaN;
  if (!match || !Number.isSafeInteger(index) || !Number.isSafeInteger(count) || count < 1 || index < 1 || index > count) {
    throw new UsageError(`${name} takes i/n with 1 <= i <= n, e.g. ${example} for the second of three shards; got "${text}"`);
  }
  return { index, count };
}

/** `shard 2/3` */
export const shardName = (shard: Shard): string => `shard ${shard.index}/${shard.count}`;

const invalidWithTwin = (c: TestCase): boolean => c.mode === 'invalid' && c.control !== undefined;

/** The fixed twins a family asks, by what they send. */
export const twinKeys = (family: CaseFamily): Set<string> => new Set(family.examples.filter(invalidWithTwin).map((c) => inputKey(c.control!)));

/**
 * The requests a family plans, without generating its cases (so not from the seed): its examples,
 * their distinct twins, its random cases and, for a family of refused cases, a twin with each.
 */
export function familyRequests(family: CaseFamily, runs: number): number {
  const random = family.arbitrary ? randomRuns(family, runs) : 0;
  const paired = family.examples.some(invalidWithTwin);
  return family.examples.length + twinKeys(family).size + random * (paired ? 2 : 1);
}

/** Scenario requests are weighed at the smallest crowd and one seed: the split must not depend on --concurrency, --seed or the accounts. */
const SCENARIO_WEIGHT = { concurrentDuplicates: 10, seed: 1, accounts: 2 };

const makesIdentities = (family: CaseFamily): boolean => getRule(family.rule).operation === 'createIdentity' && family.examples.some((c) => c.mode === 'valid');

/**
 * A scenario of the fiat account operation repeats no identity of the run: it goes as a unit of
 * its own (with all scenarios on the family of valid creates, that one unit outweighed a third of
 * a quick run).
 */
const needsNoIdentities = (scenario: Scenario): boolean => getRule(scenario.rule).operation === 'updateFiatAccount';

const scenarioRequests = (scenarios: readonly Scenario[], runs: number): number =>
  scenarios.reduce((sum, s) => sum + s.requests({ ...SCENARIO_WEIGHT, runs }), 0);

/** The units of a plan, in the plan's order (the scenarios last when no family takes them). */
export function shardUnits(families: readonly CaseFamily[], scenarios: readonly Scenario[], runs: number): ShardUnit[] {
  const units = families.map((family): ShardUnit => ({ families: [family], scenarios: [], requests: familyRequests(family, runs) }));
  const withIdentities = scenarios.filter((s) => !needsNoIdentities(s));
  if (withIdentities.length) {
    const host = families.findIndex(makesIdentities);
    const unit = host >= 0 ? units[host] : { families: [], scenarios: [], requests: 0 };
    if (host < 0) units.push(unit);
    unit.scenarios.push(...withIdentities);
    unit.requests += scenarioRequests(withIdentities, runs);
  }
  for (const scenario of scenarios.filter(needsNoIdentities)) units.push({ families: [], scenarios: [scenario], requests: scenarioRequests([scenario], runs) });
  return units;
}

/** The units of each shard (index 0 is shard 1): largest unit first, each to the least loaded shard. */
export function assignUnits(units: readonly ShardUnit[], count: number): ShardUnit[][] {
  const shards: ShardUnit[][] = Array.from({ length: count }, () => []);
  const load = new Array<number>(count).fill(0);
  // A stable sort: equal units keep the plan's order, so the split is the same on every runner.
  const largestFirst = [...units].sort((a, b) => b.requests - a.requests);
  for (const unit of largestFirst) {
    const lightest = load.indexOf(Math.min(...load));
    shards[lightest].push(unit);
    load[lightest] += unit.requests;
  }
  return shards;
}

/** The families and scenarios `shard` sends, in the order of the unsharded plan, and the twins it asks for another shard. */
export function shareOf(families: readonly CaseFamily[], scenarios: readonly Scenario[], runs: number, shard: Shard): ShardShare {
  const mine = assignUnits(shardUnits(families, scenarios, runs), shard.count)[shard.index - 1];
  const ownFamilies = new Set(mine.flatMap((u) => u.families));
  const ownScenarios = new Set(mine.flatMap((u) => u.scenarios));
  // A shared twin counts in the shard of the first family that asks it.
  const firstAsker = new Map<string, CaseFamily>();
  for (const family of families) for (const key of twinKeys(family)) if (!firstAsker.has(key)) firstAsker.set(key, family);
  const foreignTwins = new Set(
    [...firstAsker].filter(([key, first]) => !ownFamilies.has(first) && [...ownFamilies].some((f) => twinKeys(f).has(key))).map(([key]) => key),
  );
  return { families: families.filter((f) => ownFamilies.has(f)), scenarios: scenarios.filter((s) => ownScenarios.has(s)), foreignTwins };
}

/**
 * The shard (1 to count) that sends each rule's own cases: the family of the rule, or the scenario
 * whose rule it is. Rules that are in no map are judged on every exchange, in every shard.
 */
export function ruleShards(families: readonly CaseFamily[], scenarios: readonly Scenario[], runs: number, count: number): Map<string, number> {
  const owners = new Map<string, number>();
  const shards = assignUnits(shardUnits(families, scenarios, runs), count);
  shards.forEach((units, i) => {
    for (const family of units.flatMap((u) => u.families)) owners.set(family.rule, i + 1);
  });
  // A rule with a family is its family's, though a scenario judges it again (the open space's tax rule).
  const ownedByFamily = new Set(owners.keys());
  shards.forEach((units, i) => {
    for (const scenario of units.flatMap((u) => u.scenarios)) for (const rule of scenarioRules(scenario)) if (!ownedByFamily.has(rule)) owners.set(rule, i + 1);
  });
  return owners;
}

/**
 * The probe of every shard reads each of its accounts and writes two metadata pairs to the first
 * (replace or merge?), so every shard needs one account of its own, even one without fiat account
 * rules: two shards on one account would write it at the same time.
 */
export const PROBE_ACCOUNTS = 1;

/** The fiat accounts a share needs of its own: the probe's, or more for a scenario that needs more (the sequences' isolation needs two). */
export function fiatAccountsNeeded(share: Pick<ShardShare, 'scenarios'>): number {
  return Math.max(PROBE_ACCOUNTS, ...share.scenarios.map((s) => s.fiatAccounts ?? 0));
}
