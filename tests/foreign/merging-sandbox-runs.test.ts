/**
 * Ten consecutive runs on the same merging accounts that already hold keys of someone else's
 * (issue 29, "What it must show"): on the sandbox target (written apart from the embedded
 * server), with metadata merged and deleted as the target allows, every run is conclusive and
 * leaves the accounts as the first one found them; where no key can be deleted, the keys the first
 * run added stay, are named as final, and no later run adds more (never more than 6 keys).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/core/exchange.ts';
import { orchestrateRun, type RunOutcome } from '../../src/run/orchestrate-run.ts';
import { runConfig } from '../../src/run/run-config.ts';
import { type JsonObject, sampleWire } from './sandbox-account.ts';
import { type Metadata, type SandboxAccount, type SandboxOptions, type SandboxTarget, startSandboxTarget } from './sandbox-target.ts';

const RUNS = 10;
/** Someone else's keys on each account before the first run. */
const THEIRS: Metadata[] = [
  { a1: 'theirs', a2: 'theirs', a3: 'theirs' },
  { b1: 'theirs', b2: 'theirs', b3: 'theirs' },
];

const started: SandboxTarget[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((t) => t.close()));
});

/**
 * The sample's wire with both address2 lines filled: the target ignores an empty string sent
 * (blanks: ignore), so an address2 of "" that a run overwrote can never be written back; that case
 * has its own test below.
 */
function filledWire(accountNumber: string): JsonObject {
  const wire = sampleWire(accountNumber) as { fiat_account_owner_address: JsonObject; routing_details: { bank_address: JsonObject } };
  wire.fiat_account_owner_address.address2 = 'Suite 1';
  wire.routing_details.bank_address.address2 = 'Floor 2';
  return wire as unknown as JsonObject;
}

async function mergingTarget(options: SandboxOptions, wire = filledWire): Promise<SandboxTarget> {
  const target = await startSandboxTarget({
    metadata: 'merge',
    accounts: THEIRS.map((metadata, i) => ({ metadata, wire: wire(`00012345670${i}`) })),
    ...options,
  });
  started.push(target);
  return target;
}

/** The stored record as a restore must give it back: updated_at moves on every update. */
const content = ({ updated_at: _moved, ...rest }: SandboxAccount) => rest;
const accounts = (t: SandboxTarget) => t.accountIds.map((id) => content(t.snapshot(id)));

/** The most client keys any account held, seen before every request the target got and after the last. */
function mostKeysHeld(t: SandboxTarget): () => number {
  let most = 0;
  const look = () => {
    for (const id of t.accountIds) most = Math.max(most, Object.keys(t.snapshot(id).metadata).length);
  };
  t.onRequest(look);
  return () => {
    look();
    return most;
  };
}

/** One run of the metadata rules on the target's accounts (a fresh report folder: a pending journal is never overwritten), with its exchanges. */
async function runOn(t: SandboxTarget, seed: number): Promise<RunOutcome & { exchanges: Exchange[] }> {
  const exchanges: Exchange[] = [];
  const config = runConfig({
    seed,
    profile: 'custom',
    runs: 5,
    baseUrl: t.baseUrl,
    auth: { kind: 'static', token: t.token },
    fiatAccountIds: t.accountIds,
    ruleFilter: ['fa.metadata'],
    reportDir: mkdtempSync(path.join(tmpdir(), 'merging-sandbox-')),
  });
  const keep = (event: { type: string; exchange?: Exchange }) => void (event.type === 'exchange' && event.exchange && exchanges.push(event.exchange));
  const outcome = await orchestrateRun(config, { reports: true, hooks: { listeners: () => ({ before: [keep] }) } });
  return { ...outcome, exchanges };
}

/** Valid updates of the run the target refused for the pairs an account holds: the poisoning of issue 29. */
const refusedForPairs = (exchanges: Exchange[]) =>
  exchanges.filter(
    (e) =>
      e.testCase.operation === 'updateFiatAccount' &&
      !e.testCase.restore &&
      e.testCase.mode !== 'invalid' &&
      e.response?.status === 400 &&
      /exceed 6 pairs/.test(e.response.rawBody ?? ''),
  );

const inconclusive = (outcome: RunOutcome) => outcome.report.rules.filter((r) => r.status === 'inconclusive').map((r) => `${r.id}: ${r.reason}`);

describe('ten consecutive runs on merging accounts that hold 3 keys of someone else’s', () => {
  it.each(['null-value', 'empty-object'] as const)(
    'deleted by %s: every run conformant and conclusive, every account as the first run found it, the report says so',
    async (metadataDelete) => {
      const t = await mergingTarget({ metadataDelete });
      const before = accounts(t);
      const most = mostKeysHeld(t);
      for (let run = 1; run <= RUNS; run++) {
        const outcome = await runOn(t, run);
        const { report } = outcome;
        expect(inconclusive(outcome), `run ${run}`).toEqual([]);
        expect([report.summary.verdict, outcome.exitCode], `run ${run}`).toEqual(['conformant', 0]);
        expect(refusedForPairs(outcome.exchanges), `run ${run}`).toEqual([]);
        expect(accounts(t), `run ${run}`).toEqual(before);
        expect(report.restore?.enabled).toBe(true);
        for (const account of report.restore!.accounts) {
          expect(['restored', 'unchanged'], `run ${run} ${account.id}`).toContain(account.outcome);
          expect(account.notRestored, `run ${run} ${account.id}`).toEqual([]);
        }
        expect(report.restore!.note, `run ${run}`).toMatch(/^fiat accounts: (\d+ unchanged, )?\d+ restored$|^fiat accounts: 2 unchanged$/);
      }
      // The 6-pair cases reused the held keys: an account took at most 6 keys, and lost those the run added.
      expect(most()).toBeLessThanOrEqual(6);
      expect(t.accountIds.map((id) => Object.keys(t.snapshot(id).metadata))).toEqual(THEIRS.map(Object.keys));
    },
  );

  it('no key can be deleted: every run conclusive; the first run’s added keys stay, named as final, and no later run adds one (never more than 6 keys)', async () => {
    const t = await mergingTarget({ metadataDelete: 'none' });
    const before = accounts(t);
    const most = mostKeysHeld(t);
    let afterFirst: ReturnType<typeof accounts> = [];
    for (let run = 1; run <= RUNS; run++) {
      const outcome = await runOn(t, run);
      const { report } = outcome;
      expect(inconclusive(outcome), `run ${run}`).toEqual([]);
      expect(report.summary.verdict, `run ${run}`).toBe('conformant');
      expect(refusedForPairs(outcome.exchanges), `run ${run}`).toEqual([]);
      const now = accounts(t);
      if (run === 1) {
        afterFirst = now;
        // Left changed, and said so: exit 5, each kept key named (its account held it not before), final.
        expect(outcome.exitCode).toBe(5);
        for (const [i, account] of report.restore!.accounts.entries()) {
          const kept = Object.keys(now[i].metadata).filter((k) => !(k in before[i].metadata));
          expect(account.id).toBe(t.accountIds[i]);
          expect(account.notRestored.map((n) => n.field).sort()).toEqual(kept.map(metadataField).sort());
          for (const note of account.notRestored) expect(note, note.field).toMatchObject({ final: true, reason: expect.stringContaining('merges metadata') });
          // Everything else is as before the run.
          expect({ ...now[i], metadata: before[i].metadata }).toEqual(before[i]);
        }
      } else {
        // The kept keys are now the account's own: later runs build on them, add none, and put the rest back.
        expect(now, `run ${run}`).toEqual(afterFirst);
        expect(outcome.exitCode, `run ${run}`).toBe(0);
        for (const account of report.restore!.accounts) {
          expect(['restored', 'unchanged'], `run ${run} ${account.id}`).toContain(account.outcome);
          expect(account.notRestored).toEqual([]);
        }
      }
    }
    expect(most()).toBeLessThanOrEqual(6);
  });

  it('an address2 of "" is never filled in, so a target that ignores empty strings gets every account back: exit 0', async () => {
    const t = await mergingTarget({ metadataDelete: 'null-value' }, sampleWire);
    const before = accounts(t);
    const outcome = await runOn(t, 1);
    expect(outcome.report.summary.verdict).toBe('conformant');
    expect(outcome.report.restore!.accounts.map((a) => [a.outcome, a.notRestored])).toEqual(t.accountIds.map(() => ['restored', []]));
    expect(outcome.exitCode).toBe(0);
    expect(accounts(t)).toEqual(before);
    // Before updates were fitted to what the restore can put back, seed 1 filled an address2 in here (exit 5).
    const filled = outcome.exchanges.filter((e) => !e.testCase.restore && /"address2":"[^"]/.test(JSON.stringify(e.testCase.body ?? {})));
    expect(filled.filter((e) => e.testCase.mode !== 'invalid').map((e) => e.testCase.label)).toEqual([]);
  });

  it('an address2 of "" someone else fills in during the run cannot be put back there: the restore names it, claims nothing, exit 5', async () => {
    const t = await mergingTarget({ metadataDelete: 'null-value' }, sampleWire);
    const [id] = t.accountIds;
    const wire = sampleWire('000123456700') as { fiat_account_owner_address: JsonObject };
    let updates = 0;
    // Another user of the sandbox, after the run's updates: the first read that follows them.
    t.onRequest((req) => {
      if (req.method === 'PUT') updates++;
      else if (updates && req.accountId === id && wire.fiat_account_owner_address.address2 === '') {
        wire.fiat_account_owner_address.address2 = 'Suite 9';
        t.set(id, { wire: { ...t.snapshot(id).wire, fiat_account_owner_address: wire.fiat_account_owner_address } as JsonObject });
      }
    });
    const outcome = await runOn(t, 1);
    const account = outcome.report.restore!.accounts.find((a) => a.id === id)!;
    expect(account.outcome).toBe('partly-restored');
    expect(account.notRestored).toEqual([
      {
        field: expect.stringMatching(/wire\.fiat_account_owner_address\.address2$/),
        was: '',
        now: 'Suite 9',
        final: true,
        reason: 'written back as "", which the target ignores (it keeps "Suite 9"): no update can put it back',
      },
    ]);
    expect(outcome.exitCode).toBe(5);
  });
});

/** A top-level metadata key as the restore names it. */
const metadataField = (key: string) => `metadata${/^[A-Za-z0-9_-]+$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`}`;
