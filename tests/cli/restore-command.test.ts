/**
 * `conformance restore <journal>`: puts a journal's accounts back, verified, safe to run twice,
 * only on the journal's own target; and a run never overwrites a journal an earlier run could not
 * put back. Against the sandbox target (tests/foreign), which records what it holds.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JOURNAL_FILE, type RestoreJournal } from '../../src/engine/restore/restore-journal.ts';
import { orchestrateRun } from '../../src/run/orchestrate-run.ts';
import { runConfig } from '../../src/run/run-config.ts';
import { type SandboxAccount, type SandboxTarget, startSandboxTarget } from '../foreign/sandbox-target.ts';
import { conformance } from './binary.ts';

const targets: SandboxTarget[] = [];
afterEach(async () => {
  await Promise.all(targets.splice(0).map((t) => t.close()));
});

async function sandbox(): Promise<SandboxTarget> {
  const target = await startSandboxTarget({ blanks: 'strict' });
  targets.push(target);
  return target;
}

/** What the sandbox holds of an account, updated_at left out (every accepted update moves it). */
const held = (t: SandboxTarget, id: string): Omit<SandboxAccount, 'updated_at'> => {
  const { updated_at: _moved, ...rest } = t.snapshot(id);
  return rest;
};

/** A journal of the accounts as they are now, the way a run writes it (their GET answers, whole). */
async function journalOf(t: SandboxTarget, outcome?: 'restored'): Promise<string> {
  const accounts = [];
  for (const id of t.accountIds) {
    const answer = await fetch(`${t.baseUrl}/v2/transfer/fiat-accounts/${id}`, { headers: { authorization: `Bearer ${t.token}` } });
    accounts.push({ id, journaledAt: new Date().toISOString(), account: await answer.json(), ...(outcome ? { outcome } : {}) });
  }
  const journal: RestoreJournal = {
    kind: 'conformance-restore-journal',
    version: 1,
    target: t.baseUrl,
    read: 'get',
    createdAt: new Date().toISOString(),
    accounts,
  };
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'conformance-journal-')), JOURNAL_FILE);
  writeFileSync(file, JSON.stringify(journal));
  return file;
}

/** What a run does to an account behind the journal's back. */
function change(t: SandboxTarget, id: string): void {
  t.set(id, { first_name: 'Zoë 😀', metadata: { k1: 'v1', cost_center: 'changed' } });
}

describe('conformance restore', () => {
  it('puts the accounts back as journaled, says so, records it in the journal, and a second run finds them unchanged', async () => {
    const t = await sandbox();
    const before = t.accountIds.map((id) => held(t, id));
    const file = await journalOf(t);
    for (const id of t.accountIds) change(t, id);
    expect(held(t, t.accountIds[0])).not.toEqual(before[0]);

    const first = await conformance(['restore', file, '--base-url', t.baseUrl, '--token', t.token]);
    expect(first.code, first.stderr).toBe(0);
    expect(t.accountIds.map((id) => held(t, id))).toEqual(before);
    expect(first.stdout).toContain(`${t.accountIds[0]}: restored`);
    expect(first.stdout + first.stderr).not.toContain(t.token);
    const journal = JSON.parse(readFileSync(file, 'utf8')) as RestoreJournal;
    expect(journal.accounts.map((a) => a.outcome)).toEqual(['restored', 'restored']);

    // Safe to run twice: read, found as journaled, nothing written.
    const puts = t.log.filter((l) => l.method === 'PUT').length;
    const second = await conformance(['restore', file, '--base-url', t.baseUrl, '--token', t.token]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain(`${t.accountIds[0]}: unchanged`);
    expect(t.log.filter((l) => l.method === 'PUT').length).toBe(puts);
  });

  it('sends nothing to a base URL that is not the journal target, nor without one (exit 2)', async () => {
    const t = await sandbox();
    const file = await journalOf(t);
    const requests = t.log.length;
    const other = await conformance(['restore', file, '--base-url', 'http://127.0.0.1:9', '--token', t.token]);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/holds accounts of http:\/\/127\.0\.0\.1:\d+, not of http:\/\/127\.0\.0\.1:9/);
    const none = await conformance(['restore', file, '--token', t.token]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(`--base-url ${t.baseUrl}`);
    expect(t.log.length).toBe(requests);
  });

  it('a file that is no journal is exit 2 in one line', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'conformance-journal-')), 'x.json');
    writeFileSync(file, '{"kind":"something else"}');
    const result = await conformance(['restore', file, '--base-url', 'http://127.0.0.1:9', '--token', 't']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringContaining('is not a restore journal')]);
  });
});

describe('a run beside a journal', () => {
  const config = (t: SandboxTarget, reportDir: string) =>
    runConfig({
      seed: 3,
      baseUrl: t.baseUrl,
      auth: { kind: 'static', token: t.token },
      fiatAccountIds: t.accountIds,
      reportDir,
      runs: 2,
      ruleFilter: ['fa.metadata'],
    });

  it('refuses to start over a journal an earlier run could not put back, and sends nothing', async () => {
    const t = await sandbox();
    const file = await journalOf(t);
    const requests = t.log.length;
    await expect(orchestrateRun(config(t, path.dirname(file)), { reports: true })).rejects.toThrow(/left changed .*conformance restore/);
    expect(t.log.length).toBe(requests);
  });

  it('writes over a journal whose accounts were all put back', async () => {
    const t = await sandbox();
    const file = await journalOf(t, 'restored');
    const { report } = await orchestrateRun(config(t, path.dirname(file)), { reports: true });
    expect(report.restore?.accounts.map((a) => a.outcome)).toEqual(['restored', 'restored']);
    expect((JSON.parse(readFileSync(file, 'utf8')) as RestoreJournal).accounts.map((a) => a.outcome)).toEqual(['restored', 'restored']);
  });

  it('names a change someone else made after the run last wrote, and still puts the account back', async () => {
    const t = await sandbox();
    const [first] = t.accountIds;
    const before = held(t, first);
    // Another user of the sandbox renames the owner just before the run's end read of the account.
    let puts = 0;
    let renamed = false;
    t.onRequest((req) => {
      if (req.accountId === first && req.method === 'PUT') puts++;
      if (req.accountId === first && req.method === 'GET' && puts > 0 && !renamed) {
        renamed = true;
        t.set(first, { first_name: 'Someone Else' });
      }
    });
    const dir = mkdtempSync(path.join(tmpdir(), 'conformance-run-'));
    const { report } = await orchestrateRun(config(t, dir), { reports: true });
    const account = report.restore!.accounts.find((a) => a.id === first)!;
    expect(account.interference?.map((n) => n.field)).toContain('fiat_account_owner.person_details.first_name');
    expect(account.interference?.[0].reason).toMatch(/changed after the run's last accepted update/);
    expect(held(t, first)).toEqual(before);
  });
});

describe('a target without GET of fiat accounts', () => {
  const run = (t: SandboxTarget, readWithEmptyUpdate: boolean) =>
    orchestrateRun(
      runConfig({
        seed: 3,
        baseUrl: t.baseUrl,
        auth: { kind: 'static', token: t.token },
        fiatAccountIds: t.accountIds,
        reportDir: mkdtempSync(path.join(tmpdir(), 'conformance-run-')),
        runs: 2,
        ruleFilter: ['fa.metadata'],
        ...(readWithEmptyUpdate ? { readWithEmptyUpdate } : {}),
      }),
      { reports: true },
    );

  it('gets no write without leave: the run stops with a usage error that names --read-with-empty-update', async () => {
    const t = await startSandboxTarget({ blanks: 'strict', get: false });
    targets.push(t);
    const { exitCode, error } = await run(t, false);
    expect(exitCode).toBe(2);
    expect(error?.message).toMatch(/no GET of fiat accounts .*--read-with-empty-update/);
    expect(t.log.filter((l) => l.method === 'PUT')).toEqual([]);
  });

  it('with leave, reads with an empty update, journals, and puts the accounts back', async () => {
    const t = await startSandboxTarget({ blanks: 'strict', get: false });
    targets.push(t);
    const before = t.accountIds.map((id) => held(t, id));
    const { report } = await run(t, true);
    expect(report.restore?.accounts.map((a) => a.outcome)).toEqual(['restored', 'restored']);
    expect(t.accountIds.map((id) => held(t, id))).toEqual(before);
  });
});

describe('a run without a report folder (the library)', () => {
  it('journals a remote target to a fresh folder all the same', async () => {
    const t = await sandbox();
    const config = runConfig({
      seed: 3,
      baseUrl: t.baseUrl,
      auth: { kind: 'static', token: t.token },
      fiatAccountIds: t.accountIds,
      runs: 2,
      ruleFilter: ['fa.metadata'],
    });
    const { report } = await orchestrateRun(config, { reports: false });
    const file = report.restore?.journal;
    expect(file).toMatch(/conformance-run-.*restore-journal\.json$/);
    const journal = JSON.parse(readFileSync(file!, 'utf8')) as RestoreJournal;
    expect(journal.accounts.map((a) => [a.id, a.outcome])).toEqual(t.accountIds.map((id) => [id, 'restored']));
  });
});
