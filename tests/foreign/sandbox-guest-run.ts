/**
 * One in-process `conformance run` against the sandbox target, for the guest matrix
 * (sandbox-guest.test.ts): short timeouts and patience so hangs and restarts end fast, a narrow
 * rule filter, and the accounts as the sandbox holds them before and after (updated_at left out).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { orchestrateRun, type RunOutcome } from '../../src/run/orchestrate-run.ts';
import { type RunConfig, runConfig } from '../../src/run/run-config.ts';
import type { SandboxTarget } from './sandbox-target.ts';

/** Run settings fit for a matrix of many small runs. */
export function guestConfig(t: SandboxTarget, overrides: Partial<RunConfig> = {}): RunConfig {
  return runConfig({
    seed: 3,
    profile: 'custom',
    runs: 2,
    baseUrl: t.baseUrl,
    auth: { kind: 'static', token: t.token },
    fiatAccountIds: [...t.accountIds],
    reportDir: mkdtempSync(path.join(tmpdir(), 'sandbox-guest-')),
    ruleFilter: ['fa.metadata', 'fa.update-reflected'],
    timeoutMs: 4000,
    restorePatienceMs: 8000,
    // One case at a time: the sandbox then counts the same requests in the same order on every run (sandbox-phases.ts).
    concurrency: 1,
    ...overrides,
  });
}

export interface GuestRun {
  outcome: RunOutcome;
  config: RunConfig;
}

/** Runs the harness once against `t`; a thrown error is returned as the outcome's error (as the CLI would exit with it). */
export async function runGuest(t: SandboxTarget, overrides: Partial<RunConfig> = {}, signal?: AbortSignal): Promise<GuestRun> {
  const config = guestConfig(t, overrides);
  const outcome = await orchestrateRun(config, { reports: true, ...(signal ? { signal } : {}) });
  return { outcome, config };
}
