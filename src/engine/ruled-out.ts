/**
 * The rules a run's configuration keeps from being judged whatever the target does, said before
 * anything is sent (`conformance plan`, the planned line) with the smallest change that would
 * judge them: too few fiat accounts for a scenario (one account: isolation needs two), or a
 * --max-requests budget that leaves a rule below its coverage minimum. The run reports such a rule
 * as ruled out (inconclusive with `ruledOutBy`): it does not block a conformant verdict unless --strict.
 */
import { getRule, type RuleDefinition, type RuleId } from '../core/catalogue.ts';
import { caseFamilies } from '../rules/cases/families.ts';
import { scenarioRules } from '../rules/scenarios.ts';
import { minimumsOf } from './coverage.ts';
import type { RuledOutBy } from './events.ts';
import { hasFamily, judgedOnEveryExchange, plannedScenarios, type RunPlan } from './plan.ts';

export interface RuledOutRule extends RuledOutBy {
  rule: string;
}

/** The fix of a rule a budget leaves short: the smallest --max-requests whose plan meets every minimum. */
export const budgetFix = (concludes: number): RuledOutBy => ({ setting: '--max-requests', fix: `--max-requests ${concludes}` });

/** The selected rules a scenario cannot judge with `accounts` fiat accounts, and the fix. */
export function ruledOutByAccounts(selected: readonly RuleDefinition[], accounts: number): RuledOutRule[] {
  const ids = new Set<string>(selected.map((r) => r.id));
  return plannedScenarios(selected).flatMap((s) =>
    s.accountNeeds && accounts < s.accountNeeds.accounts
      ? s.accountNeeds.rules.filter((r) => ids.has(r)).map((rule) => ({ rule, setting: '--fiat-account-id', fix: s.accountNeeds!.fix }))
      : [],
  );
}

/**
 * The selected rules a scenario cannot judge unless the run fetches its tokens (a renewal needs
 * OAuth client credentials), and the fix; none when `fetchesTokens`.
 */
export function ruledOutByCredentials(selected: readonly RuleDefinition[], fetchesTokens: boolean): RuledOutRule[] {
  if (fetchesTokens) return [];
  const ids = new Set<string>(selected.map((r) => r.id));
  return plannedScenarios(selected).flatMap((s) =>
    s.credentialNeeds
      ? s.credentialNeeds.rules.filter((r) => ids.has(r)).map((rule) => ({ rule, setting: s.credentialNeeds!.setting, fix: s.credentialNeeds!.fix }))
      : [],
  );
}

/**
 * The selected rules the plan's budget leaves below their coverage minimum on a faithful target:
 * a family's fixed or random cases cut below it, a scenario left out, or the random cases of an
 * operation too few for a rule judged on its every exchange.
 */
export async function ruledOutByBudget(plan: RunPlan, runs: number): Promise<RuledOutRule[]> {
  if (!plan.budget) return [];
  const fix = budgetFix(plan.budget.concludes);
  const requests = await plan.requests();
  const minimums = minimumsOf(plan.selected, runs, caseFamilies());
  const byFamily = new Map(requests.byFamily.map((f) => [f.rule, f]));
  const keptScenarios = new Set<string>(plan.share.scenarios.flatMap((s) => [...scenarioRules(s), ...s.feeds]));
  const randomOf = (operation: string) => requests.byFamily.filter((f) => getRule(f.rule).operation === operation).reduce((n, f) => n + f.random, 0);
  const short = (rule: RuleDefinition): boolean => {
    const minimum = minimums.get(rule.id as RuleId)!;
    const family = byFamily.get(rule.id);
    if (family) return family.examples < minimum.fixed || family.random < minimum.random;
    // A family the budget dropped whole.
    if (hasFamily(rule.id)) return true;
    if (judgedOnEveryExchange(rule)) return randomOf(rule.operation) < minimum.random;
    // A scenario's rule: judged only if its scenario is kept.
    return !keptScenarios.has(rule.id);
  };
  return plan.selected.filter((rule) => plan.budget!.notes.has(rule.id) && short(rule)).map((rule) => ({ rule: rule.id, ...fix }));
}

/**
 * Every rule the configuration rules out, the accounts' and the credentials' first (their fix is
 * not a budget). `fetchesTokens`: the run's token comes from a token endpoint (client
 * credentials, the embedded server's), not a static --token.
 */
export async function ruledOutRules(plan: RunPlan, accounts: number, runs: number, fetchesTokens = true): Promise<RuledOutRule[]> {
  const bySettings = [...ruledOutByAccounts(plan.selected, accounts), ...ruledOutByCredentials(plan.selected, fetchesTokens)];
  const named = new Set(bySettings.map((r) => r.rule));
  return [...bySettings, ...(await ruledOutByBudget(plan, runs)).filter((r) => !named.has(r.rule))];
}

/**
 * One line for the plan and the planned line: `not judged by this configuration: fa.x (fix);
 * 34 rules below their minimum under --max-requests 300 (fa.y, +33 more): --max-requests 742`,
 * or undefined when the configuration rules nothing out.
 */
export function ruledOutLine(ruledOut: readonly RuledOutRule[], shown = 3): string | undefined {
  if (!ruledOut.length) return undefined;
  const bySetting = new Map<string, RuledOutRule[]>();
  for (const r of ruledOut) bySetting.set(r.fix, [...(bySetting.get(r.fix) ?? []), r]);
  const parts = [...bySetting.values()].map((rules) => {
    const names = rules.slice(0, shown).map((r) => r.rule);
    const more = rules.length > shown ? `, +${rules.length - shown} more` : '';
    return `${rules.length === 1 ? '' : `${rules.length} rules `}${names.join(', ')}${more} (${rules[0].setting}): ${rules[0].fix}`;
  });
  return `not judged by this configuration (not run, does not block the verdict without --strict): ${parts.join('; ')}`;
}
