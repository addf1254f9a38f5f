/**
 * What the harness can catch: every fault of the embedded server against the rule it breaks,
 * and every allowed reading of the document against zero failures, on the plain server and on
 * its strict variant (the open points restricted, as a correct server may).
 */
import { FAULTS, type FaultDefinition, type FaultName } from '../server/faults.ts';
import { READINGS, type Reading } from '../server/reading.ts';
import { runEmbedded } from './embedded-run.ts';
import { exitCodeOf, type ConformanceReport } from '../report/model/model.ts';
import { RULES, type RuleId } from '../core/catalogue.ts';
import { EXIT } from '../core/errors.ts';

/** Convention faults fail a run only under --strict, so the matrix runs them strict. */
const conventionRules = new Set<string>(RULES.filter((r) => r.basis === 'convention').map((r) => r.id));

/** The embedded server as the document reads, or its strict variant. */
export type ServerVariant = 'plain' | 'strict';

export const SERVER_VARIANTS: readonly ServerVariant[] = ['plain', 'strict'];

export interface FaultOutcome {
  fault: FaultDefinition;
  server: ServerVariant;
  /**
   * The server never reaches the defect (FaultDefinition.hiddenByStrict): no run was made, and
   * nothing counts as missed.
   */
  hidden?: string;
  /** The fault's own rule ended as the fault expects (failed, or inconclusive), or the run stopped when it should. */
  detected: boolean;
  /** Detected, and the run cannot pass as conformant: the expected exit code, the rule blocking the verdict. */
  blocks: boolean;
  /** Rules that failed though the fault does not break them (not its rule, nor one of its `alsoFails`). */
  wrongBlame: string[];
  /** The exit code `conformance run` would give. */
  exitCode: number;
  /** Every rule that failed, the fault's own included. */
  failedRules: string[];
  /** The fault's own rule's status, and its reason when it has one. */
  status?: string;
  reason?: string;
  requests: number;
  /** Requests sent when the fault's rule first saw a problem (failed faults). */
  firstDetectionAt?: number;
}

export interface ReadingOutcome {
  reading: Reading;
  server: ServerVariant;
  failedRules: string[];
  /** The verdict: a faithful server must earn "conformant" (not only avoid failures). */
  verdict: string;
  requests: number;
}

/** What the self-test asks of an outcome: a fault caught and blamed right (or hidden), a faithful server with no failure. */
export function faultCaught(o: FaultOutcome): boolean {
  return o.hidden !== undefined || (o.blocks && !o.wrongBlame.length);
}

export function readingClean(o: ReadingOutcome): boolean {
  return o.failedRules.length === 0 && o.verdict === 'conformant';
}

/**
 * The restore's patience for a run under `fault`: none when the fault kills the embedded server,
 * which never comes back (waiting the default 60 s for it proves nothing and made each such run
 * last 48 s); the default otherwise.
 */
export function restorePatienceUnder(fault: FaultDefinition): { restorePatienceMs?: number } {
  return fault.expect === 'unreachable' ? { restorePatienceMs: 0 } : {};
}

/**
 * The rules a run under `fault` fails, sorted: its own rule (unless the fault leaves it
 * inconclusive) and the second root causes it names (FaultDefinition.alsoFails).
 */
export function rulesFailedUnder(fault: FaultDefinition): string[] {
  return [...new Set([...((fault.expect ?? 'failed') === 'inconclusive' ? [] : [fault.ruleId]), ...(fault.alsoFails ?? [])])].sort();
}

/** The failed rules the fault does not break: neither its rule nor one it names in `alsoFails`. */
export function wronglyBlamed(fault: FaultDefinition, failed: readonly string[]): string[] {
  return failed.filter((r) => r !== fault.ruleId && !fault.alsoFails?.includes(r as RuleId));
}

const failedRules = (report: ConformanceReport) => report.rules.filter((r) => r.status === 'failed').map((r) => r.id);

/** What each expectation asks of the run (docs/design.md section 5.3, exit codes). */
function judgeFault(fault: FaultDefinition, report: ConformanceReport): Pick<FaultOutcome, 'detected' | 'blocks'> {
  const own = report.rules.find((r) => r.id === fault.ruleId);
  const exitCode = exitCodeOf(report);
  switch (fault.expect ?? 'failed') {
    case 'failed':
      return { detected: own?.status === 'failed', blocks: own?.status === 'failed' && own.blocking && exitCode === EXIT.nonConformant };
    case 'inconclusive':
      return { detected: own?.status === 'inconclusive', blocks: own?.status === 'inconclusive' && own.blocking && exitCode !== EXIT.conformant };
    case 'unreachable':
      return { detected: report.stopped !== undefined, blocks: report.stopped !== undefined && exitCode === EXIT.unreachable };
  }
}

export async function runFault(fault: FaultDefinition, runs: number, seed: number, server: ServerVariant = 'plain'): Promise<FaultOutcome> {
  if (server === 'strict' && fault.hiddenByStrict) {
    return {
      fault,
      server,
      hidden: fault.hiddenByStrict,
      detected: false,
      blocks: false,
      wrongBlame: [],
      exitCode: EXIT.conformant,
      failedRules: [],
      requests: 0,
    };
  }
  const strict = conventionRules.has(fault.ruleId);
  let firstDetectionAt: number | undefined;
  const { report } = await runEmbedded({
    fault: fault.name as FaultName,
    runs,
    seed,
    strict,
    strictServer: server === 'strict',
    ...restorePatienceUnder(fault),
    listeners: [
      (event) => {
        if (event.type === 'rule-end' && event.rule.id === fault.ruleId) firstDetectionAt = event.firstFailureAtRequest;
      },
    ],
  });
  const failed = failedRules(report);
  const own = report.rules.find((r) => r.id === fault.ruleId);
  return {
    fault,
    server,
    ...judgeFault(fault, report),
    wrongBlame: wronglyBlamed(fault, failed),
    exitCode: exitCodeOf(report),
    failedRules: failed,
    ...(own ? { status: own.status, ...(own.reason ? { reason: own.reason } : {}) } : {}),
    requests: report.summary.requests,
    ...(firstDetectionAt !== undefined ? { firstDetectionAt } : {}),
  };
}

export async function runReading(reading: Reading, runs: number, seed: number, server: ServerVariant = 'plain'): Promise<ReadingOutcome> {
  const { report } = await runEmbedded({ reading, runs, seed, strict: true, strictServer: server === 'strict' });
  return { reading, server, failedRules: failedRules(report), verdict: report.summary.verdict, requests: report.summary.requests };
}

export { FAULTS, READINGS };
