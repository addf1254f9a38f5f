/**
 * What a run will send, before it sends anything: the rules it judges, the families of cases
 * that judge them, the scenarios, and the requests all that plans. The runner follows the same
 * selection; `conformance run` prints the count and the time it implies at the start of a remote
 * run, and the profiles' help states it.
 */
import { restoreRequests } from './restore/restore-requests.ts';
import { RULES, getRule, type RuleDefinition, type RuleId } from '../core/catalogue.ts';
import type { TestCase } from '../core/case.ts';
import { caseFamilies, type CaseFamily } from './generators/families.ts';
import { inputKey, randomRuns } from './coverage.ts';
import { SCENARIOS, scenarioRules, type Scenario } from './scenarios.ts';
import { generatedCases } from './generated-cases.ts';
import { SHRINK_REQUESTS } from './shrink-budget.ts';
import { ruleShards, shareOf, type Shard, type ShardShare } from './shard.ts';

/** The rules whose id starts with one of the prefixes (all rules without any). */
export function selectRules(ruleFilter: readonly string[] = []): RuleDefinition[] {
  return RULES.filter((r) => !ruleFilter.length || ruleFilter.some((p) => r.id.startsWith(p)));
}

const FAMILY_RULES: ReadonlySet<string> = new Set(caseFamilies().map((f) => f.rule));
const SCENARIO_RULES: ReadonlySet<string> = new Set(SCENARIOS.flatMap(scenarioRules));

/** Whether a rule has a family of cases of its own. */
export const hasFamily = (rule: string): boolean => FAMILY_RULES.has(rule);

/** Rules with neither a family nor a scenario: every exchange of their operation judges them (schema, enums ...). */
export const judgedOnEveryExchange = (rule: RuleDefinition): boolean => !hasFamily(rule.id) && !SCENARIO_RULES.has(rule.id);

/** The families to send: those of the selected rules, and all of an operation when a selected rule is judged on its every exchange. */
export function plannedFamilies(selected: readonly RuleDefinition[], families: readonly CaseFamily[]): CaseFamily[] {
  const ids = new Set<string>(selected.map((r) => r.id));
  return families.filter((f) => ids.has(f.rule) || selected.some((r) => judgedOnEveryExchange(r) && r.operation === getRule(f.rule).operation));
}

/** The scenarios to run: those whose rule, or a rule they feed, is selected. */
export function plannedScenarios(selected: readonly RuleDefinition[]): Scenario[] {
  const ids = new Set<string>(selected.map((r) => r.id));
  return SCENARIOS.filter((s) => scenarioRules(s).some((r) => ids.has(r)) || s.feeds.some((r: RuleId) => ids.has(r)));
}

/**
 * What a run sends: the planned families and scenarios of the selected rules, or with `shard` the
 * share of that shard (shard.ts). The runner and the planned requests both start here.
 */
export function plannedShare(selected: readonly RuleDefinition[], runs: number, shard?: Shard): ShardShare {
  const families = plannedFamilies(selected, caseFamilies());
  const scenarios = plannedScenarios(selected);
  return shard ? shareOf(families, scenarios, runs, shard) : { families, scenarios };
}

/** For a run split into `count` shards: the shard that sends each selected rule's own cases (absent: every shard judges it). */
export function plannedRuleShards(ruleFilter: readonly string[] | undefined, runs: number, count: number): Map<string, number> {
  const selected = selectRules(ruleFilter);
  return ruleShards(plannedFamilies(selected, caseFamilies()), plannedScenarios(selected), runs, count);
}

export interface RequestPlan {
  /** Reading the accounts' state and whether metadata is replaced or merged. */
  probes: number;
  /** The families' examples. */
  fixed: number;
  random: number;
  /** Valid twins of invalid cases (a faithful target refuses every invalid case, so each asks its twin once). */
  twins: number;
  scenarios: number;
  /** Of the total, the updates of pool accounts: they go one at a time per account. */
  updates: number;
  /** All of the above: what a run against a faithful target sends, about. */
  total: number;
  /** Requests shrinking may add when something fails. */
  shrinkAtMost: number;
  /** Requests putting the pool accounts back may add (restore/restore-requests.ts); not in `total`, like shrinking. */
  restoreAtMost: number;
}

export interface PlanSettings {
  runs: number;
  accounts: number;
  seed: number;
  concurrentDuplicates: number;
  ruleFilter?: readonly string[];
  /** Only this shard's share of the cases (the accounts are read in every shard). */
  shard?: Shard;
}

/** The requests a run plans (generating its random cases, which is quick: nothing is sent). */
export function planRequests(settings: PlanSettings): Promise<RequestPlan> {
  return requestsOf(settings, plannedShare(selectRules(settings.ruleFilter), settings.runs, settings.shard));
}

async function requestsOf(settings: PlanSettings, share: ShardShare): Promise<RequestPlan> {
  const { families, scenarios: plannedScenarioList } = share;
  const twinKeys = new Set<string>();
  const invalidWithTwin = (c: TestCase) => c.mode === 'invalid' && c.control !== undefined;
  let random = 0;
  let randomTwins = 0;
  let updates = 0;
  const onPool = (c: TestCase) =>
    (c.operation === 'updateFiatAccount' && c.fiatAccountId === undefined ? 1 : 0) +
    (invalidWithTwin(c) && c.control!.operation === 'updateFiatAccount' ? 1 : 0);
  for (const family of families) {
    // Fixed examples repeat their twins: each is asked once.
    for (const c of family.examples) {
      if (invalidWithTwin(c)) twinKeys.add(inputKey(c.control!));
      updates += onPool(c);
    }
    const stream = generatedCases(family, settings.seed, randomRuns(family, settings.runs));
    for (let next = await stream.next(); next; next = await stream.next()) {
      random++;
      if (invalidWithTwin(next.testCase)) randomTwins++;
      updates += onPool(next.testCase);
    }
  }
  const probes = settings.accounts + 2;
  const fixed = families.reduce((sum, f) => sum + f.examples.length, 0);
  const twins = twinKeys.size + randomTwins;
  const scenarios = plannedScenarioList.reduce((sum, s) => sum + s.requests(settings), 0);
  const total = probes + fixed + random + twins + scenarios;
  return {
    probes,
    fixed,
    random,
    twins,
    scenarios,
    updates: probes + updates,
    total,
    shrinkAtMost: SHRINK_REQUESTS.perRun,
    restoreAtMost: restoreRequests(settings.accounts),
  };
}

/**
 * A run's plan, made once per run and handed to whoever needs it: the rules it judges and the
 * share of families and scenarios it sends (the engine), which shard sends each rule's own cases
 * (a sharded run's report), and the requests the run plans (the planned line, the progress),
 * generated on the first ask only (a quiet run against the embedded server never asks).
 */
export interface RunPlan {
  readonly selected: readonly RuleDefinition[];
  readonly share: ShardShare;
  /** For a sharded run: plannedRuleShards of its rules. */
  readonly ruleShards?: ReadonlyMap<string, number>;
  requests(): Promise<RequestPlan>;
}

export function planRun(settings: PlanSettings): RunPlan {
  const selected = selectRules(settings.ruleFilter);
  const share = plannedShare(selected, settings.runs, settings.shard);
  let requests: Promise<RequestPlan> | undefined;
  return {
    selected,
    share,
    ...(settings.shard ? { ruleShards: plannedRuleShards(settings.ruleFilter, settings.runs, settings.shard.count) } : {}),
    requests: () => (requests ??= requestsOf(settings, share)),
  };
}
