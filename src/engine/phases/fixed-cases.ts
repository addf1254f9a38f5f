/** Every family's fixed boundary cases, the families taken in turn: the cases most likely to find a defect go first. */
import { fromArray, inTurn } from '../pipeline.ts';
import { examplesOf } from '../planned-case.ts';
import type { Phase } from './phase.ts';
import { sendPlanned } from './planned-cases.ts';

export const fixedCases: Phase = {
  name: 'fixed-cases',
  run: (context) => {
    // Under --max-requests a family may send only its first examples (budget-fit.ts).
    const kept = context.settings.plan.budget?.examples;
    return sendPlanned(context, inTurn(context.families.map((family) => fromArray(examplesOf(family).slice(0, kept?.get(family.rule))))));
  },
};
