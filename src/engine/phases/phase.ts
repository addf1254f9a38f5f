/** A phase of a run: one step of the runner's list, a function of the run context. */
import type { RunContext } from '../run-context.ts';

export type PhaseName = 'probe' | 'fixed-cases' | 'scenarios' | 'random-cases' | 'shrinking';

export interface Phase {
  name: PhaseName;
  run(context: RunContext): Promise<void>;
}
