/**
 * The one place a run is assembled from its config: target (remote, or the embedded server),
 * transport, the engine's settings, the report's facts and the run's plan. The orchestrator
 * (orchestrate-run.ts: `conformance run`, the library, the vitest suites, the in-process runs)
 * starts every run here, and replay (which re-sends cases rather than running the engine) its
 * connection, so no setting is typed twice.
 */
import { createTransport, type Transport } from '../engine/transport/transport.ts';
import { runEngine, type RunSettings } from '../engine/runner.ts';
import { abortedReport, createReportBuilder, type RunFacts } from '../report/model/report-builder.ts';
import type { ReportListener } from '../report/model/report-events.ts';
import type { ConformanceReport, ReportCredentials } from '../report/model/model.ts';
import type { AuthConfig } from '../core/auth-config.ts';
import type { Stop } from '../engine/events.ts';
import { startTarget, type Target } from './target.ts';
import type { RunConfig } from './run-config.ts';
import type { RunPlan } from '../engine/plan.ts';
import { RequestBudget } from '../engine/request-budget.ts';
import { budgetOf, runPlanOf } from './run-plan.ts';
import { openIdentityState } from './identity-state.ts';

export interface PreparedRun {
  readonly config: RunConfig;
  readonly target: Target;
  readonly transport: Transport;
  /** What the engine needs. */
  readonly settings: RunSettings;
  /** What the report says about the run. */
  readonly facts: RunFacts;
  /** The run's plan, made once: its shards' rules for the report, its requests for the planned line and the progress. */
  readonly plan: RunPlan;
  /** Every credential of the run so far (configured ones and issued tokens), for redaction. */
  secrets(): string[];
  /**
   * Proves the target answers and the credentials work: throws UnreachableError / AuthenticationError.
   * Says how long the target took to answer (the estimate of a remote run uses it).
   */
  connect(): Promise<{ roundTripMs: number }>;
  /**
   * Runs every selected rule; `listeners` get the report events (the exchanges too: none is kept
   * here, a listener that needs them collects them). Throws UnknownAccountsError / AuthenticationError.
   */
  execute(listeners?: ReportListener[]): Promise<{ report: ConformanceReport }>;
  /** The report of a run that could not start, every rule skipped (`stopped`: it was interrupted); its requests are those the target received. */
  aborted(reason: string, stopped?: Stop): ConformanceReport;
  /** Stops the embedded server, if one was started. */
  close(): Promise<void>;
}

/** How a run authenticates, as its report may say it: the kind, the token URL and scope, no secret. */
function credentialsWithoutSecrets(auth: AuthConfig): ReportCredentials {
  if (auth.kind === 'client-credentials') return { kind: auth.kind, tokenUrl: auth.tokenUrl, ...(auth.scope ? { scope: auth.scope } : {}) };
  return { kind: auth.kind };
}

/** The transport to a target with the config's limits; `signal` stops it when the user interrupts the run. */
export function targetTransport(config: RunConfig, target: Target, signal?: AbortSignal, budget?: RequestBudget): Transport {
  return createTransport({
    baseUrl: target.baseUrl,
    auth: target.auth,
    timeoutMs: config.timeoutMs,
    rateLimitPerSecond: config.rateLimitPerSecond,
    concurrency: config.concurrency,
    maxRetries: config.maxRetries,
    // The embedded server listens on this machine's loopback: no proxy can reach it.
    route: target.embedded ? 'direct' : 'environment',
    ...(signal ? { signal } : {}),
    ...(budget ? { budget } : {}),
  });
}

/**
 * `signal`: aborted (with the signal's name as reason) when the user interrupts the run; the
 * transport stops sending and the engine ends with what it judged.
 */
export async function prepareRun(
  config: RunConfig,
  options: { signal?: AbortSignal; journalFile?: string; note?: (line: string) => void } = {},
): Promise<PreparedRun> {
  // A run that cannot start still lasted from here to its abort: its report says how long.
  const startedAt = Date.now();
  const target = await startTarget(config);
  const closeOnError = async (error: unknown): Promise<never> => {
    await target.close();
    throw error;
  };
  // --state: what earlier runs of this API user left on this target (a malformed file is a usage error before any request).
  const state = config.stateFile ? await openIdentityState(config.stateFile, target.baseUrl, target.auth, options.note).catch(closeOnError) : undefined;
  // Under --max-requests the plan is fitted before anything is sent, and the transport refuses what would overrun it.
  const plan = await runPlanOf(config, target.fiatAccountIds.length, state?.memory.earlier.length).catch(closeOnError);
  const budget = budgetOf(config, target.fiatAccountIds.length);
  const transport = targetTransport(config, target, options.signal, budget && new RequestBudget(budget.maxRequests, budget.reserved));
  // The engine reads the config as it is (its options keep their names: RunConfig extends
  // EngineOptions), with what only this run knows: the target's accounts and URL, the plan, an interrupt.
  const settings: RunSettings = {
    ...config,
    fiatAccountIds: target.fiatAccountIds,
    baseUrl: target.baseUrl,
    plan,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.journalFile ? { journalFile: options.journalFile } : {}),
    ...(state ? { identityMemory: state.memory } : {}),
  };
  // The report's facts likewise: the options as resolved (the credentials left out), and what the target is.
  const { auth: _credentials, ...resolved } = config;
  const facts: RunFacts = {
    ...resolved,
    baseUrl: target.baseUrl,
    fiatAccountIds: target.fiatAccountIds,
    embedded: target.embedded,
    reading: target.reading,
    credentials: credentialsWithoutSecrets(target.auth),
  };
  return {
    config,
    target,
    transport,
    settings,
    facts,
    plan,
    secrets: () => [...target.secrets, ...transport.secrets()],
    async connect() {
      const { roundTripMs } = await transport.checkReachable();
      await transport.authenticate();
      return { roundTripMs };
    },
    async execute(listeners = []) {
      const builder = createReportBuilder(facts, listeners, plan);
      await runEngine(transport, settings, [builder.listener]);
      // A state file that cannot be written loses this run's memory, not its verdict.
      if (state)
        await state
          .save([...target.secrets, ...transport.secrets()])
          .then((line) => options.note?.(line))
          .catch((error: Error) =>
            options.note?.(`state: ${config.stateFile} could not be written (${error.message}): the next run will not repeat this run's ref_ids`),
          );
      return { report: builder.report() };
    },
    aborted: (reason, stopped) => abortedReport(facts, reason, stopped, transport.requestCount, startedAt),
    close: () => target.close(),
  };
}
