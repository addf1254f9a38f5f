/**
 * One harness run against a fresh embedded server (plain or strict) with a given reading or fault, in process:
 * what the self-test, the fault-matrix tests and the benchmark are made of.
 */
import { FAULTS, type FaultName } from '../server/faults.ts';
import type { Reading } from '../server/reading.ts';
import type { ReportListener } from '../report/model/report-events.ts';
import { runConfig } from './run-config.ts';
import { runOnce } from './orchestrate-run.ts';

export interface EmbeddedRunOptions {
  fault?: FaultName;
  reading?: Partial<Reading>;
  /** The strict variant of the server (open points restricted). */
  strictServer?: boolean;
  runs: number;
  seed: number;
  strict?: boolean;
  ruleFilter?: string[];
  listeners?: ReportListener[];
  /** How long the restore waits for a target that is away, ms (--restore-patience). */
  restorePatienceMs?: number;
}

export function runEmbedded(options: EmbeddedRunOptions) {
  // A fault that shows only after a while is run with the setting it names (faults.ts runSettings).
  const lifetimeMs = FAULTS.find((f) => f.name === options.fault)?.runSettings?.lifetimeMs;
  const config = runConfig({
    seed: options.seed,
    profile: 'custom',
    runs: options.runs,
    strict: options.strict ?? false,
    ruleFilter: options.ruleFilter ?? [],
    reading: options.reading ?? {},
    ...(options.fault ? { fault: options.fault } : {}),
    ...(options.strictServer ? { strictServer: true } : {}),
    ...(options.restorePatienceMs !== undefined ? { restorePatienceMs: options.restorePatienceMs } : {}),
    ...(lifetimeMs ? { lifetimeMs } : {}),
  });
  return runOnce(config, options.listeners);
}
