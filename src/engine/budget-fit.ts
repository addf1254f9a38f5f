/**
 * Fitting a plan into a request budget (`--max-requests N`, request-budget.ts), before the first
 * request. What goes, in order, each step only while the plan is still too large:
 *
 * 1. random cases: fewer per rule, the same number for every rule (the cases kept are the first
 *    fast-check draws from the seed, each with its valid twin);
 * 2. scenarios, the least informative first: the most requests per rule they judge or feed;
 * 3. the second half of each family's examples (the first half is the rule's minimum), the
 *    families of convention rules first, then the documented ones;
 * 4. whole families, convention rules first, the costliest first.
 *
 * The reachability check and the probe always stay: a budget without room for them is a usage
 * error. What is left over is shrinking's (at most its usual 400).
 */
import { getRule, type RuleDefinition, type RuleId } from '../core/catalogue.ts';
import { caseFamilies, type CaseFamily } from '../rules/cases/families.ts';
import { minimumsOf, randomRuns } from './coverage.ts';
import { countRequests, type CountSettings, type PlanSelection, type RequestPlan } from './plan-requests.ts';
import { budgetName, checkBudget, type BudgetInput } from './request-budget.ts';

export type { BudgetInput };
import { scenarioRules, type Scenario } from '../rules/scenarios.ts';
import { SHRINK_REQUESTS } from './shrink-budget.ts';

export interface FittedPlan {
  selection: PlanSelection;
  requests: RequestPlan;
  /** What was left out, one line each, in the order above. */
  trimmed: string[];
}

export function fitToBudget(settings: CountSettings, whole: PlanSelection, budget: BudgetInput): FittedPlan {
  checkBudget(budget, settings.accounts);
  const room = budget.maxRequests - budget.reserved;
  const count = (selection: PlanSelection) => countRequests(settings, selection);
  const fits = (selection: PlanSelection) => count(selection).total <= room;
  const trimmed: string[] = [];
  let selection = whole;
  if (!fits(selection)) selection = fewerRandomCases(selection, fits, trimmed);
  if (!fits(selection)) selection = fewerScenarios(selection, fits, count, trimmed);
  if (!fits(selection)) selection = fewerExamples(selection, fits, trimmed);
  if (!fits(selection)) selection = fewerFamilies(selection, fits, trimmed);
  const requests = count(selection);
  return { selection, requests: { ...requests, shrinkAtMost: Math.min(SHRINK_REQUESTS.perRun, room - requests.total) }, trimmed };
}

/** The most random cases per rule that fit. */
function fewerRandomCases(selection: PlanSelection, fits: (s: PlanSelection) => boolean, trimmed: string[]): PlanSelection {
  let [low, high] = [0, selection.runs];
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fits({ ...selection, runs: mid })) low = mid;
    else high = mid - 1;
  }
  trimmed.push(`random cases: ${low} per rule instead of ${selection.runs}`);
  return { ...selection, runs: low };
}

function fewerScenarios(
  selection: PlanSelection,
  fits: (s: PlanSelection) => boolean,
  count: (s: PlanSelection) => RequestPlan,
  trimmed: string[],
): PlanSelection {
  const sent = new Map(count(selection).byScenario.map((s) => [s.rule, s.requests]));
  const perRule = (s: Scenario) => (sent.get(s.rule) ?? 0) / (scenarioRules(s).length + s.feeds.length);
  const leastInformativeFirst = [...selection.scenarios].sort((a, b) => perRule(b) - perRule(a));
  let kept = [...selection.scenarios];
  for (const scenario of leastInformativeFirst) {
    if (fits({ ...selection, scenarios: kept })) break;
    kept = kept.filter((s) => s !== scenario);
    trimmed.push(`the scenario of ${scenarioRules(scenario).join(', ')} (${sent.get(scenario.rule)} requests)`);
  }
  return { ...selection, scenarios: kept };
}

/** Convention rules' families first; among equals, the plan's order. */
const conventionFirst = (selection: PlanSelection) =>
  [...selection.families].sort((a, b) => Number(isDocumented(getRule(a.cost.family.rule))) - Number(isDocumented(getRule(b.cost.family.rule))));
const isDocumented = (rule: RuleDefinition) => rule.basis === 'documented';

function fewerExamples(selection: PlanSelection, fits: (s: PlanSelection) => boolean, trimmed: string[]): PlanSelection {
  let families = [...selection.families];
  for (const entry of conventionFirst(selection)) {
    if (fits({ ...selection, families })) break;
    const half = Math.ceil(entry.examples / 2);
    if (half === entry.examples) continue;
    families = families.map((f) => (f === entry ? { ...f, examples: half } : f));
    trimmed.push(`${entry.cost.family.rule}: ${half} of its ${entry.examples} fixed cases`);
  }
  return { ...selection, families };
}

function fewerFamilies(selection: PlanSelection, fits: (s: PlanSelection) => boolean, trimmed: string[]): PlanSelection {
  const order = conventionFirst(selection).sort(
    (a, b) => Number(isDocumented(getRule(a.cost.family.rule))) - Number(isDocumented(getRule(b.cost.family.rule))) || b.examples - a.examples,
  );
  let families = [...selection.families];
  for (const entry of order) {
    if (fits({ ...selection, families })) break;
    families = families.filter((f) => f.cost.family !== entry.cost.family);
    trimmed.push(`${entry.cost.family.rule}: all of its fixed cases`);
  }
  return { ...selection, families };
}

/**
 * Why each rule the budget left short of cases may be short: one line per rule whose planned
 * cases the fitting reduced (the ledger gives it as the cause of a shortfall).
 */
export function budgetNotes(
  selected: readonly RuleDefinition[],
  whole: RequestPlan,
  fitted: RequestPlan,
  wholeSelection: PlanSelection,
  budget: BudgetInput,
): Map<string, string> {
  const notes = new Map<string, string>();
  const name = budgetName(budget.maxRequests);
  const wholePlan = ` (the whole plan needs --max-requests ${whole.total + budget.reserved})`;
  const byRule = (plan: RequestPlan) => new Map(plan.byFamily.map((f) => [f.rule, f]));
  const [before, after] = [byRule(whole), byRule(fitted)];
  const keptScenarios = new Set(fitted.byScenario.map((s) => s.rule));
  for (const rule of selected) {
    const family = before.get(rule.id);
    if (family) {
      const left = after.get(rule.id) ?? { examples: 0, random: 0 };
      if (left.examples < family.examples || left.random < family.random) {
        notes.set(
          rule.id,
          `${name} left it ${left.examples} of its ${family.examples} fixed and ${left.random} of its ${family.random} random cases${wholePlan}`,
        );
      }
      continue;
    }
    const scenario = wholeSelection.scenarios.find((s) => [...scenarioRules(s), ...s.feeds].includes(rule.id as never));
    if (scenario && !keptScenarios.has(scenario.rule) && (scenarioRules(scenario).includes(rule.id as never) || !hasOwnCases(rule.id, fitted))) {
      notes.set(rule.id, `${name} left out the scenario that judges it${wholePlan}`);
      continue;
    }
    const ofOperation = (plan: RequestPlan) =>
      plan.byFamily.filter((f) => getRule(f.rule).operation === rule.operation).reduce((n, f) => n + f.examples + f.random, 0);
    // Judged on every exchange of its operation (a scenario may feed it too): the operation's cases cut.
    const judgedByItsOperation = !scenario || !scenarioRules(scenario).includes(rule.id as never);
    if (judgedByItsOperation && ofOperation(fitted) < ofOperation(whole)) {
      notes.set(rule.id, `${name} left ${ofOperation(fitted)} of the ${ofOperation(whole)} cases of its operation, which judge it${wholePlan}`);
    }
  }
  return notes;
}

const hasOwnCases = (rule: string, plan: RequestPlan): boolean => plan.byFamily.some((f) => f.rule === rule && f.examples + f.random > 0);

/**
 * The fewest random cases per rule that meet every selected family's random minimum at the
 * profile's `runs` (a family of paired invalid cases sends half as many: coverage.ts randomRuns).
 */
export function concludingRuns(selected: readonly RuleDefinition[], families: readonly CaseFamily[], runs: number): number {
  const minimums = minimumsOf(selected, runs, caseFamilies());
  const own = families.filter((f) => minimums.has(f.rule as RuleId));
  for (let r = 0; r < runs; r++) if (own.every((f) => randomRuns(f, r) >= minimums.get(f.rule as RuleId)!.random)) return r;
  return runs;
}
