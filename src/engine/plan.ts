/**
 * What a run will send, before it sends anything: the rules it judges, the families of cases
 * that judge them, the scenarios, and the requests all that plans. The runner follows the same
 * selection; `conformance run` prints the count and the time it implies at the start of a remote
 * run, and the profiles' help states it.
 */
import { RULES, getRule, type RuleDefinition, type RuleId } from '../core/catalogue.ts';
import { caseFamilies, type CaseFamily } from '../rules/cases/families.ts';
import { SCENARIOS, scenarioRules, type Scenario } from '../rules/scenarios.ts';
import { countRequests, familyCost, type PlanSelection, type RequestPlan } from './plan-requests.ts';
import { budgetNotes, concludingRuns, fitToBudget, type BudgetInput, type FittedPlan } from './budget-fit.ts';
import { ruleShards, shareOf, type Shard, type ShardShare } from './shard.ts';
import type { EngineOptions } from './run-settings.ts';

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

export type { FamilyRequests, RequestPlan, ScenarioRequests } from './plan-requests.ts';

/**
 * What planning reads of a run: its options as the engine has them (run-settings.ts), the pool's
 * size, and under --max-requests the budget.
 */
export type PlanSettings = Pick<EngineOptions, 'seed' | 'runs' | 'concurrency' | 'ruleFilter' | 'shard' | 'lifetimeMs'> & {
  accounts: number;
  /** --max-requests: the plan shrinks to fit (budget-fit.ts). */
  budget?: BudgetInput;
  /** --state: identities earlier runs created (a few of their ref_ids are repeated). */
  remembered?: number;
  /** false: the run's token is static and cannot be renewed (a scenario that needs a renewal sends nothing). Default true. */
  fetchesTokens?: boolean;
};

/**
 * How many identical creates the concurrent ref_id scenario sends: at least 10 (a race needs a
 * crowd), more when the user allows more requests in flight, never more than 20.
 */
export const concurrentDuplicates = (concurrency = 1): number => Math.max(10, Math.min(concurrency, 20));

/** The requests a run plans (generating its random cases, which is quick: nothing is sent). */
export async function planRequests(settings: PlanSettings): Promise<RequestPlan> {
  return (await planRun(settings)).requests();
}

/** The whole share counted, and when a budget is given, fitted into it. */
async function fittedPlan(
  settings: PlanSettings,
  share: ShardShare,
): Promise<FittedPlan & { whole: RequestPlan; wholeSelection: PlanSelection; concludes: number }> {
  const selectedIds = new Set<string>(selectRules(settings.ruleFilter).map((r) => r.id));
  const counting = { ...settings, selectedIds, concurrentDuplicates: concurrentDuplicates(settings.concurrency) };
  const costs = await Promise.all(share.families.map((family) => familyCost(family, settings.seed, settings.runs, selectedIds)));
  const wholeSelection: PlanSelection = {
    families: costs.map((cost) => ({ cost, examples: cost.family.examples.length })),
    runs: settings.runs,
    scenarios: share.scenarios,
  };
  const whole = countRequests(counting, wholeSelection);
  const fitted = settings.budget ? fitToBudget(counting, wholeSelection, settings.budget) : { selection: wholeSelection, requests: whole, trimmed: [] };
  // The smallest plan that meets every minimum: everything, with the fewest random cases that do.
  const fewest = concludingRuns(selectRules(settings.ruleFilter), share.families, settings.runs);
  const concludes = fewest >= settings.runs ? whole.total : countRequests(counting, { ...wholeSelection, runs: fewest }).total;
  return { ...fitted, whole, wholeSelection, concludes };
}

/** What a request budget made of a run's plan: the engine sends `share` with `runs` random cases per rule. */
export interface BudgetedPlan {
  maxRequests: number;
  reserved: number;
  /** Random cases per rule that fitted. */
  runs: number;
  /** Families whose fixed cases the budget halved: how many of their first examples go, by rule. */
  examples: ReadonlyMap<string, number>;
  /** Requests the fitted plan sends to a faithful target. */
  planned: number;
  /** What the plan sent whole would need (--max-requests for it, the reserve included). */
  wholePlan: number;
  /**
   * The smallest --max-requests whose plan meets every rule's coverage minimum on a faithful
   * target: the whole plan with the fewest random cases that meet the random minimums (and the reserve).
   */
  concludes: number;
  /** What the budget leaves beyond the plan: all that shrinking may spend (a failing sequence's shrink too). */
  shrinkAtMost: number;
  trimmed: string[];
  /** Per rule the budget left short of its planned cases: why (the cause of a shortfall). */
  notes: ReadonlyMap<string, string>;
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
  /** Set under --max-requests: the share above is what fitted. */
  readonly budget?: BudgetedPlan;
  requests(): Promise<RequestPlan>;
}

/** The share of the selected rules (a shard's, with `shard`), its requests counted on the first ask only. */
function wholePlan(settings: PlanSettings): RunPlan {
  const selected = selectRules(settings.ruleFilter);
  const share = plannedShare(selected, settings.runs, settings.shard);
  let requests: Promise<RequestPlan> | undefined;
  return {
    selected,
    share,
    ...(settings.shard ? { ruleShards: plannedRuleShards(settings.ruleFilter, settings.runs, settings.shard.count) } : {}),
    requests: () => (requests ??= fittedPlan(settings, share).then((p) => p.requests)),
  };
}

/**
 * A run's plan, the one entry point of planning (the engine sends what it says and never plans on
 * its own). Under a request budget it is counted and fitted before the run starts (the engine
 * needs the fitted share), so it is made asynchronously.
 */
export async function planRun(settings: PlanSettings): Promise<RunPlan> {
  const plan = wholePlan(settings);
  if (!settings.budget) return plan;
  const fitted = await fittedPlan(settings, plan.share);
  const kept = new Set(fitted.selection.families.map((f) => f.cost.family));
  const halved = fitted.selection.families.filter((f) => f.examples < f.cost.family.examples.length);
  const budget: BudgetedPlan = {
    ...settings.budget,
    runs: fitted.selection.runs,
    examples: new Map(halved.map((f) => [f.cost.family.rule, f.examples])),
    planned: fitted.requests.total,
    wholePlan: fitted.whole.total + settings.budget.reserved,
    concludes: fitted.concludes + settings.budget.reserved,
    shrinkAtMost: fitted.requests.shrinkAtMost,
    trimmed: fitted.trimmed,
    notes: budgetNotes(plan.selected, fitted.whole, fitted.requests, fitted.wholeSelection, settings.budget),
  };
  const families = plan.share.families.filter((family) => kept.has(family));
  return { ...plan, share: { ...plan.share, families, scenarios: [...fitted.selection.scenarios] }, budget, requests: async () => fitted.requests };
}
