/** A phase of a run: one step of the runner's list, a function of the run context. */
import type { PhaseName } from '../events.ts';
import type { RunContext } from '../run-context.ts';

export type { PhaseName };

export interface Phase {
  name: PhaseName;
  run(context: RunContext): Promise<void>;
}
