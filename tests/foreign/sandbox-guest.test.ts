/**
 * The harness as a guest of a sandbox, combination by combination (issue 29, "What it must show"):
 * the sandbox target's behaviours (placement, integer metadata, full-replace PUT, merge with
 * pre-existing keys and each way of deleting a key, 6 pairs, a masked account number, a review
 * that moves the status, no GET) and faults on each phase of the restore (500, 429, hang, reset,
 * a restart), each run in-process. For each, the accounts after the run are stated: equal to
 * before (updated_at left out), or each changed field named in `restore.accounts[].notRestored`
 * with its reason, and exit 5. Each test has its own sandbox, so they run side by side. Signals at each phase are in sandbox-signals.test.ts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGuest } from './sandbox-guest-run.ts';
import { PHASES, type Phase, type PhaseRequest, atPhase, phasesOf } from './sandbox-phases.ts';
import { type SandboxFault, type SandboxOptions, type SandboxRequest, type SandboxTarget, startSandboxTarget } from './sandbox-target.ts';
import { contents, expectAsFound, expectAsFoundOrNamed } from './sandbox-verdict.ts';

/**
 * Every sandbox the file started, closed when the file ends: the tests run side by side, and a
 * hook registered from inside one (onTestFinished outside a test's own context) may fire for
 * another, closing a sandbox under a run that is still going.
 */
const started = new Set<SandboxTarget>();
/**
 * A sandbox that stores empty strings as sent, unless a test asks for the vendor's "empty strings
 * are ignored" (then an address line the run filled can never be "" again: its own case below).
 */
const start = async (options: SandboxOptions = {}) => {
  const target = await startSandboxTarget({ blanks: 'strict', ...options });
  started.add(target);
  return target;
};
afterAll(async () => {
  await Promise.all([...started].map((t) => t.close()));
});

const pairs = (n: number, prefix = 'held') => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i + 1}`, `v${i + 1}`]));
const seeds = (metadata: Record<string, string | number>) => [{ metadata }, { metadata: { ...metadata } }];
/** The first PUT or GET of each account is a GET: no account is "read" with a write. */
const firstRequestsAreGets = (t: SandboxTarget) => t.accountIds.map((id) => t.log.find((e) => e.accountId === id)?.method).every((m) => m === 'GET');

describe.concurrent('behaviours of real sandboxes: the accounts after the run', () => {
  it('sample placement with integer metadata (client and instructions): as found, the integers journaled as integers', async () => {
    const t = await start({ integerMetadata: true, integerClientValue: true });
    const before = contents(t);
    const { outcome, config } = await runGuest(t);
    expectAsFound(t, before, outcome);
    expect(firstRequestsAreGets(t)).toBe(true);
    const journal = readFileSync(path.join(config.reportDir, 'restore-journal.json'), 'utf8');
    expect(journal).toContain('"priority": 3');
    expect(journal).toContain('"attempt": 1');
  });

  it('top placement (status and instructions at the top level): as found', async () => {
    const t = await start({ placement: 'top' });
    const before = contents(t);
    const { outcome } = await runGuest(t);
    expectAsFound(t, before, outcome);
  });

  it('a PUT that replaces the whole record, blanks strict: read with GET, nothing wiped, as found', async () => {
    const t = await start({ update: 'replace', blanks: 'strict' });
    const before = contents(t);
    const { outcome } = await runGuest(t);
    expect(firstRequestsAreGets(t)).toBe(true);
    expectAsFound(t, before, outcome);
  });

  it('a PUT that replaces the whole record and ignores empty strings: the empty address lines cannot come back, and are named', async () => {
    const t = await start({ update: 'replace', blanks: 'ignore' });
    const before = contents(t);
    const { outcome } = await runGuest(t);
    expect(firstRequestsAreGets(t)).toBe(true);
    const results = expectAsFoundOrNamed(t, before, outcome);
    // The target stores "" as nothing: once a replacing PUT dropped address2, no update sets it to "" again.
    // (Every changed field is named with its reason above; a loaded machine may add a write-back that timed out.)
    for (const r of results) expect(r.changed.filter((f) => /address2$/.test(f)).length).toBeGreaterThan(0);
    expect(outcome.exitCode, JSON.stringify(outcome.report.stopped ?? outcome.error?.message)).toBe(5);
  });

  for (const metadataDelete of ['null-value', 'empty-object'] as const)
    it(`merge with 3 pre-existing keys, keys deleted by ${metadataDelete}: as found`, async () => {
      const t = await start({ metadata: 'merge', metadataDelete, accounts: seeds(pairs(3)) });
      const before = contents(t);
      const { outcome } = await runGuest(t);
      expectAsFound(t, before, outcome);
    });

  it('merge with 3 pre-existing keys and no way to delete a key: the run keeps within 6 pairs, the keys it added are named final, exit 5', async () => {
    const t = await start({ metadata: 'merge', metadataDelete: 'none', accounts: seeds(pairs(3)) });
    const before = contents(t);
    const { outcome } = await runGuest(t);
    const results = expectAsFoundOrNamed(t, before, outcome);
    for (const [i, r] of results.entries()) {
      for (const f of r.changed) expect(f).toMatch(/^metadata/);
      // The held keys kept their values: only added keys differ.
      for (const [k, v] of Object.entries(before[i].metadata)) expect(t.snapshot(t.accountIds[i]).metadata[k]).toBe(v);
      for (const note of r.said.notRestored) expect(note).toMatchObject({ reason: expect.stringContaining('merges metadata'), final: true });
      expect(Object.keys(t.snapshot(t.accountIds[i]).metadata).length).toBeLessThanOrEqual(6);
    }
    expect(results.some((r) => r.changed.length)).toBe(true);
    expect(outcome.exitCode).toBe(5);
  });

  it('an account holding 6 pairs on a replacing target: as found', async () => {
    // Blanks strict: a target that ignores "" could not take the empty address2 back (shown above).
    const t = await start({ accounts: seeds(pairs(6)), blanks: 'strict' });
    const before = contents(t);
    const { outcome } = await runGuest(t);
    expectAsFound(t, before, outcome);
  });

  it('an account holding 6 pairs on a merging target that deletes by null value: as found', async () => {
    const t = await start({ metadata: 'merge', metadataDelete: 'null-value', accounts: seeds(pairs(6)) });
    const before = contents(t);
    const { outcome } = await runGuest(t);
    expectAsFound(t, before, outcome);
  });

  it('a masked account number: named as masked, never written back masked', async () => {
    const t = await start({ mask: true });
    const before = contents(t);
    const { outcome } = await runGuest(t);
    const results = expectAsFoundOrNamed(t, before, outcome);
    for (const r of results) {
      for (const f of r.changed) expect(f).toBe('wire.account_number');
      for (const note of r.said.notRestored) expect(note).toMatchObject({ reason: expect.stringContaining('masked'), final: true });
    }
    // The run changed the numbers (the sandbox stores what it is sent), and the restore had no value to send.
    expect(results.some((r) => r.changed.length)).toBe(true);
    expect(outcome.exitCode).toBe(5);
  });

  it('a review that moves the status on a change of the wire: the status named as moved by review', async () => {
    const t = await start({ review: true });
    const before = contents(t);
    const { outcome } = await runGuest(t);
    const results = expectAsFoundOrNamed(t, before, outcome);
    for (const r of results) {
      expect(r.changed).toEqual(['status']);
      expect(r.said.notRestored).toEqual([expect.objectContaining({ reason: expect.stringContaining('review'), final: true })]);
    }
    expect(outcome.exitCode).toBe(5);
  });

  it('no GET of fiat accounts: the run refuses with exit 2 and writes nothing', async () => {
    const t = await start({ get: false });
    const before = contents(t);
    const { outcome } = await runGuest(t);
    expect(outcome.exitCode).toBe(2);
    expect(t.log.filter((e) => e.method === 'PUT')).toEqual([]);
    expect(contents(t)).toEqual(before);
  });

  it('no GET, but the user allows reading with an empty update (a patching PUT): as found', async () => {
    const t = await start({ get: false });
    const before = contents(t);
    const { outcome } = await runGuest(t, { readWithEmptyUpdate: true });
    expectAsFound(t, before, outcome);
  });
});

const FAULTS: SandboxFault[] = ['500', '429', 'hang', 'reset', 'restart'];

/** Where each phase falls for the first and the second account of a default sandbox. */
let phases: Record<Phase, PhaseRequest>[];
beforeAll(async () => {
  // A run without faults tells where each phase falls (the same seed and settings give the same requests).
  const t = await startSandboxTarget({ blanks: 'strict' });
  try {
    const { config } = await runGuest(t);
    phases = t.accountIds.map((id) => phasesOf(config.reportDir, id));
  } finally {
    await t.close();
  }
});

describe.concurrent('a transient fault at each phase: the accounts as found', () => {
  for (const phase of PHASES)
    for (const fault of FAULTS)
      it(`${fault} once at the ${phase}`, async () => {
        const t = await start({});
        const before = contents(t);
        const injected = t.inject({
          match: atPhase(t.accountIds[0], phases[0][phase]),
          fault,
          ...(fault === '429' ? { retryAfterSeconds: 1 } : {}),
          ...(fault === 'restart' ? { restartMs: 1000 } : {}),
        });
        const { outcome } = await runGuest(t);
        expect(injected.hits, 'the fault hit its phase').toBe(1);
        expectAsFound(t, before, outcome);
      });
});

/** A match for the phase's request of each account and every later one of the same method. */
const from =
  (t: SandboxTarget, phase: Phase) =>
  (r: SandboxRequest): boolean => {
    const at = phases[t.accountIds.indexOf(r.accountId ?? '')]?.[phase];
    return at !== undefined && r.method === at.method && r.nth >= at.nth;
  };

/**
 * A fault that lasts outlasts any patience: 2 s still tries each request again (at 0.5 and 1.5 s)
 * and ends these runs in a quarter of the 8 s default of the guest runs.
 */
const LASTING = { restorePatienceMs: 2000 };

describe.concurrent('a fault that lasts: named, exit 5', () => {
  it('every write-back answered 500: each changed field named with the refusal, exit 5', async () => {
    const t = await start({});
    const before = contents(t);
    t.inject({ match: from(t, 'write-back'), fault: '500', times: Number.POSITIVE_INFINITY });
    const { outcome } = await runGuest(t, LASTING);
    const results = expectAsFoundOrNamed(t, before, outcome);
    expect(results.some((r) => r.changed.length > 0)).toBe(true);
    for (const r of results) for (const note of r.said.notRestored) expect(note.reason).toContain('write-back was answered HTTP 500');
    expect(outcome.exitCode).toBe(5);
    expect(outcome.report.restore?.repair).toContain('conformance restore');
  });

  it('every end read answered 500: the accounts unknown (may be changed), exit 5', async () => {
    const t = await start({});
    const before = contents(t);
    t.inject({ match: from(t, 'end-read'), fault: '500', times: Number.POSITIVE_INFINITY });
    const { outcome } = await runGuest(t, LASTING);
    const results = expectAsFoundOrNamed(t, before, outcome);
    for (const r of results) expect(r.said.outcome).toBe('unknown');
    expect(outcome.exitCode).toBe(5);
  });

  it('every read-back answered 500: written back, the accounts as found, yet reported unknown (cannot tell), exit 5', async () => {
    const t = await start({});
    const before = contents(t);
    t.inject({ match: from(t, 'read-back'), fault: '500', times: Number.POSITIVE_INFINITY });
    const { outcome } = await runGuest(t, LASTING);
    expect(contents(t)).toEqual(before);
    for (const a of outcome.report.restore!.accounts) expect(a).toMatchObject({ outcome: 'unknown', reason: expect.stringContaining('cannot tell') });
    expect(outcome.exitCode).toBe(5);
  });

  it('every start read of one account answered 500: that account left alone and untouched, the other restored', async () => {
    const t = await start({});
    const before = contents(t);
    const [a] = t.accountIds;
    t.inject({ match: (r) => r.accountId === a, fault: '500', times: Number.POSITIVE_INFINITY });
    const { outcome } = await runGuest(t, LASTING);
    expect(contents(t)).toEqual(before);
    expect(t.log.filter((e) => e.accountId === a && e.method === 'PUT')).toEqual([]);
    const [first, second] = outcome.report.restore!.accounts;
    expect(first).toMatchObject({ id: a, outcome: 'left-alone' });
    expect(['restored', 'unchanged']).toContain(second.outcome);
  });
});
