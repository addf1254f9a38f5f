/**
 * `npm run bench`: figures for the closing notes, never a timed test. Machines are shared and
 * noisy, so each section compares two things measured in the same run: read the ratios.
 *
 *   ratio        requests/s of the harness (in process) against a bare node:http keep-alive
 *                client sending the same requests to the same embedded server, both warmed,
 *                at concurrency 1 and 10
 *   profiles     wall time of `conformance run` per profile at --rate-limit N through a proxy that
 *                holds each answer back --latency-ms, against the ideal requests/N
 *   concurrency  standard through the same proxy, no rate limit, --concurrency 1 vs 8: walls,
 *                and whether the verdict and every rule's status are the same
 *   faults       per fault of the embedded server and of its strict variant, requests until its rule first saw a problem
 *   startup      median wall time of `conformance --help` and friends against `node -e 0`
 *   memory       peak RSS of the commands of issue 33 against the 250 MB bound: run --runs 5000,
 *                a signed redacted bundle of its report, verify of it and replay of its HAR, a deep run with a signed redacted bundle, verify of a gzip bomb, replay of a
 *                95,000-entry HAR (scripts/memory.ts memoryFigures)
 *   evidence     per profile, the wall time of a run with --bundle --sign-key --redact-personal
 *                against the same run without, and of `conformance verify` on its bundle
 *   guest        what leaving the accounts as found costs: a standard run (in process, reports
 *                written, so the journal goes to disk) with the restore on and with noRestore,
 *                same seed, each on a fresh embedded server: requests of each, the restore's own
 *                (by step) and their share, wall time of each (median, interleaved rounds)
 *
 * The CLI sections spawn bin/conformance.js as users run it (after `npm run build` when the
 * package has a build script); ratio and faults run the harness in this process.
 * `npm run bench -- --help` lists the flags.
 */
import http from 'node:http';
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { statSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createReferenceServer, type ReferenceServer } from '../src/server/server.ts';
import { FAULTS } from '../src/server/faults.ts';
import { runFault, type ServerVariant } from '../src/run/fault-matrix.ts';
import { runConfig } from '../src/run/run-config.ts';
import { orchestrateRun } from '../src/run/orchestrate-run.ts';
import { PROFILES, type Profile } from '../src/engine/profiles.ts';
import { REDACTED_BEARER } from '../src/engine/transport/transport.ts';
import { bodyText, type Exchange, type RecordedRequest } from '../src/core/exchange.ts';
import { readReport } from '../src/report/model/read-report.ts';
import type { ConformanceReport } from '../src/report/model/model.ts';
import type { RestoreStep } from '../src/core/case.ts';
import { JOURNAL_FILE, loadJournal, saveJournal } from '../src/engine/restore/restore-journal.ts';
import { startLatencyProxy } from './latency-proxy.ts';
import { FIGURE_HEADINGS, figureRows, MEMORY_BOUND_MB, measure, memoryFigures } from './memory.ts';
import { cliCommands, measureStartup, median } from './startup-time.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SECTIONS = ['ratio', 'profiles', 'concurrency', 'faults', 'startup', 'memory', 'evidence', 'guest'] as const;
type Section = (typeof SECTIONS)[number];
/** The two settings the concurrency section compares. */
const COMPARED = [1, 8] as const;

const FLAGS = {
  only: { type: 'string', default: SECTIONS.join(','), help: 'sections to run, comma-separated' },
  profiles: {
    type: 'string',
    default: 'quick,standard',
    help: `profiles of the profiles and evidence sections, or "all" (${Object.keys(PROFILES).join(',')})`,
  },
  'latency-ms': { type: 'string', default: '150', help: 'delay the proxy adds to every answer (profiles, concurrency)' },
  'rate-limit': { type: 'string', default: '10', help: 'requests per second of the profiles section' },
  concurrency: { type: 'string', default: '10', help: 'harness --concurrency of the profiles section' },
  seed: { type: 'string', default: '1', help: 'seed of every run' },
  rounds: { type: 'string', default: '3', help: 'measured rounds of the ratio and guest sections (median), after one warm-up round' },
  'fault-runs': { type: 'string', default: String(PROFILES.quick), help: 'random cases per rule of each fault run' },
  'startup-runs': { type: 'string', default: '10', help: 'spawns per command of the startup section (median)' },
  'memory-runs': { type: 'string', default: '5000', help: "random cases per rule of the memory section's long run" },
  'har-entries': { type: 'string', default: '95000', help: 'entries of the HAR the memory section replays' },
  help: { type: 'boolean', default: false, help: 'show this help' },
} as const;

const { values } = parseArgs({ options: FLAGS });
if (values.help) {
  console.log('usage: npm run bench -- [flags]\n');
  for (const [name, flag] of Object.entries(FLAGS))
    console.log(`  --${name.padEnd(14)} ${flag.help}${flag.type === 'string' ? ` (default ${flag.default})` : ''}`);
  process.exit(0);
}

const only = list(values.only, SECTIONS, 'section') as Section[];
const profiles = (values.profiles === 'all' ? Object.keys(PROFILES) : list(values.profiles, Object.keys(PROFILES), 'profile')) as Profile[];
const latencyMs = whole('latency-ms', 0);
const rateLimit = whole('rate-limit', 1);
const concurrency = whole('concurrency', 1);
const seed = whole('seed', 0);
const rounds = whole('rounds', 1);
const faultRuns = whole('fault-runs', 1);
const startupRuns = whole('startup-runs', 1);
const memoryRuns = whole('memory-runs', 1);
const harEntries = whole('har-entries', 1);

function usageError(message: string): never {
  console.error(`bench: ${message} (npm run bench -- --help)`);
  process.exit(2);
}

function list(raw: string, allowed: readonly string[], what: string): string[] {
  const names = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !allowed.includes(n));
  if (unknown.length) usageError(`unknown ${what} ${unknown.join(', ')}; one of ${allowed.join(', ')}`);
  return names;
}

function whole(name: keyof typeof FLAGS, min: number): number {
  const n = Number(values[name]);
  if (!Number.isInteger(n) || n < min) usageError(`--${name} takes a whole number from ${min}, got "${values[name]}"`);
  return n;
}

// ---------------------------------------------------------------------------------------------
// Printing

/** A table: columns of figures (cells that start with a digit, or none and `(why)`) right-aligned, text left-aligned. */
function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const figures = head.map((_, i) => rows.every((r) => /^(\d|\(|-$|never$)/.test(r[i]!)));
  const line = (r: string[]) =>
    r
      .map((cell, i) => (figures[i] ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

function heading(title: string, flags: string): void {
  console.log(`\n== ${title}\n${flags}\n`);
}

const seconds = (s: number) => `${s.toFixed(1)} s`;
const times = (x: number) => `${x.toFixed(2)}x`;

// ---------------------------------------------------------------------------------------------
// 1. Harness/loopback ratio

/** One in-process standard run against `server`: the wall time of its requests, the requests as sent and their statuses. */
async function harnessRun(server: ReferenceServer, inFlight: number): Promise<{ ms: number; sent: RecordedRequest[]; statuses: number[] }> {
  const config = runConfig({
    seed,
    baseUrl: server.baseUrl,
    auth: { kind: 'static', token: server.staticToken },
    fiatAccountIds: server.fiatAccountIds,
    concurrency: inFlight,
  });
  const sent: RecordedRequest[] = [];
  const statuses: number[] = [];
  const record = (exchange: Exchange) => {
    sent.push(exchange.request);
    statuses.push(exchange.response?.status ?? 0);
  };
  // The reachability probe is not part of the run's pace: timed from connected to finished.
  let started = 0;
  let ms = 0;
  const { error } = await orchestrateRun(config, {
    reports: false,
    hooks: {
      connected: () => {
        started = performance.now();
      },
      listeners: () => ({ before: [(event) => void (event.type === 'exchange' && record(event.exchange))] }),
      finished: () => {
        ms = performance.now() - started;
      },
    },
  });
  if (error) throw error;
  return { ms, sent, statuses };
}

/**
 * The requests a harness run sent, ready to send again: the real token for the redacted one, and
 * a fresh run tag in the ref_ids (a ref_id the server saw would get a cheaper 409 instead of the
 * create). The tag keeps its length, so every body stays as valid or invalid as it was.
 */
function replayable(sent: RecordedRequest[], token: string, round: number): { url: string; method: string; headers: Record<string, string>; body?: string }[] {
  const refId = sent
    .map((r) => (r.body as { ref_id?: unknown } | undefined)?.ref_id)
    .find((id): id is string => typeof id === 'string' && id.startsWith('conformance-'));
  const tag = refId?.replace(/-\d+$/, '');
  const fresh = tag ? tag.slice(0, -4) + round.toString(16).padStart(4, '0') : '';
  return sent.map((r) => {
    const { host: _host, 'content-length': _length, connection: _connection, ...headers } = r.headers;
    if (headers.authorization === REDACTED_BEARER) headers.authorization = `Bearer ${token}`;
    const body = bodyText(r);
    return { url: r.url, method: r.method, headers, ...(body !== undefined ? { body: tag ? body.replaceAll(tag, fresh) : body } : {}) };
  });
}

/** Sends `requests` with `inFlight` keep-alive sockets, each taking the next request when its answer is in. */
async function bareClient(requests: ReturnType<typeof replayable>, inFlight: number): Promise<{ ms: number; statuses: number[] }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: inFlight });
  const statuses: number[] = [];
  const send = (r: (typeof requests)[number], i: number) =>
    new Promise<void>((resolve, reject) => {
      const req = http.request(r.url, { method: r.method, headers: r.headers, agent }, (res) => {
        statuses[i] = res.statusCode ?? 0;
        res.resume().on('end', resolve);
      });
      req.on('error', reject);
      req.end(r.body);
    });
  let next = 0;
  const lane = async () => {
    while (next < requests.length) {
      const i = next++;
      await send(requests[i]!, i);
    }
  };
  try {
    const started = performance.now();
    await Promise.all(Array.from({ length: inFlight }, lane));
    return { ms: performance.now() - started, statuses };
  } finally {
    agent.destroy();
  }
}

async function ratioSection(): Promise<void> {
  heading(
    'harness vs bare node:http client, same requests, same embedded server (requests/s)',
    `bench flags: --seed ${seed} --rounds ${rounds}; harness: in-process standard run (runs=${PROFILES.standard}); one warm-up round of each, then the median of ${rounds}`,
  );
  const server = await createReferenceServer();
  const rows: string[][] = [];
  let replays = 0;
  try {
    for (const inFlight of [1, 10]) {
      const harness: number[] = [];
      const bare: number[] = [];
      let requests = 0;
      let sameStatus = 0;
      for (let round = 0; round <= rounds; round++) {
        const run = await harnessRun(server, inFlight);
        const replay = await bareClient(replayable(run.sent, server.staticToken, ++replays), inFlight);
        if (round === 0) continue; // warm-up: JIT, sockets, the server's stores
        requests = run.sent.length;
        // The replay must ask the server for the same work: its answers' statuses say whether it did.
        sameStatus = run.statuses.filter((status, i) => replay.statuses[i] === status).length;
        harness.push(requests / (run.ms / 1000));
        bare.push(requests / (replay.ms / 1000));
      }
      const [h, b] = [median(harness), median(bare)];
      rows.push([`concurrency ${inFlight}`, String(requests), `${sameStatus}/${requests}`, h.toFixed(0), b.toFixed(0), times(h / b)]);
    }
  } finally {
    await server.close();
  }
  console.log(table(['', 'requests', 'same status', 'harness req/s', 'bare req/s', 'harness/bare'], rows));
}

// ---------------------------------------------------------------------------------------------
// 2. Profiles and concurrency through the latency proxy (the real CLI, a child process)

interface CliRun {
  seconds: number;
  exitCode: number | null;
  peakMb: number;
  report: ConformanceReport;
}

/** `conformance run` with `flags`; `throughProxy`: against a fresh embedded server behind the latency proxy, else the CLI's own embedded server. */
async function cliRun(flags: string[], throughProxy: boolean): Promise<CliRun> {
  const reportDir = await mkdtemp(path.join(tmpdir(), 'conformance-bench-'));
  const server = throughProxy ? await createReferenceServer() : undefined;
  const proxy = server ? await startLatencyProxy(server.baseUrl, latencyMs) : undefined;
  try {
    const target =
      server && proxy ? ['--base-url', proxy.url, '--token', server.staticToken, ...server.fiatAccountIds.flatMap((id) => ['--fiat-account-id', id])] : [];
    const outcome = await measure(['run', ...target, ...flags, '--seed', String(seed), '--report-dir', reportDir]);
    return { ...outcome, report: await readReport(path.join(reportDir, 'conformance.json')) };
  } finally {
    await proxy?.close();
    await server?.close();
    await rm(reportDir, { recursive: true, force: true });
  }
}

const TARGET_FLAGS = '--base-url <proxy> --token <token> --fiat-account-id <id>...';

async function profilesSection(): Promise<void> {
  heading(
    `wall time per profile at --rate-limit ${rateLimit}, every answer ${latencyMs} ms late`,
    `bench flags: --profiles ${profiles.join(',')} --latency-ms ${latencyMs} --rate-limit ${rateLimit} --concurrency ${concurrency} --seed ${seed}\n` +
      `each: node bin/conformance.js run ${TARGET_FLAGS} --rate-limit ${rateLimit} --concurrency ${concurrency} --profile P --seed ${seed} --report-dir <tmp>`,
  );
  const rows: string[][] = [];
  for (const profile of profiles) {
    const run = await cliRun(['--rate-limit', String(rateLimit), '--concurrency', String(concurrency), '--profile', profile], true);
    const requests = run.report.summary.requests;
    const ideal = requests / rateLimit;
    rows.push([
      profile,
      String(requests),
      seconds(run.seconds),
      seconds(ideal),
      times(run.seconds / ideal),
      `${run.report.summary.verdict} (exit ${run.exitCode})`,
    ]);
  }
  console.log(table(['profile', 'requests', 'wall', `requests/${rateLimit}`, 'wall/ideal', 'verdict'], rows));
}

/** Rule ids whose status differs between two reports (a rule missing from one counts). */
function statusDifferences(a: ConformanceReport, b: ConformanceReport): string[] {
  const statusOf = (report: ConformanceReport) => new Map(report.rules.map((r) => [r.id, r.status]));
  const [sa, sb] = [statusOf(a), statusOf(b)];
  const ids = new Set([...sa.keys(), ...sb.keys()]);
  return [...ids].filter((id) => sa.get(id) !== sb.get(id)).map((id) => `${id}: ${sa.get(id) ?? 'absent'} vs ${sb.get(id) ?? 'absent'}`);
}

async function concurrencySection(): Promise<void> {
  heading(
    `standard, no rate limit, every answer ${latencyMs} ms late: --concurrency ${COMPARED.join(' vs ')}`,
    `bench flags: --latency-ms ${latencyMs} --seed ${seed}\n` +
      `each: node bin/conformance.js run ${TARGET_FLAGS} --rate-limit 0 --concurrency C --profile standard --seed ${seed} --report-dir <tmp>`,
  );
  const runs: CliRun[] = [];
  for (const c of COMPARED) runs.push(await cliRun(['--rate-limit', '0', '--concurrency', String(c), '--profile', 'standard'], true));
  const [one, many] = runs as [CliRun, CliRun];
  const rows = runs.map((run, i) => [
    `--concurrency ${COMPARED[i]}`,
    String(run.report.summary.requests),
    seconds(run.seconds),
    `${run.report.summary.verdict} (exit ${run.exitCode})`,
  ]);
  console.log(table(['', 'requests', 'wall', 'verdict'], rows));
  const differences = statusDifferences(one.report, many.report);
  console.log(`\nwall ${COMPARED[0]}/${COMPARED[1]}: ${times(one.seconds / many.seconds)}`);
  console.log(`same verdict: ${one.report.summary.verdict === many.report.summary.verdict ? 'yes' : 'NO'}`);
  console.log(
    `same status for every rule: ${differences.length ? `NO, ${differences.length} differ:\n  ${differences.join('\n  ')}` : `yes (${one.report.rules.length} rules)`}`,
  );
}

// ---------------------------------------------------------------------------------------------
// 3. Requests per detection, per fault (in process)

async function faultsSection(): Promise<void> {
  heading(
    "requests until the fault's rule first saw a problem, on the plain embedded server and on its strict variant",
    `bench flags: --fault-runs ${faultRuns} --seed ${seed}; each fault: an in-process run of the embedded server with the fault (strict for convention rules)`,
  );
  const rows: string[][] = [];
  const firsts: Record<ServerVariant, number[]> = { plain: [], strict: [] };
  const caught: Record<ServerVariant, number> = { plain: 0, strict: 0 };
  for (const fault of FAULTS) {
    const row = [fault.name, fault.ruleId];
    for (const server of ['plain', 'strict'] as const) {
      const o = await runFault(fault, faultRuns, seed, server);
      if (o.firstDetectionAt !== undefined) firsts[server].push(o.firstDetectionAt);
      if (o.blocks || o.hidden) caught[server] += 1;
      // Faults judged as a whole (inconclusive, unreachable) have no first failing request.
      const first = o.hidden ? 'n/a (hidden)' : o.firstDetectionAt !== undefined ? String(o.firstDetectionAt) : o.detected ? `(${fault.expect})` : 'never';
      row.push(o.hidden ? first : `${first} of ${o.requests}${o.blocks ? '' : '  NOT BLOCKING'}`);
    }
    rows.push(row);
  }
  console.log(table(['fault', 'rule', 'plain: first of requests', 'strict: first of requests'], rows));
  for (const server of ['plain', 'strict'] as const) {
    const f = firsts[server];
    console.log(
      `${server}: caught ${caught[server]}/${FAULTS.length}; first detection (${f.length} faults with a first failing request): median ${f.length ? median(f) : '-'}, max ${f.length ? Math.max(...f) : '-'} requests`,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// 4. Start-up, 5. peak memory

function startupSection(): void {
  heading('start-up wall time', `bench flags: --startup-runs ${startupRuns}; median of ${startupRuns} spawns each, interleaved, after one warm-up spawn`);
  const timings = measureStartup(cliCommands(ROOT), { runs: startupRuns, cwd: ROOT });
  console.log(
    table(
      ['command', 'median', 'vs node -e 0'],
      timings.map((t) => [t.label, `${t.medianMs.toFixed(0)} ms`, times(t.ratio)]),
    ),
  );
}

/**
 * The figures of issue 33, each a child process measured alone (scripts/memory.ts): a long
 * run, its signed redacted bundle, verify of it and replay of its HAR, a deep run with a signed redacted bundle, verify of a gzip bomb, replay of a large HAR.
 */
async function memorySection(): Promise<void> {
  heading(
    `peak memory of the CLI, bound ${MEMORY_BOUND_MB} MB (peak RSS: VmHWM of /proc/PID/status, polled every 100 ms)`,
    `bench flags: --memory-runs ${memoryRuns} --har-entries ${harEntries} --seed ${seed}\n` +
      `1. node bin/conformance.js run --runs ${memoryRuns} --seed ${seed} --report-dir <tmp>  (embedded server)\n` +
      `1b. node bin/conformance.js bundle <1's report dir> --out long.tar.gz --sign-key <keygen's> --redact-personal; then verify long.tar.gz --public-key <keygen's>; then replay <1's report dir>/exchanges.har\n` +
      `2. node bin/conformance.js run --profile deep --seed ${seed} --report-dir <tmp> --bundle <tmp>.tar.gz --sign-key <keygen's> --redact-personal\n` +
      "3. node bin/conformance.js verify bomb.tar.gz --public-key <keygen's>: a .tar.gz of ~400 KB, one member declaring 400 MB of zeros (made by the script)\n" +
      `4. node bin/conformance.js replay exchanges.har: ${harEntries} entries, the deep run's copied (each copy under its own run tag), to a fresh embedded server`,
  );
  const dir = await mkdtemp(path.join(tmpdir(), 'conformance-bench-memory-'));
  try {
    const figures = await memoryFigures({ runs: memoryRuns, seed, harEntries, dir });
    console.log(table(FIGURE_HEADINGS, figureRows(figures)));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// 6. Evidence: what a signed, redacted bundle adds to a run, and what verifying it costs

async function evidenceSection(): Promise<void> {
  heading(
    'evidence bundle per profile, embedded server',
    `bench flags: --profiles ${profiles.join(',')} --seed ${seed}\n` +
      `each: node bin/conformance.js run --profile P --seed ${seed} --report-dir <tmp> [--bundle <tmp>.tar.gz --sign-key <key> --redact-personal]; ` +
      'then node bin/conformance.js verify <bundle> --public-key <key> (re-judges every recorded exchange)',
  );
  const dir = await mkdtemp(path.join(tmpdir(), 'conformance-bench-evidence-'));
  try {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const [signKey, verifyKey] = [path.join(dir, 'private.pem'), path.join(dir, 'public.pem')];
    await writeFile(signKey, privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, { mode: 0o600 });
    await writeFile(verifyKey, publicKey.export({ type: 'spki', format: 'pem' }) as string);
    const rows: string[][] = [];
    for (const profile of profiles) {
      const bundle = path.join(dir, `${profile}.tar.gz`);
      const plain = await cliRun(['--profile', profile], false);
      const bundled = await cliRun(['--profile', profile, '--bundle', bundle, '--sign-key', signKey, '--redact-personal'], false);
      const started = process.hrtime.bigint();
      const verified = spawnSync(process.execPath, [path.join(ROOT, 'bin/conformance.js'), 'verify', bundle, '--public-key', verifyKey], { encoding: 'utf8' });
      const verifySeconds = Number(process.hrtime.bigint() - started) / 1e9;
      rows.push([
        profile,
        String(bundled.report.summary.requests),
        seconds(plain.seconds),
        seconds(bundled.seconds),
        times(bundled.seconds / plain.seconds),
        `${(statSync(bundle).size / 1024).toFixed(0)} KiB`,
        seconds(verifySeconds),
        verified.status === 0 ? 'verified' : `exit ${verified.status}: ${verified.stderr.trim()}`,
      ]);
    }
    console.log(table(['profile', 'requests', 'run', 'run + bundle', 'ratio', 'bundle', 'verify', 'verify says'], rows));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// 7. Guest: the journal, the verification and the restore, against the same run without them

interface GuestRun {
  report: ConformanceReport;
  /** From connected to finished: the cases, the restore (start reads before, the rest after) and the report files. */
  ms: number;
  /**
   * Around the cases, where the restore works: connected to the first case sent (the start reads,
   * the journal), and the last case answered to finished (the end reads, write-backs, read-backs,
   * the journal, and the report files both runs write). Free of the noise of 900 cases.
   */
  aroundMs: [number, number];
  /** The restore's requests by step, and the time they took (their own durations, summed). */
  steps: Map<RestoreStep, number>;
  restoreMs: number;
  /** The journal's writes, timed again on the journal the run left: one after the start reads, one per account restored. */
  journalMs: number;
}

/** One in-process standard run on a fresh embedded server, reports written (the journal is a file in the report folder). */
async function guestRun(noRestore: boolean): Promise<GuestRun> {
  const server = await createReferenceServer();
  const reportDir = await mkdtemp(path.join(tmpdir(), 'conformance-bench-guest-'));
  const steps = new Map<RestoreStep, number>();
  let [started, ms, restoreMs] = [0, 0, 0];
  // Wall-clock times (exchanges carry theirs as dates): connected, first case sent, last case answered, finished.
  const at = { connected: 0, firstCase: Infinity, lastCase: 0, finished: 0 };
  const count = (e: Exchange) => {
    const sent = Date.parse(e.startedAt);
    if (!e.testCase.restore) {
      at.firstCase = Math.min(at.firstCase, sent);
      at.lastCase = Math.max(at.lastCase, sent + e.durationMs);
      return;
    }
    steps.set(e.testCase.restore, (steps.get(e.testCase.restore) ?? 0) + 1);
    restoreMs += e.durationMs;
  };
  try {
    const config = runConfig({
      seed,
      profile: 'standard',
      baseUrl: server.baseUrl,
      auth: { kind: 'static', token: server.staticToken },
      fiatAccountIds: server.fiatAccountIds,
      reportDir,
      noRestore,
    });
    const { report, error } = await orchestrateRun(config, {
      reports: true,
      hooks: {
        connected: () => {
          started = performance.now();
          at.connected = Date.now();
        },
        listeners: () => ({ before: [(event) => void (event.type === 'exchange' && count(event.exchange))] }),
        finished: () => {
          ms = performance.now() - started;
          at.finished = Date.now();
        },
      },
    });
    if (error) throw error;
    const aroundMs: [number, number] = [at.firstCase - at.connected, at.finished - at.lastCase];
    return { report, ms, aroundMs, steps, restoreMs, journalMs: await journalWrites(reportDir) };
  } finally {
    await server.close();
    await rm(reportDir, { recursive: true, force: true });
  }
}

/**
 * The time the run's journal writes take, each durable (fsync of the file and of its folder):
 * saveJournal as the restore calls it, on the journal the run left, once after the start reads and
 * once per account restored. 0 when there is no journal (noRestore).
 */
async function journalWrites(reportDir: string): Promise<number> {
  const file = path.join(reportDir, JOURNAL_FILE);
  const journal = await loadJournal(file).catch(() => undefined);
  if (!journal) return 0;
  const again = path.join(reportDir, `again-${JOURNAL_FILE}`);
  const started = performance.now();
  for (let i = 0; i <= journal.accounts.length; i++) await saveJournal(again, journal);
  return performance.now() - started;
}

async function guestSection(): Promise<void> {
  heading(
    'the careful guest: a standard run with the restore (journal, verified restore) against the same run with noRestore',
    `bench flags: --seed ${seed} --rounds ${rounds}; each: an in-process standard run (runs=${PROFILES.standard}, seed ${seed}) on a fresh embedded server, reports written; ` +
      `one warm-up round, then ${rounds} rounds, on and off interleaved (first in turn); wall: median, from connected to finished`,
  );
  const on: GuestRun[] = [];
  const off: GuestRun[] = [];
  for (let round = 0; round <= rounds; round++) {
    // Which goes first alternates, so that neither always pays for the other's garbage.
    const first = round % 2 === 0;
    const a = await guestRun(!first);
    const b = await guestRun(first);
    if (round === 0) continue; // warm-up
    on.push(first ? a : b);
    off.push(first ? b : a);
  }
  const last = on.at(-1)!;
  const requests = (runs: GuestRun[]) => runs.at(-1)!.report.summary.requests;
  const restoreRequests = last.report.restore?.requests ?? 0;
  const wall = (runs: GuestRun[]) => median(runs.map((r) => r.ms));
  const ms = (x: number) => `${x.toFixed(0)} ms`;
  const around = (runs: GuestRun[], i: 0 | 1) => median(runs.map((r) => r.aroundMs[i]));
  const row = (label: string, runs: GuestRun[]) => {
    const report = runs.at(-1)!.report;
    const own = report.restore?.requests ?? 0;
    return [
      label,
      String(report.summary.requests),
      String(own),
      `${((100 * own) / report.summary.requests).toFixed(2)} %`,
      ms(wall(runs)),
      ms(around(runs, 0)),
      ms(around(runs, 1)),
      report.summary.verdict,
    ];
  };
  console.log(
    table(
      ['', 'requests', 'restore requests', 'share', 'wall (median)', 'before 1st case', 'after last case', 'verdict'],
      [row('restore on', on), row('noRestore', off)],
    ),
  );
  const steps = [...last.steps].map(([step, n]) => `${step} ${n}`).join(', ');
  const cost = around(on, 0) + around(on, 1) - around(off, 0) - around(off, 1);
  console.log(`\nrestore requests by step: ${steps || 'none'} (report.restore.requests ${restoreRequests}; ${last.report.restore?.note ?? 'no restore'})`);
  console.log(`requests on - off: ${requests(on) - requests(off)}; wall on/off (whole runs, noisy): ${times(wall(on) / wall(off))}`);
  console.log(
    `the restore's wall within the run (before + after the cases, on - off): ${ms(cost)}, ${((100 * cost) / wall(on)).toFixed(1)} % of the run's wall; ` +
      `of it, its requests' own time ${ms(median(on.map((r) => r.restoreMs)))} and the journal's ${last.report.restore?.accounts.length ?? 0} + 1 fsynced writes ${ms(median(on.map((r) => r.journalMs)))}`,
  );
}

// ---------------------------------------------------------------------------------------------

/** The CLI runs dist/ when the package builds one: build it, so the figures are of the sources here. */
async function build(): Promise<void> {
  const { scripts } = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
  if (!scripts?.build) return;
  // Its output only matters when it fails (tsc prints its errors on stdout).
  const result = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, encoding: 'utf8' });
  if (result.status !== 0)
    console.log(`${result.stdout}${result.stderr}warning: npm run build exited ${result.status}; the CLI sections measure dist/ as it stands`);
}

// Which sources the figures are of: others may be editing the working tree.
const tree = spawnSync('git', ['describe', '--always', '--dirty'], { cwd: ROOT, encoding: 'utf8' }).stdout?.trim() || 'not a git checkout';
console.log(`npm run bench -- --only ${only.join(',')} --profiles ${profiles.join(',')}  (${tree}, node ${process.version}, ${new Date().toISOString()})`);
if (only.some((s) => s === 'profiles' || s === 'concurrency' || s === 'startup' || s === 'memory' || s === 'evidence')) await build();
const RUN: Record<Section, () => void | Promise<void>> = {
  ratio: ratioSection,
  profiles: profilesSection,
  concurrency: concurrencySection,
  faults: faultsSection,
  startup: startupSection,
  memory: memorySection,
  evidence: evidenceSection,
  guest: guestSection,
};
for (const section of SECTIONS) if (only.includes(section)) await RUN[section]();
