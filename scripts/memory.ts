/**
 * `npm run memory`: the peak memory of real `conformance` commands (child processes, as users run
 * them), not a test. Linux only: it reads /proc/<pid>/status.
 *
 *   npm run memory [-- --runs N --seed S]   `run` against the embedded server, --runs N (default 15000)
 *   npm run memory -- --huge [--runs N]     a loopback target whose answers are 10 MB and 100 MB
 *                                           (JSON, garbage, gzip): the run must end with its reports
 *   npm run memory -- --figures             the figures of issue 33 (the bench's memory section):
 *                                           run --runs 5000; a signed, redacted bundle of its report,
 *                                           verify of that bundle, replay of its HAR; a deep run with a signed, redacted
 *                                           bundle; verify of a gzip bomb; replay of a 95,000-entry HAR
 *
 * Prints requests, seconds, peak RSS (MB) and the exit code. The goal: under 250 MB each.
 */
import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import zlib from 'node:zlib';
import { startHugeServer } from './huge-server.ts';
import { encodeHeader } from '../src/report/files/bundle/tar-header.ts';
import { otherCase } from '../src/rules/create-identity/ref-id-scenarios.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = path.join(ROOT, 'bin/conformance.js');
const MB = 2 ** 20;
/** The bound of issue 33: every run, bundle, verify and replay within it. */
export const MEMORY_BOUND_MB = 250;

/** One line of /proc/<pid>/status in MB (VmRSS now, VmHWM the peak so far); undefined once the process is gone. */
function statusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

export interface Measured {
  exitCode: number | null;
  seconds: number;
  peakMb: number;
  /** What the command printed (the last 64 KB of each stream). */
  stdout: string;
  stderr: string;
}

/**
 * Runs `conformance <argv>` (any subcommand: `['run', '--runs', '5000']`) and samples its memory
 * every 100 ms; VmHWM keeps the peak between samples. The bench uses it too.
 */
export async function measure(argv: string[]): Promise<Measured> {
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, ...argv], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const printed = { stdout: '', stderr: '' };
  for (const stream of ['stdout', 'stderr'] as const)
    child[stream].setEncoding('utf8').on('data', (text: string) => {
      printed[stream] = (printed[stream] + text).slice(-64 * 1024);
    });
  let peakMb = 0;
  const sample = () => {
    for (const field of ['VmHWM', 'VmRSS'] as const) peakMb = Math.max(peakMb, statusMb(child.pid!, field) ?? 0);
  };
  const poll = setInterval(sample, 100);
  const exitCode = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  clearInterval(poll);
  return { exitCode, seconds: (performance.now() - started) / 1000, peakMb, ...printed };
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

// ---------------------------------------------------------------------------------------------
// The figures of issue 33

/**
 * A gzip bomb shaped as a bundle: a .tar.gz of ~400 KB whose one member, manifest.json, declares
 * `insideBytes` and holds zeros (gzip at level 9 packs a thousand zeros in a byte). Written as a
 * stream: this script holds one chunk.
 */
export async function writeGzipBomb(file: string, insideBytes = 400 * MB): Promise<number> {
  const zeros = Buffer.alloc(MB);
  async function* tar() {
    yield encodeHeader('manifest.json', insideBytes);
    for (let left = insideBytes; left > 0; left -= zeros.length) yield left >= zeros.length ? zeros : zeros.subarray(0, left);
    yield Buffer.alloc(1024);
  }
  await pipeline(tar, zlib.createGzip({ level: 9 }), createWriteStream(file));
  return (await stat(file)).size;
}

/**
 * A HAR of about `entries` entries made from a real small one (`source`, one entry a line, as
 * har-file.ts writes it): its entries again and again, each copy under a run tag of its own (the
 * recorded tag with `c<copy>` appended, in ref_ids and metadata alike, and in the other letter case
 * where a scenario flipped it), so a replay's creates stay new identities and its repeats repeats;
 * the twin links too (ownCopy). Faster than a run of that many requests; written as a
 * stream. Returns the entries written.
 */
export async function writeLargeHar(source: string, file: string, entries: number): Promise<number> {
  const lines = (await readFile(source, 'utf8')).split('\n');
  const body = lines.filter((l) => l.startsWith('{"startedDateTime"')).map((l) => l.replace(/,$/, ''));
  const tag = /"conformance_run\\":\\"(conformance-[0-9a-z-]+?)\\"/.exec(body.join('\n'))?.[1];
  if (!body.length) throw new Error(`${source}: no entries (one a line) to copy`);
  const out = createWriteStream(file);
  const write = (text: string) => (out.write(text) ? Promise.resolve() : new Promise<void>((resolve) => out.once('drain', () => resolve())));
  await write(`${lines[0]}\n`);
  let written = 0;
  for (let copy = 0; written < entries; copy++) {
    for (const line of body) {
      if (written >= entries) break;
      const own = copy ? ownCopy(line, tag, copy) : line;
      await write(`${written ? ',\n' : ''}${own}`);
      written++;
    }
  }
  await write('\n]}}\n');
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return written;
}

/**
 * An entry line of copy `copy`: its run tag (in both letter cases) and its twin links (`_case.twin`
 * and `input`, keys of the recorded file) made the copy's own, so each copy's refusals are decided
 * by the copy's own twins, as in a run as long.
 */
function ownCopy(line: string, tag: string | undefined, copy: number): string {
  const tagged = tag ? line.replaceAll(tag, `${tag}c${copy}`).replaceAll(otherCase(tag), otherCase(`${tag}c${copy}`)) : line;
  return tagged.replace(/"(twin|input)":"([A-Za-z0-9_-]+)"/g, `"$1":"$2c${copy}"`);
}

/** One figure: what was measured, how, and what it found. */
export interface Figure {
  what: string;
  command: string;
  measured: Measured;
  /** What the command's outcome was, in a few words (requests, verdict, refusal). */
  outcome: string;
}

export interface FigureSettings {
  runs: number;
  seed: number;
  harEntries: number;
  /** Where the reports, keys, bomb and HAR go (removed by the caller). */
  dir: string;
  /** Told each figure as it is measured. */
  progress?(figure: Figure): void;
}

const verdictOf = async (reportDir: string): Promise<string> => {
  const report = JSON.parse(await readFile(path.join(reportDir, 'conformance.json'), 'utf8')) as { summary: { requests: number; verdict: string } };
  return `${report.summary.requests} requests, ${report.summary.verdict}`;
};

/** The first line of the output that matches, else its last line. */
const lineOf = (stdout: string, pattern: RegExp): string => {
  const lines = stdout.split('\n').filter((l) => l.trim());
  // A refusal may quote what it read: control characters (a bomb's NULs) shown as escapes.
  const line = (lines.find((l) => pattern.test(l)) ?? lines.at(-1) ?? '').trim();
  return JSON.stringify(line).slice(1, -1).slice(0, 140);
};

/** The figures of issue 33, each a child process measured alone, one after the other. */
export async function memoryFigures(settings: FigureSettings): Promise<Figure[]> {
  const { runs, seed, harEntries: entries, dir } = settings;
  const figures: Figure[] = [];
  const add = (figure: Figure) => {
    figures.push(figure);
    settings.progress?.(figure);
  };
  const runDir = path.join(dir, 'run');
  const runArgs = ['run', '--runs', String(runs), '--seed', String(seed), '--report-dir', runDir];
  const run = await measure(runArgs);
  add({ what: `run --runs ${runs}`, command: runArgs.join(' '), measured: run, outcome: await verdictOf(runDir) });

  const keys = path.join(dir, 'keys');
  await measure(['keygen', '--out', keys]);
  // The long run's evidence: building and verifying it grow with the run (every exchange redacted, re-judged).
  const longBundle = path.join(dir, 'long.tar.gz');
  const bundled = await measure(['bundle', runDir, '--out', longBundle, '--sign-key', path.join(keys, 'private.pem'), '--redact-personal']);
  add({
    what: `bundle of the run --runs ${runs} report, signed, redacted`,
    command: 'bundle <report dir> --out long.tar.gz --sign-key KEY --redact-personal',
    measured: bundled,
    outcome: lineOf(`${bundled.stdout}\n${bundled.stderr}`, /^bundle /),
  });
  const verifiedLong = await measure(['verify', longBundle, '--public-key', path.join(keys, 'public.pem')]);
  add({
    what: 'verify of that bundle',
    command: 'verify long.tar.gz --public-key KEY',
    measured: verifiedLong,
    outcome: lineOf(`${verifiedLong.stdout}\n${verifiedLong.stderr}`, /^verified|^verify/),
  });
  const replayedLong = await measure(['replay', path.join(runDir, 'exchanges.har')]);
  add({
    what: `replay of the run --runs ${runs} HAR`,
    command: 'replay <report dir>/exchanges.har',
    measured: replayedLong,
    outcome: lineOf(replayedLong.stdout, /has the status the report gives it|statuses differ from the report/),
  });
  const deepDir = path.join(dir, 'deep');
  const bundle = path.join(dir, 'deep.tar.gz');
  const deepArgs = ['run', '--profile', 'deep', '--seed', String(seed), '--report-dir', deepDir, '--bundle', bundle];
  const deep = await measure([...deepArgs, '--sign-key', path.join(keys, 'private.pem'), '--redact-personal']);
  const bundleSize = (await stat(bundle).catch(() => undefined))?.size;
  add({
    what: 'deep run, signed redacted bundle',
    command: `${deepArgs.join(' ')} --sign-key KEY --redact-personal`,
    measured: deep,
    outcome: `${await verdictOf(deepDir)}, ${bundleSize === undefined ? `no bundle: ${lineOf(deep.stderr, /bundle/)}` : `bundle ${(bundleSize / MB).toFixed(1)} MB`}`,
  });

  const bomb = path.join(dir, 'bomb.tar.gz');
  const bombKb = ((await writeGzipBomb(bomb)) / 1024).toFixed(0);
  const verify = await measure(['verify', bomb, '--public-key', path.join(keys, 'public.pem')]);
  add({
    what: 'verify of a gzip bomb',
    command: `verify bomb.tar.gz (${bombKb} KB, 400 MB inside) --public-key KEY`,
    measured: verify,
    outcome: lineOf(`${verify.stdout}\n${verify.stderr}`, /./),
  });

  const harDir = path.join(dir, 'har');
  await mkdir(harDir);
  const har = path.join(harDir, 'exchanges.har');
  const written = await writeLargeHar(path.join(deepDir, 'exchanges.har'), har, entries);
  const harMb = ((await stat(har)).size / MB).toFixed(0);
  const replay = await measure(['replay', har]);
  add({
    what: `replay of a ${written}-entry HAR`,
    command: `replay exchanges.har (${harMb} MB, the deep run's entries copied)`,
    measured: replay,
    outcome: lineOf(replay.stdout, /^sent /),
  });
  return figures;
}

/** The figures as table rows: what, peak RSS, within the bound, wall, exit, outcome. */
export function figureRows(figures: readonly Figure[]): string[][] {
  return figures.map((f) => [
    f.what,
    `${f.measured.peakMb.toFixed(0)} MB`,
    f.measured.peakMb <= MEMORY_BOUND_MB ? 'yes' : 'NO',
    `${f.measured.seconds.toFixed(1)} s`,
    String(f.measured.exitCode),
    f.outcome,
  ]);
}

export const FIGURE_HEADINGS = ['command', 'peak RSS', `within ${MEMORY_BOUND_MB} MB`, 'wall', 'exit', 'outcome'];

// ---------------------------------------------------------------------------------------------
// The script

async function oneRun(values: { runs?: string; seed?: string; huge?: boolean; keep?: boolean }): Promise<void> {
  const huge = values.huge ?? false;
  const runs = Number(values.runs ?? (huge ? 1 : 15000));
  const seed = Number(values.seed ?? 1);
  const reportDir = await mkdtemp(path.join(tmpdir(), 'conformance-memory-'));
  const server = huge ? await startHugeServer() : undefined;
  try {
    const target = server
      ? ['--base-url', server.baseUrl, '--token', 'memory-probe-token', '--fiat-account-id', server.fiatAccountId, '--timeout', '30000']
      : [];
    const { exitCode, seconds, peakMb, stderr } = await measure(['run', ...target, '--runs', String(runs), '--seed', String(seed), '--report-dir', reportDir]);
    if (stderr.trim()) console.log(stderr.trim().slice(-2000));
    const report = JSON.parse(await readFile(path.join(reportDir, 'conformance.json'), 'utf8')) as { summary: { requests: number; verdict: string } };
    const harFile = path.join(reportDir, 'exchanges.har');
    const har = await harEntries(harFile);
    const harMb = (await stat(harFile)).size / MB;
    console.log(`${huge ? 'huge answers' : 'embedded server'}: --runs ${runs} --seed ${seed}`);
    console.log(
      `requests ${report.summary.requests}, ${seconds.toFixed(1)} s, peak RSS ${peakMb.toFixed(0)} MB, exit ${exitCode}, verdict ${report.summary.verdict}, HAR ${har.entries} entries (${harMb.toFixed(0)} MB${har.closed ? '' : ', NOT CLOSED'})`,
    );
    if (server) console.log(`target sent ${(server.bytesSent() / MB).toFixed(0)} MiB in ${server.answers()} answers`);
  } finally {
    await server?.close();
    if (values.keep) console.log(`reports kept in ${reportDir}`);
    else await rm(reportDir, { recursive: true, force: true });
  }
}

async function allFigures(values: { runs?: string; seed?: string; 'har-entries'?: string; keep?: boolean }): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'conformance-memory-'));
  try {
    const settings = { runs: Number(values.runs ?? 5000), seed: Number(values.seed ?? 1), harEntries: Number(values['har-entries'] ?? 95000), dir };
    const figures = await memoryFigures({
      ...settings,
      progress: (f) =>
        console.log(`${f.what}: peak RSS ${f.measured.peakMb.toFixed(0)} MB, ${f.measured.seconds.toFixed(1)} s, exit ${f.measured.exitCode}; ${f.outcome}`),
    });
    const rows = figureRows(figures);
    console.log(`\n${FIGURE_HEADINGS.join(' | ')}\n${rows.map((r) => r.join(' | ')).join('\n')}`);
    for (const f of figures) await writeFile(path.join(dir, `${f.what.replace(/\W+/g, '-')}.out`), `${f.measured.stdout}\n${f.measured.stderr}`);
  } finally {
    if (values.keep) console.log(`files kept in ${dir}`);
    else await rm(dir, { recursive: true, force: true });
  }
}

// Imported by the bench for measure() and memoryFigures(): the measurement itself runs only as a script.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string' },
      seed: { type: 'string' },
      huge: { type: 'boolean' },
      keep: { type: 'boolean' },
      figures: { type: 'boolean' },
      'har-entries': { type: 'string' },
    },
  });
  if (values.figures) await allFigures(values);
  else await oneRun(values);
}
