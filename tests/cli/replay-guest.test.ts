/**
 * Replay is a guest on a live target (issue 29 point 9): a run's exchanges.har and report, replayed
 * in-process against a second embedded server behind a recording proxy. It prints the target
 * before sending, sends credentials only to a base URL of its own command line or environment,
 * only the documented operations and only to the accounts named, refuses a redacted HAR there,
 * and leaves every account as it found it, Ctrl-C included.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { replay } from '../../src/cli/replay.ts';
import type { CliIO } from '../../src/cli/io.ts';
import { UsageError } from '../../src/core/errors.ts';
import { isMarkedRedacted, markRedactedHar } from '../../src/report/files/bundle/redaction-mark.ts';
import { bundleReportFolder } from '../../src/report/files/bundle/write-bundle.ts';
import { readTarGz } from '../../src/report/files/bundle/tar-archive.ts';
import { conformance, reportDir } from './binary.ts';
import { startRecordingTarget, type RecordingTarget } from './recording-proxy.ts';
import { testIO } from './test-io.ts';

const FIAT_PATH = /^\/v2\/transfer\/fiat-accounts\/([^/?]+)$/;
const FORGED_ACCOUNT = '7d444840-9dc0-4dd8-9fbd-c6c5a4d7f2a1';

let dir: string;
/** A run with a failure to replay: the embedded server with a lowercase status. */
let failingDir: string;
let har: { log: { entries: Record<string, any>[] } };
let live: RecordingTarget;

/** The HAR of the run with a DELETE and an update of an account nobody named added, as an edited file can hold. */
function forgedHar(): string {
  const entries = [...har.log.entries];
  const update = entries.find((e) => e.request.method === 'PUT' && e._case?.mode === 'valid' && !e._case?.restore)!;
  const onAccount = (method: string, account: string) => ({
    ...update,
    request: { ...update.request, method, url: update.request.url.replace(/fiat-accounts\/[^/?]+/, `fiat-accounts/${account}`) },
    _case: { ...update._case, label: `forged ${method}` },
  });
  const recordedAccount = FIAT_PATH.exec(new URL(update.request.url).pathname)![1];
  entries.splice(3, 0, onAccount('DELETE', recordedAccount), onAccount('PUT', FORGED_ACCOUNT));
  return JSON.stringify({ ...har, log: { ...har.log, entries } });
}

const liveFlags = () => ['--base-url', live.url, '--token', live.server.staticToken, ...live.server.fiatAccountIds.flatMap((id) => ['--fiat-account-id', id])];

/** Runs `conformance replay` in-process; the lines printed before the proxy saw its first request. */
async function replayed(args: string[], io: CliIO = testIO().io): Promise<{ code: number; beforeFirstRequest: number }> {
  let beforeFirstRequest = -1;
  const out = io.out;
  let printed = 0;
  io.out = (line) => {
    printed++;
    out(line);
  };
  live.onRequest = () => {
    if (beforeFirstRequest < 0) beforeFirstRequest = printed;
  };
  const code = await replay(args, io);
  return { code, beforeFirstRequest };
}

beforeAll(async () => {
  dir = reportDir();
  const args = ['run', '--profile', 'quick', '--seed', '7', '--report-dir', dir];
  for (const rule of ['fa.metadata.max-pairs-accepted', 'fa.update-reflected', 'fa.other-methods-refused', 'fa.unknown-id-404', 'id.valid-accepted'])
    args.push('--rule', rule);
  const run = await conformance(args);
  if (run.code !== 0) throw new Error(`the recorded run should pass: exit ${run.code}\n${run.stdout}${run.stderr}`);
  har = JSON.parse(readFileSync(path.join(dir, 'exchanges.har'), 'utf8'));
  failingDir = reportDir();
  const failing = await conformance([
    'run',
    '--profile',
    'quick',
    '--seed',
    '5',
    '--fault',
    'fa-status-lowercase',
    '--rule',
    'fa.status',
    '--report-dir',
    failingDir,
  ]);
  if (failing.code !== 1) throw new Error(`the failing run should fail: exit ${failing.code}\n${failing.stdout}${failing.stderr}`);
  live = await startRecordingTarget();
}, 180_000);
afterAll(async () => live?.close());
beforeEach(() => {
  live.seen.length = 0;
  live.onRequest = undefined;
});

describe('replay <exchanges.har> against a live target', () => {
  it('prints the target first, sends only the documented operations to the named accounts, and leaves every account as found', async () => {
    const file = path.join(dir, 'forged.har');
    writeFileSync(file, forgedHar());
    const before = await live.accounts();
    const { io, out } = testIO();
    const { code, beforeFirstRequest } = await replayed([file, ...liveFlags()], io);
    expect(out[0]).toBe(`target ${live.url} (from --base-url)`);
    expect(beforeFirstRequest).toBe(1);
    // What the proxy saw: PUT of a fiat account and POST of an identity only, never the DELETE; the restore's reads are GETs of an account.
    expect(live.seen.length).toBeGreaterThan(50);
    for (const seen of live.seen) {
      const account = FIAT_PATH.exec(seen.path)?.[1];
      if (seen.method === 'POST') expect(seen.path).toBe('/v2/identity/identities');
      else expect([['PUT', 'GET'].includes(seen.method), account !== undefined]).toEqual([true, true]);
    }
    // Accounts: the named ones, or ids no account has (unknown-id probes get fresh random ids); never the forged one.
    const touched = new Set(live.seen.map((s) => FIAT_PATH.exec(s.path)?.[1]).filter((id) => id !== undefined));
    expect(touched.has(FORGED_ACCOUNT)).toBe(false);
    const recordedPool = new Set(
      har.log.entries.filter((e) => e._case?.restore === 'start-read').map((e) => FIAT_PATH.exec(new URL(e.request.url).pathname)![1]),
    );
    for (const id of touched) expect(recordedPool.has(id!), `${id} is an account of the recorded run`).toBe(false);
    expect(live.server.fiatAccountIds.every((id) => touched.has(id))).toBe(true);
    // Left out, and listed: the DELETE, the recorded run's own restore, the other methods.
    expect(out.join('\n')).toMatch(
      /^ {2}left out 1: DELETE: not a documented operation \(a live target gets only PUT \/v2\/transfer\/fiat-accounts\/\{id\} and POST \/v2\/identity\/identities\) \(entries #3\)$/m,
    );
    expect(out.join('\n')).toMatch(/^ {2}left out \d+: the recorded run's restore: a replay reads and puts back the target's accounts itself/m);
    expect(out.join('\n')).toMatch(/not re-judged: .*fa\.other-methods-refused \(its requests were left out: PATCH\)/);
    expect(out.join('\n')).toMatch(/^restore: fiat accounts: .*restored/m);
    // What cannot be undone is named: the identities its creates made (fresh ref_ids: each accepted create made one).
    const made = /^created (\d+) identities \(they stay: the document has no delete\): [0-9a-f-]{36}/m.exec(out.join('\n'));
    expect(made, out.join('\n')).not.toBeNull();
    expect(Number(made![1])).toBeGreaterThan(0);
    expect(code, out.join('\n')).toBe(0);
    expect(await live.accounts()).toEqual(before);
  }, 60_000);

  it('fits each update to what the restore can put back: a target that ignores "" (the vendor\'s reading) gets no address2 filled in, and every account reads as found', async () => {
    // An edited HAR whose valid update fills an address2 the accounts hold empty: only "" could take it back, which this target ignores.
    const entries = har.log.entries.map((e) => {
      if (e.request.method !== 'PUT' || e._case?.mode !== 'valid' || e._case?.restore || !e.request.postData?.text) return e;
      const body = JSON.parse(e.request.postData.text);
      const wire = {
        fiat_account_owner_address: { country: 'USA', address1: '1 Main Street', address2: 'Suite 9', city: 'Springfield', province: 'IL', zip_code: '62701' },
      };
      const text = JSON.stringify({ ...body, fiat_network_instructions: { wire } });
      return { ...e, request: { ...e.request, postData: { ...e.request.postData, text } } };
    });
    const file = path.join(dir, 'fills-address2.har');
    writeFileSync(file, JSON.stringify({ ...har, log: { ...har.log, entries } }));
    const ignoring = await startRecordingTarget({ reading: { updateNulls: 'ignored' } });
    try {
      const before = await ignoring.accounts();
      const flags = [
        '--base-url',
        ignoring.url,
        '--token',
        ignoring.server.staticToken,
        ...ignoring.server.fiatAccountIds.flatMap((id) => ['--fiat-account-id', id]),
      ];
      const { io, out } = testIO();
      const code = await replay([file, ...flags], io);
      expect(out.join('\n')).toMatch(/^restore: fiat accounts: .*restored/m);
      expect(out.join('\n')).not.toMatch(/left changed|partly restored/);
      expect(await ignoring.accounts()).toEqual(before);
      expect(code, out.join('\n')).not.toBe(5);
    } finally {
      await ignoring.close();
    }
  }, 60_000);

  it('refuses a redacted HAR (exit 2, one line) and sends nothing; the embedded server still replays it', async () => {
    const file = path.join(dir, 'redacted.har');
    writeFileSync(file, markRedactedHar(JSON.stringify(har)));
    const refused = replayed([file, ...liveFlags()]);
    await expect(refused).rejects.toThrow(UsageError);
    await expect(refused).rejects.toThrow(/^[^\n]*is redacted \(its log says so.*replay it against the embedded server \(leave out --base-url\)[^\n]*$/);
    expect(live.seen).toEqual([]);
    const { io, out } = testIO();
    expect(await replay([file, '--report', path.join(dir, 'conformance.json')], io)).toBe(0);
    expect(out[0]).toMatch(/^target http:\/\/127\.0\.0\.1:\d+: a fresh embedded reference server \(no fault\), as the report's run$/);
  }, 60_000);

  it('knows a redacted HAR by its mark, which a --redact-personal bundle sets, or by the manifest beside it', async () => {
    const bundle = await bundleReportFolder(dir, { redactPersonal: true });
    const member = readTarGz(bundle.bytes).find((m) => m.name === 'exchanges.har')!;
    expect(isMarkedRedacted(JSON.parse(member.data.toString('utf8')))).toBe(true);
    const plain = readTarGz((await bundleReportFolder(dir, {})).bytes).find((m) => m.name === 'exchanges.har')!;
    expect(isMarkedRedacted(JSON.parse(plain.data.toString('utf8')))).toBe(false);
    // An older bundle's HAR carries no mark: its manifest, extracted beside it, says so.
    const folder = mkdtempSync(path.join(tmpdir(), 'conformance-extracted-'));
    writeFileSync(path.join(folder, 'exchanges.har'), JSON.stringify(har));
    writeFileSync(path.join(folder, 'manifest.json'), JSON.stringify({ redacted: true }));
    await expect(replay([path.join(folder, 'exchanges.har'), ...liveFlags()], testIO().io)).rejects.toThrow(/manifest\.json beside it says so/);
    expect(live.seen).toEqual([]);
  });

  it('Ctrl-C stops the sending, puts the accounts back and exits 130', async () => {
    const before = await live.accounts();
    const controller = new AbortController();
    const { io, out } = testIO();
    io.interrupts = () => ({ signal: controller.signal, dispose: () => undefined });
    let atAbort = 0;
    const run = replayed([path.join(dir, 'exchanges.har'), ...liveFlags()], io);
    live.onRequest = () => {
      if (live.seen.length === 40) {
        atAbort = live.seen.length;
        controller.abort('SIGINT');
      }
    };
    expect((await run).code).toBe(130);
    expect(atAbort).toBe(40);
    // After the interrupt only the restore: at most 3 requests per account (end read, write-back, read-back) and the one in flight.
    expect(live.seen.length - atAbort).toBeLessThanOrEqual(1 + 3 * live.server.fiatAccountIds.length);
    expect(out.join('\n')).toMatch(/^restore: fiat accounts: /m);
    expect(out.at(-1)).toMatch(/^interrupted: \d+ requests sent before SIGINT/);
    expect(await live.accounts()).toEqual(before);
  }, 60_000);
});

describe('replay <conformance.json>', () => {
  /** The recorded report as if its run had gone to the live target. */
  const liveReport = () => {
    const report = JSON.parse(readFileSync(path.join(failingDir, 'conformance.json'), 'utf8'));
    report.target = { baseUrl: live.url, embedded: false, fiatAccountIds: live.server.fiatAccountIds };
    const file = path.join(failingDir, 'live-report.json');
    writeFileSync(file, JSON.stringify(report));
    return file;
  };

  it('never sends the credentials to the host named in the report: without --base-url it asks for one, and sends nothing', async () => {
    const file = liveReport();
    const { io } = testIO();
    io.env = { CONFORMANCE_TOKEN: live.server.staticToken };
    const refused = replay([file], io);
    await expect(refused).rejects.toThrow(UsageError);
    await expect(refused).rejects.toThrow(
      new RegExp(`the report's target is ${live.url.replace(/[.:/]/g, '\\$&')}; replay sends credentials only to a base URL you give it: add --base-url`),
    );
    expect(live.seen).toEqual([]);
  });

  it('with --base-url: prints the target first, writes only the named accounts and leaves them as found', async () => {
    const file = liveReport();
    const before = await live.accounts();
    const { io, out } = testIO();
    const { code, beforeFirstRequest } = await replayed([file, ...liveFlags()], io);
    expect(out[0]).toBe(`target ${live.url} (from --base-url)`);
    expect(beforeFirstRequest).toBe(1);
    expect(out.join('\n')).toMatch(/^restore: fiat accounts: /m);
    // The live server has no defect: the failure passes now.
    expect(out.join('\n')).toMatch(/✓ fa\.status\.enum\s+passes now/);
    expect(code, out.join('\n')).toBe(0);
    for (const seen of live.seen.filter((s) => FIAT_PATH.test(s.path))) expect(live.server.fiatAccountIds).toContain(FIAT_PATH.exec(seen.path)![1]);
    expect(await live.accounts()).toEqual(before);
  }, 60_000);

  it("of the embedded server's run, without --base-url: a fresh embedded server, named before anything is sent", async () => {
    const { io, out } = testIO();
    io.env = { CONFORMANCE_TOKEN: 'never-sent-anywhere' };
    const code = await replay([path.join(failingDir, 'conformance.json')], io);
    expect(out[0]).toMatch(/^target http:\/\/127\.0\.0\.1:\d+: a fresh embedded reference server \(fault fa-status-lowercase\), as the report's run$/);
    // The report's fault comes with it: the failure still fails.
    expect(out.join('\n')).toMatch(/✗ fa\.status\.enum\s+still fails/);
    expect(code).toBe(1);
  }, 60_000);

  it("of the embedded server's run with CONFORMANCE_BASE_URL in the environment (a .env): still a fresh embedded server, no credentials asked", async () => {
    const { io, out } = testIO();
    io.env = { CONFORMANCE_BASE_URL: live.url };
    const code = await replay([path.join(failingDir, 'conformance.json')], io);
    expect(out[0]).toBe(
      `note: CONFORMANCE_BASE_URL (${live.url}) is not used: the report's run was against the embedded server, so the replay starts a fresh one; give --base-url to replay against ${live.url}`,
    );
    expect(out[1]).toMatch(/^target http:\/\/127\.0\.0\.1:\d+: a fresh embedded reference server \(fault fa-status-lowercase\), as the report's run$/);
    expect(out.join('\n')).toMatch(/✗ fa\.status\.enum\s+still fails/);
    expect(live.seen).toEqual([]);
    expect(code).toBe(1);
    expect(live.seen).toEqual([]);
  }, 60_000);
});
