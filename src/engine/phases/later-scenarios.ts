/**
 * The scenarios that come back later in the run (rules/scenarios.ts LaterPart: the ref_id repeats
 * spread over the run's length): once after the random cases, once at the end, after shrinking
 * and before the restore. Their rules end at the last moment.
 */
import { getRule } from '../../core/catalogue.ts';
import { hasFamily } from '../plan.ts';
import type { RunContext } from '../run-context.ts';
import { scenarioRules, type LaterMoment } from '../../rules/scenarios.ts';
import type { Phase, PhaseName } from './phase.ts';
import { countingUnanswered, scenarioContextOf } from './scenarios.ts';

function laterScenarios(name: PhaseName, moment: LaterMoment): Phase {
  return {
    name,
    async run(context: RunContext) {
      const { ledger, selectedIds } = context;
      const unanswered = { count: 0 };
      const scenarioContext = countingUnanswered(scenarioContextOf(context), unanswered);
      for (const scenario of context.scenarios) {
        if (!scenario.later) continue;
        const rules = scenarioRules(scenario).map(getRule);
        for (const rule of rules) if (selectedIds.has(rule.id)) await ledger.begin(rule);
        unanswered.count = 0;
        for (const outcome of await scenario.later.run(scenarioContext, moment))
          ledger.record(outcome.rule ?? scenario.rule, outcome.problems, outcome.exchange);
        // Its later requests that got no answer go into its rules' shortfall lines, as its first part's do.
        for (const rule of rules) {
          const tally = unanswered.count ? ledger.tally(rule.id) : undefined;
          if (tally) tally.unanswered = (tally.unanswered ?? 0) + unanswered.count;
        }
        await ledger.announceFailing();
        if (moment === 'at-end') for (const rule of rules) if (selectedIds.has(rule.id) && !hasFamily(rule.id)) await ledger.finish(rule);
      }
    },
  };
}

export const scenariosAfterRandomCases = laterScenarios('scenarios-after-random-cases', 'after-random-cases');
export const scenariosAtEnd = laterScenarios('scenarios-at-end', 'at-end');
