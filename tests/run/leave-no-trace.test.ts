/**
 * What a run leaves behind (docs/design.md section 2, "What a run leaves behind"): the pool's fiat
 * accounts read as before the run, under the replace and the merge reading, or the report names
 * what differs (under merge, the keys the run added); --no-restore leaves them changed and says
 * so; an interrupted run restores too; and every identity created is in the ledger, the file
 * beside the reports and, by its metadata, tagged with the run.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { orchestrateRun } from '../../src/run/orchestrate-run.ts';
import { type RunConfig, runConfig } from '../../src/run/run-config.ts';
import type { Reading } from '../../src/server/reading.ts';
import { createReferenceServer, type ReferenceServer } from '../../src/server/server.ts';
import { update } from '../server/http-client.ts';

const servers: ReferenceServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function server(reading: Partial<Reading> = {}): Promise<ReferenceServer> {
  const s = await createReferenceServer({ reading });
  servers.push(s);
  return s;
}

/** Each account as the server shows it now (an empty update), without updated_at (an update moves it). */
async function accounts(s: ReferenceServer): Promise<Record<string, unknown>[]> {
  const read = [];
  for (const id of s.fiatAccountIds) {
    const reply = await update(s, {}, {}, id);
    expect(reply.status).toBe(200);
    const { updated_at: _moved, ...shown } = reply.json;
    read.push(shown);
  }
  return read;
}

const config = (s: ReferenceServer, overrides: Partial<RunConfig> = {}): RunConfig =>
  runConfig({
    seed: 7,
    profile: 'custom',
    runs: 5,
    baseUrl: s.baseUrl,
    auth: { kind: 'static', token: s.staticToken },
    fiatAccountIds: s.fiatAccountIds,
    reportDir: mkdtempSync(path.join(tmpdir(), 'conformance-restore-')),
    ...overrides,
  });

/** The client metadata an account shows in the sample's nested placement. */
const metadataOf = (account: Record<string, any>): Record<string, unknown> => account.fiat_account_owner.fiat_network_instructions.metadata;
const withoutMetadata = (account: Record<string, any>) => ({
  ...account,
  fiat_account_owner: { ...account.fiat_account_owner, fiat_network_instructions: { ...account.fiat_account_owner.fiat_network_instructions, metadata: {} } },
});

describe('a run leaves the fiat accounts as it found them', () => {
  it('replace reading: every account reads as before, and the report says each was restored', async () => {
    const s = await server();
    const before = await accounts(s);
    const { report } = await orchestrateRun(config(s), { reports: true });
    expect(await accounts(s)).toEqual(before);
    expect(report.restore?.enabled).toBe(true);
    expect(report.restore?.accounts.map((a) => [a.id, a.outcome, a.notRestored])).toEqual(s.fiatAccountIds.map((id) => [id, 'restored', []]));
    // The run changed them: the restore wrote owner names back.
    expect(report.restore!.accounts[0].restored).toContain('fiat_account_owner.person_details.first_name');
    expect(report.restore!.requests).toBe(4 * s.fiatAccountIds.length);
    // Restore requests are no case of any rule: no failure shows one, and the verdict is unchanged.
    expect(report.summary.verdict).toBe('conformant');
  });

  it('merge reading: everything but the added metadata keys reads as before, and the report names exactly those keys', async () => {
    const s = await server({ metadataUpdate: 'merge' });
    for (const id of s.fiatAccountIds) expect((await update(s, { metadata: { origin: 'seed' } }, {}, id)).status).toBe(200);
    const before = await accounts(s);
    const { report } = await orchestrateRun(config(s), { reports: true });
    const after = await accounts(s);
    for (const [i, id] of s.fiatAccountIds.entries()) {
      expect(withoutMetadata(after[i]), id).toEqual(withoutMetadata(before[i]));
      const [was, now] = [metadataOf(before[i]), metadataOf(after[i])];
      // The key the account held reads as before; the keys the run added stay (merge cannot drop them).
      expect(now.origin).toBe('seed');
      const added = Object.keys(now).filter((k) => !(k in was));
      const account = report.restore!.accounts.find((a) => a.id === id)!;
      expect(account.notRestored.map((n) => n.field).sort(), id).toEqual(added.map(fieldOf).sort());
      // The embedded server refuses a null value and merges an empty object: the API cannot remove them.
      for (const note of account.notRestored) expect(note).toMatchObject({ reason: expect.stringContaining('merges metadata'), final: true });
    }
    expect(report.restore!.accounts.some((a) => a.notRestored.length > 0)).toBe(true);
  });

  it('null-ignoring reading: no field the accounts showed empty is filled in, so every account reads as before and the run exits 0', async () => {
    // The vendor's reading: "" and null in an update are ignored, so an address2 of "" filled in could never be put back.
    const s = await server({ updateNulls: 'ignored' });
    const before = await accounts(s);
    const run = config(s, { seed: 1, runs: 20 });
    const { report, exitCode } = await orchestrateRun(run, { reports: true });
    expect(await accounts(s)).toEqual(before);
    expect(report.restore!.accounts.map((a) => [a.outcome, a.notRestored])).toEqual(s.fiatAccountIds.map(() => ['restored', []]));
    expect([report.summary.verdict, exitCode]).toEqual(['conformant', 0]);
    const accepted = harEntries(run.reportDir).filter((e) => e.request.method === 'PUT' && e.response.status === 200 && e._case?.restore === undefined);
    const filled = accepted.filter((e) => /"address2":"[^"]/.test(e.request.postData?.text ?? ''));
    expect(accepted.length).toBeGreaterThan(20);
    expect(filled.map((e) => e.request.postData.text)).toEqual([]);
    // The cases about a null or an empty value itself still run: the observed contract says the target ignores them.
    const nulls = (report.observedContract?.limits ?? []).filter((l: { kind: string }) => l.kind === 'null-or-empty');
    expect(nulls.length).toBeGreaterThan(0);
    for (const l of nulls as { field: string; summary: string }[]) expect(l.summary, l.field).toMatch(/^null ignored(; empty text ignored)?$/);
  });

  it('--no-restore leaves the accounts changed, and the report says restore was off', async () => {
    const s = await server();
    const before = await accounts(s);
    const run = config(s, { noRestore: true });
    const { report } = await orchestrateRun(run, { reports: true });
    const after = await accounts(s);
    expect(after).not.toEqual(before);
    expect(report.restore).toMatchObject({ enabled: false, accounts: [], requests: 0 });
    expect(report.restore!.note).toContain('restore was off');
    const har = harEntries(run.reportDir);
    expect(har.every((e) => e._case?.restore === undefined)).toBe(true);
  });

  it('an interrupted run still restores every account', async () => {
    const s = await server();
    const before = await accounts(s);
    const controller = new AbortController();
    let exchanges = 0;
    const { report } = await orchestrateRun(config(s, { runs: 200 }), {
      reports: true,
      signal: controller.signal,
      hooks: {
        listeners: () => ({
          before: [
            (event) => {
              // Mid-run: well past the probe and the first updates.
              if (event.type === 'exchange' && ++exchanges === 150) controller.abort('SIGINT');
            },
          ],
        }),
      },
    });
    expect(report.stopped?.kind).toBe('interrupted');
    expect(await accounts(s)).toEqual(before);
    expect(report.restore!.accounts.every((a) => a.outcome === 'restored' || a.outcome === 'unchanged')).toBe(true);
    expect(report.restore!.accounts.some((a) => a.outcome === 'restored')).toBe(true);
  });
});

describe('the ledger of created identities', () => {
  it('holds every identity a 2xx create answered, as exchanges.har shows them, the same in created-identities.json, each tagged in its metadata', async () => {
    const s = await server();
    const run = config(s);
    const { report } = await orchestrateRun(run, { reports: true });
    const creates = harEntries(run.reportDir).filter(
      (e) => e.request.url.endsWith('/v2/identity/identities') && e.response.status >= 200 && e.response.status < 300,
    );
    const ids = new Set(creates.map((e) => JSON.parse(e.response.content.text).id));
    expect(creates.length).toBeGreaterThan(20);
    expect(report.createdIdentities).toHaveLength(ids.size);
    // Every answer came: no create is unknown.
    const created = report.createdIdentities!.flatMap((i) => (i.outcome === 'created' ? [i] : []));
    expect(created).toHaveLength(ids.size);
    expect(new Set(created.map((i) => i.id))).toEqual(ids);
    const file = JSON.parse(readFileSync(path.join(run.reportDir, 'created-identities.json'), 'utf8'));
    expect(file.identities).toEqual(report.createdIdentities);
    expect(file.count).toBe(ids.size);
    const [tag] = new Set(report.createdIdentities!.map((i) => i.runTag));
    // The sequential scenario sends one used ref_id in upper case: the tag in another case.
    const untagged = created.filter((i) => i.runTag !== tag || !i.refId?.toLowerCase().startsWith(`${tag}-`) || !i.createdAt);
    expect(untagged).toEqual([]);
    for (const e of creates) expect(JSON.parse(e.request.postData.text).metadata.conformance_run).toBe(tag);
  });

  it('is an empty list when the run created no identity (only fiat account rules)', async () => {
    const s = await server();
    const { report } = await orchestrateRun(config(s, { ruleFilter: ['fa.metadata'] }), { reports: true });
    expect(report.createdIdentities).toEqual([]);
  });
});

/** A key of the nested metadata (the embedded server's default placement) as the restore names it. */
const fieldOf = (key: string) =>
  `fiat_account_owner.fiat_network_instructions.metadata${/^[A-Za-z0-9_-]+$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`}`;

function harEntries(dir: string): any[] {
  return JSON.parse(readFileSync(path.join(dir, 'exchanges.har'), 'utf8')).log.entries;
}
