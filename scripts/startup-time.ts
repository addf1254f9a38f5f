/**
 * Start-up time of the CLI: spawns each command N times and prints the median wall time and its
 * ratio to `node -e 0` (machines are noisy; the ratio is what compares across them).
 *
 *   npm run startup-time [-- --runs N --root DIR]     (builds dist/ first)
 *   node --import tsx scripts/startup-time.ts [--runs N] [--root DIR]
 *
 * --root measures another checkout (e.g. a clone of an older commit). `measureStartup()` is
 * exported for the bench script.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

export interface StartupCommand {
  label: string;
  /** Arguments to `node` (the script and its arguments). */
  args: string[];
}

export interface StartupTiming {
  label: string;
  medianMs: number;
  /** medianMs over the median of `node -e 0` in the same measurement. */
  ratio: number;
}

const BASELINE: StartupCommand = { label: 'node -e 0', args: ['-e', '0'] };

/** The commands of the issue: help, a command's help, and a command that reads the schemas. */
export function cliCommands(root: string): StartupCommand[] {
  const bin = path.join(root, 'bin/conformance.js');
  return [
    { label: 'conformance --help', args: [bin, '--help'] },
    { label: 'conformance run --help', args: [bin, 'run', '--help'] },
    { label: 'conformance validate --list', args: [bin, 'validate', '--list'] },
  ];
}

function wallMs(command: StartupCommand, cwd: string): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, command.args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = performance.now() - started;
  // A command that fails measures its failure, not its start-up.
  if (result.status !== 0) throw new Error(`${command.label} exited ${result.status}: ${result.stderr.toString().trim()}`);
  return ms;
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/**
 * Median wall time of each command over `runs` spawns, `node -e 0` first as the baseline.
 * Runs are interleaved (one of each command per round) so a slow spell of the machine hits
 * every command alike; one warm-up round fills the file cache first.
 */
export function measureStartup(commands: StartupCommand[], options: { runs?: number; cwd?: string } = {}): StartupTiming[] {
  const runs = options.runs ?? 10;
  const cwd = options.cwd ?? process.cwd();
  const all = [BASELINE, ...commands];
  for (const command of all) wallMs(command, cwd);
  const samples = all.map(() => [] as number[]);
  for (let round = 0; round < runs; round++) for (const [i, command] of all.entries()) samples[i]!.push(wallMs(command, cwd));
  const medians = samples.map(median);
  return all.map((command, i) => ({ label: command.label, medianMs: medians[i]!, ratio: medians[i]! / medians[0]! }));
}

export function formatTimings(timings: StartupTiming[]): string {
  const width = Math.max(...timings.map((t) => t.label.length));
  return timings.map((t) => `${t.label.padEnd(width)}  ${t.medianMs.toFixed(0).padStart(6)} ms  ${t.ratio.toFixed(2)}x`).join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { runs: { type: 'string' }, root: { type: 'string' } } });
  const root = path.resolve(values.root ?? fileURLToPath(new URL('..', import.meta.url)));
  const runs = Number(values.runs ?? 10);
  console.log(`median of ${runs} runs, ${root}`);
  console.log(formatTimings(measureStartup(cliCommands(root), { runs, cwd: root })));
}
