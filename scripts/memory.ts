/**
 * `npm run memory`: the peak memory of a real `conformance run` (a child process, as users run
 * it), not a test. Linux only: it reads /proc/<pid>/status.
 *
 *   npm run memory [-- --runs N --seed S]   the embedded server, --runs N (default 15000)
 *   npm run memory -- --huge [--runs N]     a loopback target whose answers are 10 MB and 100 MB
 *                                           (JSON, garbage, gzip): the run must end with its reports
 *
 * Prints requests, seconds, peak RSS (MB) and the exit code. The goal: under 250 MB for --runs 15000.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createReadStream, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { startHugeServer } from './huge-server.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = path.join(ROOT, 'bin/conformance.js');

/** One line of /proc/<pid>/status in MB (VmRSS now, VmHWM the peak so far); undefined once the process is gone. */
function statusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Runs the CLI and samples its memory every 100 ms; VmHWM keeps the peak between samples. The bench uses it too. */
export async function measure(args: string[]): Promise<{ exitCode: number | null; seconds: number; peakMb: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, 'run', ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  let peakMb = 0;
  const sample = () => {
    for (const field of ['VmHWM', 'VmRSS'] as const) peakMb = Math.max(peakMb, statusMb(child.pid!, field) ?? 0);
  };
  const poll = setInterval(sample, 100);
  const exitCode = await new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  clearInterval(poll);
  return { exitCode, seconds: (performance.now() - started) / 1000, peakMb };
}

/** Entries of exchanges.har (one a line), read as a stream: a long run's HAR is larger than a string can be. */
async function harEntries(file: string): Promise<{ entries: number; closed: boolean }> {
  let entries = 0;
  let last = '';
  for await (const line of createInterface({ input: createReadStream(file) })) {
    if (line.startsWith('{"startedDateTime"')) entries += 1;
    if (line.trim()) last = line;
  }
  return { entries, closed: last === ']}}' };
}

// Imported by the bench for measure(): the measurement itself runs only as a script.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { runs: { type: 'string' }, seed: { type: 'string' }, huge: { type: 'boolean' }, keep: { type: 'boolean' } } });
  const huge = values.huge ?? false;
  const runs = Number(values.runs ?? (huge ? 1 : 15000));
  const seed = Number(values.seed ?? 1);
  const reportDir = await mkdtemp(path.join(tmpdir(), 'conformance-memory-'));
  const server = huge ? await startHugeServer() : undefined;
  try {
    const target = server
      ? ['--base-url', server.baseUrl, '--token', 'memory-probe-token', '--fiat-account-id', server.fiatAccountId, '--timeout', '30000']
      : [];
    const { exitCode, seconds, peakMb } = await measure([...target, '--runs', String(runs), '--seed', String(seed), '--report-dir', reportDir]);
    const report = JSON.parse(await readFile(path.join(reportDir, 'conformance.json'), 'utf8')) as { summary: { requests: number; verdict: string } };
    const harFile = path.join(reportDir, 'exchanges.har');
    const har = await harEntries(harFile);
    const harMb = (await stat(harFile)).size / 2 ** 20;
    console.log(`${huge ? 'huge answers' : 'embedded server'}: --runs ${runs} --seed ${seed}`);
    console.log(
      `requests ${report.summary.requests}, ${seconds.toFixed(1)} s, peak RSS ${peakMb.toFixed(0)} MB, exit ${exitCode}, verdict ${report.summary.verdict}, HAR ${har.entries} entries (${harMb.toFixed(0)} MB${har.closed ? '' : ', NOT CLOSED'})`,
    );
    if (server) console.log(`target sent ${(server.bytesSent() / 2 ** 20).toFixed(0)} MiB in ${server.answers()} answers`);
  } finally {
    await server?.close();
    if (values.keep) console.log(`reports kept in ${reportDir}`);
    else await rm(reportDir, { recursive: true, force: true });
  }
}
