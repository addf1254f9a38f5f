/**
 * What the harness can catch: every fault of the embedded server against the rule it breaks,
 * and every allowed reading of the document against zero failures.
 */
import { FAULTS, type FaultDefinition, type FaultName } from '../server/faults.ts';
import { READINGS, type Reading } from '../server/reading.ts';
import { runEmbedded } from './embedded-run.ts';
import { exitCodeOf, type ConformanceReport } from '../report/model.ts';
import { RULES } from '../core/catalogue.ts';

/** Convention faults fail a run only under --strict, so the matrix runs them strict. */
const conventionRules = new Set<string>(RULES.filter((r) => r.basis === 'convention').map((r) => r.id));

export interface FaultOutcome {
  fault: FaultDefinition;
  /** The fault's own rule failed. */
  detected: boolean;
  /** The fault's own rule failed and keeps the verdict from conformant (the report builder's `blocking`). */
  blocks: boolean;
  /** The exit code `conformance run` would give. */
  exitCode: number;
  /** Every rule that failed, the fault's own included. */
  failedRules: string[];
  requests: number;
}

export interface ReadingOutcome {
  reading: Reading;
  failedRules: string[];
  requests: number;
}

const failedRules = (report: ConformanceReport) => report.rules.filter((r) => r.status === 'failed').map((r) => r.id);


export async function runFault(fault: FaultDefinition, runs: number, seed: number): Promise<FaultOutcome> {
  const strict = conventionRules.has(fault.ruleId);
  const { report } = await runEmbedded({ fault: fault.name as FaultName, runs, seed, strict });
  const failed = failedRules(report);
  const own = report.rules.find((r) => r.id === fault.ruleId);
  return { fault, detected: failed.includes(fault.ruleId), blocks: own?.status === 'failed' && own.blocking, exitCode: exitCodeOf(report), failedRules: failed, requests: report.summary.requests };
}

export async function runReading(reading: Reading, runs: number, seed: number): Promise<ReadingOutcome> {
  const { report } = await runEmbedded({ reading, runs, seed, strict: true });
  return { reading, failedRules: failedRules(report), requests: report.summary.requests };
}

export { FAULTS, READINGS };
