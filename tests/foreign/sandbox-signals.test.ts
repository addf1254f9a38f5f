/**
 * Signals at each phase of a guest run (issue 29): the built CLI in a child process against the
 * sandbox target, SIGINT sent when the sandbox receives the phase's request (the answer held a
 * little: a slow target). A first SIGINT: the run restores and exits 130 with the accounts as
 * found. A second one during the restore: exit 130 at once, the journal on disk, and
 * `conformance restore <journal>` puts the accounts back. Needs `npm run build` (bin runs dist).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Child, start as startChild } from '../hostile/child.ts';
import { runGuest } from './sandbox-guest-run.ts';
import { type Phase, type PhaseRequest, atPhase, phasesOf } from './sandbox-phases.ts';
import { type SandboxRequest, type SandboxTarget, startSandboxTarget } from './sandbox-target.ts';
import { changedFields, contents } from './sandbox-verdict.ts';

/** A sandbox for one test, closed when that test ends (the tests run side by side: no shared afterEach). */
async function withSandbox(test: (t: SandboxTarget) => Promise<void>): Promise<void> {
  const t = await startSandboxTarget({ blanks: 'strict' });
  try {
    await test(t);
  } finally {
    await t.close();
  }
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The same run as sandbox-guest-run.ts's guestConfig, as CLI flags. */
function runArgs(t: SandboxTarget, reportDir: string): string[] {
  const args = ['run', '--base-url', t.baseUrl, '--token', t.token, '--report-dir', reportDir, '--seed', '3', '--runs', '2'];
  args.push('--rule', 'fa.metadata', '--rule', 'fa.update-reflected', '--timeout', '1500', '--restore-patience', '3', '--concurrency', '1');
  for (const id of t.accountIds) args.push('--fiat-account-id', id);
  return args;
}

/**
 * Sends SIGINT to the child when a request `match` accepts arrives (the nth time it does, once each
 * for `times`), holding that answer `holdMs`: the run then sees the interrupt while the request is
 * in flight. Returns how many signals were sent.
 */
function interruptOn(t: SandboxTarget, child: () => Child | undefined, match: (r: SandboxRequest, sent: number) => boolean, holdMs = 300) {
  let sent = 0;
  const holds: Promise<unknown>[] = [];
  t.onRequest(async (r) => {
    if (!match(r, sent)) return;
    sent++;
    child()?.kill('SIGINT');
    const hold = sleep(holdMs);
    holds.push(hold);
    await hold;
  });
  /**
   * Resolves once every held request has been let through and answered: the sandbox applies a
   * request in the same turn as its last listener returns, so one setImmediate later it is done.
   */
  const released = async () => {
    await Promise.all(holds);
    await new Promise((resolve) => setImmediate(resolve));
  };
  return Object.assign(() => sent, { released });
}

let phases: Record<Phase, PhaseRequest>;
beforeAll(async () => {
  const t = await startSandboxTarget({ blanks: 'strict' });
  try {
    const { config } = await runGuest(t);
    phases = phasesOf(config.reportDir, t.accountIds[0]);
  } finally {
    await t.close();
  }
});

describe.concurrent('a first SIGINT: the run restores, exits 130, the accounts as found', () => {
  const midRun: PhaseRequest = { method: 'PUT', nth: 4 };
  for (const [name, at] of [
    ['the start read', () => phases['start-read']],
    ['mid-run (the fourth write)', () => midRun],
    ['the end read', () => phases['end-read']],
    ['the write-back', () => phases['write-back']],
  ] as const)
    it(`SIGINT at ${name}`, () =>
      withSandbox(async (t) => {
        const before = contents(t);
        let child: Child | undefined;
        const match = atPhase(t.accountIds[0], at());
        const sent = interruptOn(
          t,
          () => child,
          (r, n) => n === 0 && match(r),
        );
        const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-signals-'));
        child = startChild(runArgs(t, dir));
        const { code } = await child.exited;
        expect(sent()).toBe(1);
        expect(contents(t)).toEqual(before);
        // Also once every case was sent (the restore is running): the run was interrupted.
        expect(code).toBe(130);
        const report = JSON.parse(readFileSync(path.join(dir, 'conformance.json'), 'utf8'));
        for (const a of report.restore.accounts) expect(['restored', 'unchanged', 'left-alone']).toContain(a.outcome);
      }));
});

describe('a first SIGINT during the restore (every case already sent)', () => {
  // The restore finishes (the accounts go back), and the run is reported interrupted.
  for (const phase of ['end-read', 'write-back'] as const)
    it(`SIGINT at the ${phase}: exit 130 and the report says interrupted`, () =>
      withSandbox(async (t) => {
        let child: Child | undefined;
        const match = atPhase(t.accountIds[0], phases[phase]);
        interruptOn(
          t,
          () => child,
          (r, n) => n === 0 && match(r),
        );
        const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-signals-'));
        child = startChild(runArgs(t, dir));
        const { code } = await child.exited;
        const report = JSON.parse(readFileSync(path.join(dir, 'conformance.json'), 'utf8'));
        expect(report.stopped?.kind).toBe('interrupted');
        expect(code).toBe(130);
      }));
});

describe('a second SIGINT during the restore', () => {
  it('exits 130 at once with the journal on disk; conformance restore puts the accounts back', () =>
    withSandbox(async (t) => {
      const before = contents(t);
      const [a] = t.accountIds;
      let child: Child | undefined;
      let ended = false;
      // First SIGINT mid-run; the second when the first write-back (a PUT after the end read) arrives, held long (a slow target).
      const sent = interruptOn(
        t,
        () => child,
        (r, n) => {
          if (n === 0) return r.accountId === a && r.method === 'PUT' && r.nth === 4;
          if (r.accountId === a && r.method === 'GET') ended = true;
          return n === 1 && ended && r.accountId === a && r.method === 'PUT';
        },
        2000,
      );
      const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-signals-'));
      child = startChild(runArgs(t, dir));
      const { code } = await child.exited;
      expect(sent()).toBe(2);
      expect(code).toBe(130);
      const journal = path.join(dir, 'restore-journal.json');
      expect(JSON.parse(readFileSync(journal, 'utf8')).accounts.map((e: { id: string }) => e.id)).toEqual(t.accountIds);
      // The run changed the accounts and was stopped before it could put them back.
      expect(before.some((was, i) => changedFields(was, contents(t)[i]).length > 0)).toBe(true);
      await sent.released(); // the held write-back lands (a slow target finishes what it received)
      const repair = startChild(['restore', journal, '--base-url', t.baseUrl, '--token', t.token]);
      const repaired = await repair.exited;
      expect(repaired.code, repaired.stdout + repaired.stderr).toBe(0);
      expect(contents(t)).toEqual(before);
      // Safe to run twice.
      const again = await startChild(['restore', journal, '--base-url', t.baseUrl, '--token', t.token]).exited;
      expect(again.code).toBe(0);
      expect(contents(t)).toEqual(before);
    }));
});
