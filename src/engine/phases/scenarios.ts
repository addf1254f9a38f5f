/** The stateful scenarios (rules/scenarios.ts): rules that one exchange cannot show. */
import { getRule, type RuleId } from '../../core/catalogue.ts';
import { concurrentDuplicates, hasFamily } from '../plan.ts';
import type { RunContext } from '../run-context.ts';
import { scenarioRules, type Scenario, type ScenarioContext } from '../../rules/scenarios.ts';
import type { Phase } from './phase.ts';
import { abortableWait } from '../../core/abortable-wait.ts';
import type { Exchange } from '../../core/exchange.ts';

export const scenarios: Phase = {
  name: 'scenarios',
  async run(context) {
    const { ledger, selectedIds } = context;
    const unanswered = { count: 0 };
    const scenarioContext = countingUnanswered(scenarioContextOf(context), unanswered);
    // A rule two scenarios judge (the open space's repeats judge a ref_id rule too) ends after the last of them.
    const lastOf = new Map<string, Scenario>(context.scenarios.flatMap((s) => scenarioRules(s).map((r) => [r, s] as const)));
    const endsLater = new Set<string>(context.scenarios.filter((s) => s.later).flatMap(scenarioRules));
    for (const scenario of context.scenarios) {
      const rules = scenarioRules(scenario).map(getRule);
      for (const rule of rules) if (selectedIds.has(rule.id)) await ledger.begin(rule);
      unanswered.count = 0;
      const { outcomes, notJudged, notJudgedRules, remedy, ruledOutBy, notes, remedies } = await scenario.run(scenarioContext);
      for (const outcome of outcomes) ledger.record(outcome.rule ?? scenario.rule, outcome.problems, outcome.exchange);
      await ledger.announceFailing();
      for (const rule of rules) {
        const tally = ledger.tally(rule.id);
        // The scenario's word on the whole (one account only) comes before its word per rule.
        const whole = notJudged !== undefined && (!notJudgedRules || notJudgedRules.includes(rule.id as RuleId));
        const note = whole ? notJudged : notes?.[rule.id as RuleId];
        const fix = whole ? remedy : remedies?.[rule.id as RuleId];
        if (tally && unanswered.count) tally.unanswered = (tally.unanswered ?? 0) + unanswered.count;
        if (tally && note) {
          tally.scenarioNote = note;
          if (fix) tally.scenarioRemedy = fix;
          if (whole && remedy && ruledOutBy) tally.ruledOutBy = { setting: ruledOutBy, fix: remedy };
        }
        // A rule ends after the last scenario that judges it, or later still when one of them comes
        // back later in the run (phases/later-scenarios.ts ends it there).
        if (selectedIds.has(rule.id) && !hasFamily(rule.id) && lastOf.get(rule.id) === scenario && !endsLater.has(rule.id)) await ledger.finish(rule);
      }
    }
  },
};

/** The scenario context, counting the requests of the scenario that got no answer (for its rules' shortfall lines). */
export function countingUnanswered(scenarioContext: ScenarioContext, unanswered: { count: number }): ScenarioContext {
  const count = (e: Exchange) => {
    if (!e.response) unanswered.count++;
    return e;
  };
  return {
    ...scenarioContext,
    exercise: async (c) => count(await scenarioContext.exercise(c)),
    sendTogether: async (cases) => (await scenarioContext.sendTogether(cases)).map(count),
  };
}

/** What a scenario may do: its cases are fixed cases, and it chooses their ref_ids (no fresh one is stamped over them). */
export function scenarioContextOf(context: RunContext): ScenarioContext {
  const { pool, refIds, metadata } = context;
  return {
    exercise: async (c) => (await context.exercise(pool.assign(c))).exchange,
    sendTogether: async (cases) => {
      context.control.checkGoOn();
      const sent = await context.transport.sendTogether(cases);
      for (const exchange of sent) await context.judge.judge(exchange);
      return sent;
    },
    freshRefId: () => refIds.next(),
    stamp: (c, refId) => refIds.stamp(c, refId),
    concurrentDuplicates: concurrentDuplicates(context.settings.concurrency),
    fiatAccountIds: pool.ids,
    created: context.created,
    pick: (items) => context.pick(items),
    seed: context.settings.seed,
    runs: context.settings.runs,
    metadataSemantics: () => metadata.semantics,
    ...(context.transport.renewToken ? { renewToken: () => context.transport.renewToken!() } : {}),
    openSpace: {
      accepted: () => context.openPoints.acceptedValues(),
      tried: (operation, field) => context.openPoints.tried(operation, field),
      judged: context.combinations,
    },
    fitMetadata: (c) => (c.fiatAccountId ? metadata.fitToAccount(c, c.fiatAccountId) : c),
    ...(context.settings.plan.budget ? { shrinkRequests: context.settings.plan.budget.shrinkAtMost } : {}),
    ...(context.settings.lifetimeMs ? { lifetimeMs: context.settings.lifetimeMs } : {}),
    ...(context.settings.identityMemory ? { memory: context.settings.identityMemory } : {}),
    wait: (ms) => abortableWait(ms, context.settings.signal),
    carried: context.scenarioCarry,
    now: () => Date.now(),
  };
}
