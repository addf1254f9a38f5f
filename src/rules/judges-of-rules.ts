/**
 * Who judges each rule: its checks (src/rules/checks), a judge across exchanges (the identities
 * created so far), or a scenario whose outcomes judge its rule. A rule has exactly one judge; a
 * test holds every rule of the catalogue to that, so a rule cannot pass unjudged.
 */
import type { RuleId } from '../core/catalogue.ts';
import { ACROSS_EXCHANGES, CHECKED_RULES } from './rule-facts.ts';
import { SCENARIOS, scenarioRules } from './scenarios.ts';

export function judgesOf(rule: string): string[] {
  const judges: string[] = [];
  if (CHECKED_RULES.has(rule as RuleId)) judges.push('its checks');
  const across = ACROSS_EXCHANGES.get(rule as RuleId);
  if (across) judges.push(across);
  for (const scenario of SCENARIOS)
    if (scenario.judgesItsRule && scenarioRules(scenario).includes(rule as RuleId)) judges.push(`the scenario of ${scenario.rule}`);
  return judges;
}
