/**
 * The random cases of every family, the families taken in turn. Their open values keep mostly
 * inside the limits the fixed cases showed (open-point-book.ts), so a strict target still answers
 * enough of them for the rules that judge accepted answers.
 */
import { inTurn } from '../pipeline.ts';
import { randomCasesOf } from '../planned-case.ts';
import type { Phase } from './phase.ts';
import { sendPlanned } from './planned-cases.ts';

export const randomCases: Phase = {
  name: 'random-cases',
  async run(context) {
    context.openPoints.keepInsideFromNow();
    try {
      await sendPlanned(context, inTurn(context.families.map((family) => randomCasesOf(family, context.settings.seed, context.runsOf(family)))));
    } finally {
      context.openPoints.stopKeepingInside();
    }
  },
};
