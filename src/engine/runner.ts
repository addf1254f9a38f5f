/**
 * The runner: a run is a list of phases, each a function of one run context (run-context.ts).
 * It reads the target's state, then sends the fixed cases of every family, the stateful
 * scenarios and the random cases, many at once but judged in a fixed order (pipeline.ts), so a
 * seed gives the same cases and the same verdict at any concurrency; then it shrinks what random
 * cases found. Some scenarios come back after the random cases and at the end (their repeats
 * spread over the run). It emits events; src/report folds them into the verdict and the reports.
 */
import type { RunEvent, RunListener } from './events.ts';
import type { Transport } from './transport/transport.ts';
import { createRunContext } from './run-context.ts';
import { RunInterrupted, RunStop } from './run-stop.ts';
import type { RunSettings } from './run-settings.ts';
import type { Phase } from './phases/phase.ts';
import { probe } from './phases/probe.ts';
import { fixedCases } from './phases/fixed-cases.ts';
import { scenarios } from './phases/scenarios.ts';
import { randomCases } from './phases/random-cases.ts';
import { shrinking } from './phases/shrinking.ts';
import { scenariosAfterRandomCases, scenariosAtEnd } from './phases/later-scenarios.ts';
import { RESTORE_OFF } from './restore/restore-summary.ts';

export type { RunSettings } from './run-settings.ts';

/** Everything a run found: the payload of its run-end event. */
export type EngineResult = Omit<Extract<RunEvent, { type: 'run-end' }>, 'type'>;

/** The phases of a run, in order: the cases most likely to find a defect go first. */
export const PHASES: readonly Phase[] = [probe, fixedCases, scenarios, randomCases, scenariosAfterRandomCases, shrinking, scenariosAtEnd];

export async function runEngine(transport: Transport, settings: RunSettings, listeners: RunListener[] = []): Promise<EngineResult> {
  const started = Date.now();
  const context = createRunContext(transport, settings, listeners);
  const { ledger, selected } = context;
  await context.emit({ type: 'run-start', rules: selected, fiatAccountIds: settings.fiatAccountIds });
  try {
    // Before anything could change the pool accounts: what they hold, to put back at the end.
    await context.restore?.readStart();
    // An account without a journal entry is left alone: no case goes to it. A merging account's keys are known before its first write.
    if (context.restore) {
      context.pool.keepOnly(context.restore.journaled());
      for (const id of context.restore.journaled()) context.metadata.heldAtStart(id, context.restore.metadataKeysAtStart(id));
    }
    for (const phase of PHASES) {
      await context.emit({ type: 'phase-start', phase: phase.name });
      await phase.run(context);
      await context.emit({ type: 'phase-end', phase: phase.name });
    }
    for (const rule of selected) await ledger.finish(rule);
  } catch (error) {
    if (!(error instanceof RunStop)) {
      // A run that cannot go on (unknown accounts, a bug) still puts back what it changed.
      await context.restore?.finish().catch(() => undefined);
      throw error;
    }
    context.control.stopped(error, transport.requestCount, ledger.currentRule?.id);
    if (ledger.currentRule) await ledger.finish(ledger.currentRule);
  }
  // However the run ended (an interrupt, a lost target that answers again): the accounts go back.
  const restore = context.restore ? await context.restore.finish() : RESTORE_OFF;
  // A signal during the restore, after every case was sent, interrupted the run all the same.
  if (!context.control.stopReport && settings.signal?.aborted)
    context.control.stopped(new RunInterrupted(String(settings.signal.reason ?? 'a signal')), transport.requestCount, undefined);
  // --state: this run's identities join the API user's memory (however the run ended: they exist).
  settings.identityMemory?.keep(context.created.list());
  const stopped = context.control.stopReport;
  const result: EngineResult = {
    outcomes: selected.map((rule) => ledger.outcomeOf(rule)),
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    requests: transport.requestCount,
    undocumentedFields: context.undocumented.list(),
    transport: context.answers.get(),
    shrinking: context.shrinkBudget.summary(),
    ...(transport.budget ? { budget: transport.budget.summary(settings.plan.budget?.planned ?? 0, settings.plan.budget?.trimmed ?? []) } : {}),
    ...(stopped ? { stopped } : {}),
    observedContract: context.openPoints.contract(),
    ...(context.combinations.coverage() ? { openSpace: context.combinations.coverage() } : {}),
    restore,
    createdIdentities: context.identities.list(),
  };
  await context.emit({ type: 'run-end', ...result });
  return result;
}
