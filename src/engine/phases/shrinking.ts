/**
 * Shrinks what random cases found, documented rules first (the budget goes where it counts):
 * fast-check replays the failing case from its path (not sent again: it failed) and tries
 * smaller ones against the live target, within the shrink budget (shrink-budget.ts). The
 * smallest failing exchange of each distinct problem goes in front of the rule's evidence, the
 * smallest first (a shrink that met another problem on its way loses none).
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
  // Per distinct problem (its kind and field), the last candidate that showed it: shrinking goes smaller, so its smallest.
  const smallest = new Map<string, { problem: Problem; exchange: Exchange }>();
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
    for (const problem of focusProblems) smallest.set(`${problem.kind ?? ''} ${problem.instancePath ?? ''}`, { problem, exchange });
    return false;
  };
  const parameters = { ...propertyParameters(family, context.settings.seed, context.runsOf(family)), path: String(from.index) };
  const details = await fc.check(fc.asyncProperty(family.arbitrary, predicate), parameters);
  // A target that died mid-shrink, or an interruption: fast-check reports the throw as a failure.
  if (details.errorInstance instanceof RunStop) throw details.errorInstance;
  // Each goes in front, the largest first, so the smallest ends up first; the path replays fast-check's last counterexample.
  const last = [...smallest.values()].at(-1)?.exchange;
  const bySize = [...smallest.values()].sort((a, b) => sizeOf(a.exchange) - sizeOf(b.exchange));
  for (const { problem, exchange } of bySize.reverse()) {
    const path = exchange === last ? (details.counterexamplePath ?? undefined) : undefined;
    context.ledger.keepFindings(focus, [problem], exchange, path, true);
  }
}

/** How large a case is, to show the simplest first: its body as sent. */
const sizeOf = (exchange: Exchange): number => JSON.stringify(exchange.testCase.body ?? '').length;
