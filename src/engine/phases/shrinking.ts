/**
 * Shrinks what random cases found, documented rules first (the budget goes where it counts):
 * fast-check replays the failing case from its path (not sent again: it failed) and tries
 * smaller ones against the live target, within the shrink budget (shrink-budget.ts). The
 * smallest failing exchange goes in front of the rule's evidence.
 */
import fc from 'fast-check';
import type { RuleId } from '../../core/catalogue.ts';
import type { TestCase } from '../../core/case.ts';
import type { Exchange } from '../../core/exchange.ts';
import type { Problem } from '../../rules/check.ts';
import { propertyParameters } from '../generated-cases.ts';
import type { PlannedCase } from '../planned-case.ts';
import type { RunContext } from '../run-context.ts';
import { RunStop } from '../run-stop.ts';
import type { Phase } from './phase.ts';

export const shrinking: Phase = {
  name: 'shrinking',
  async run(context) {
    context.control.checkGoOn();
    // Under --max-requests, shrinking spends at most what the phases before it left.
    if (context.transport.budget) context.shrinkBudget.capRun(context.transport.budget.left);
    const order = [...context.selected].sort((a, b) => Number(b.basis === 'documented') - Number(a.basis === 'documented'));
    for (const rule of order) {
      const from = context.shrinkFrom.get(rule.id as RuleId);
      if (!from) continue;
      await context.ledger.begin(rule);
      await shrink(context, rule.id as RuleId, from);
    }
  },
};

async function shrink(context: RunContext, focus: RuleId, from: PlannedCase): Promise<void> {
  const { family } = from;
  if (!family.arbitrary || !context.shrinkBudget.mayStart(focus)) return;
  const allowance = context.shrinkBudget.forFailure(focus);
  let replayed = false;
  let smallest: { problems: Problem[]; exchange: Exchange } | undefined;
  const predicate = async (raw: TestCase): Promise<boolean> => {
    context.control.checkGoOn();
    if (!replayed) {
      replayed = true;
      return false;
    }
    // Past the budget a candidate is not sent: fast-check sees it pass and ends the shrink.
    if (!allowance.take()) return true;
    const { exchange, focusProblems } = await context.exercise(context.prepare(raw), { focus, random: true });
    if (!focusProblems?.length) return true;
    smallest = { problems: focusProblems, exchange };
    return false;
  };
  const parameters = { ...propertyParameters(family, context.settings.seed, context.runsOf(family)), path: String(from.index) };
  const details = await fc.check(fc.asyncProperty(family.arbitrary, predicate), parameters);
  // A target that died mid-shrink, or an interruption: fast-check reports the throw as a failure.
  if (details.errorInstance instanceof RunStop) throw details.errorInstance;
  if (smallest) context.ledger.keepFindings(focus, smallest.problems, smallest.exchange, details.counterexamplePath ?? undefined, true);
}
