/** The random cases of every family, the families taken in turn. */
import { inTurn } from '../pipeline.ts';
import { randomCasesOf } from '../planned-case.ts';
import type { Phase } from './phase.ts';
import { sendPlanned } from './planned-cases.ts';

export const randomCases: Phase = {
  name: 'random-cases',
  run: (context) => sendPlanned(context, inTurn(context.families.map((family) => randomCasesOf(family, context.settings.seed, context.runsOf(family))))),
};
