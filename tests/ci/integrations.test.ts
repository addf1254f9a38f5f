/**
 * The GitHub Action and the CI templates: they parse, every setting they pass is a real flag of
 * `conformance run` (through its environment twin), and the action's run step, executed here as
 * GitHub would, records the verdict and exit code and still lets the reports be uploaded.
 */
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { RUN_OPTIONS } from '../../src/run/run-config.ts';

const repo = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => parse(readFileSync(path.join(repo, file), 'utf8'));
const ENV_TWINS = new Set<string>(Object.values(RUN_OPTIONS).flatMap((o) => ('env' in o ? [o.env] : [])));

interface Step {
  id?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}
const action = read('action.yml') as {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
};
const runStep = action.runs.steps.find((s) => s.id === 'run')!;

/** The `inputs.x` a text refers to, in expressions and `if:` conditions. */
const inputRefs = (text: string): string[] => [...text.matchAll(/\binputs\.([\w-]+)/g)].map((m) => m[1]!);

describe('action.yml', () => {
  it('is a composite action whose run step passes only environment twins of real flags', () => {
    expect(action.runs.using).toBe('composite');
    const passed = Object.keys(runStep.env!).filter((k) => k.startsWith('CONFORMANCE_') && k !== 'CONFORMANCE_BIN');
    expect(passed.filter((k) => !ENV_TWINS.has(k))).toEqual([]);
    expect(passed).toEqual(
      expect.arrayContaining([
        'CONFORMANCE_BASE_URL',
        'CONFORMANCE_TOKEN',
        'CONFORMANCE_CLIENT_SECRET',
        'CONFORMANCE_PROFILE',
        'CONFORMANCE_REPORT_DIR',
        'CONFORMANCE_SHARD',
      ]),
    );
  });

  /** The inputs that are not settings of the run: how the action installs, runs and uploads. */
  const ACTION_ONLY = ['upload-reports', 'artifact-name', 'package', 'node-version'];
  /** What the action promises its users (README, issue 11): each is an input named as the run's flag. */
  const PROMISED = [
    'base-url',
    'token',
    'auth-url',
    'client-id',
    'client-secret',
    'scope',
    'fiat-account-id',
    'profile',
    'seed',
    'strict',
    'shard',
    'report-dir',
    'rule',
  ];
  /** The flag of an environment twin, e.g. CONFORMANCE_FIAT_ACCOUNT_IDS -> fiat-account-id. */
  const flagOfTwin = new Map<string, string>(Object.entries(RUN_OPTIONS).flatMap(([flag, o]) => ('env' in o ? [[o.env, flag] as [string, string]] : [])));

  it('maps each input to the environment twin of the flag of its name, and offers every promised flag', () => {
    const mapped = new Map<string, string>();
    for (const [name, value] of Object.entries(runStep.env!)) {
      const input = /^\$\{\{\s*inputs\.([\w-]+)\s*\}\}$/.exec(value)?.[1];
      if (!input) continue;
      const flag = flagOfTwin.get(name);
      expect(flag, `${name} is no environment twin of a run flag`).toBeDefined();
      // A repeatable flag's input takes a comma-separated list, so its name is the plural.
      const multiple = (RUN_OPTIONS[flag as keyof typeof RUN_OPTIONS] as { multiple?: boolean }).multiple === true;
      expect(input, `input ${input} feeds ${name}, the twin of --${flag}`).toBe(multiple ? `${flag}s` : flag);
      mapped.set(flag!, input);
    }
    expect(PROMISED.filter((flag) => !mapped.has(flag))).toEqual([]);
    // Every input is a run setting or one of the action's own: a new input must be either.
    const settings = new Set(mapped.values());
    expect(Object.keys(action.inputs).filter((name) => !settings.has(name) && !ACTION_ONLY.includes(name))).toEqual([]);
  });

  it('declares every input it uses, and uses every input it declares', () => {
    const used = new Set(inputRefs(readFileSync(path.join(repo, 'action.yml'), 'utf8')));
    expect([...used].filter((name) => !(name in action.inputs))).toEqual([]);
    expect(Object.keys(action.inputs).filter((name) => !used.has(name))).toEqual([]);
  });

  it('uploads the reports whatever the verdict, then fails the step on a non-zero exit code', () => {
    const upload = action.runs.steps.find((s) => s.uses?.startsWith('actions/upload-artifact'))!;
    expect(upload).toMatchObject({ if: expect.stringContaining('always()') });
    const last = action.runs.steps.at(-1)!;
    expect(last).toMatchObject({ if: 'always()' });
    expect(last.run).toContain('exit');
  });

  async function runStepAs(inputs: Record<string, string>): Promise<{ outputs: Record<string, string>; log: string }> {
    const temp = mkdtempSync(path.join(tmpdir(), 'action-run-'));
    const outputFile = path.join(temp, 'github-output');
    const withDefaults = { ...Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, v.default ?? ''])), ...inputs };
    // GitHub substitutes the expressions of the step's env before the script runs.
    const env = Object.fromEntries(
      Object.entries(runStep.env!).map(([k, v]) => [
        k,
        v
          .replace(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g, (_, name: string) => withDefaults[name] ?? '')
          .replace(/\$\{\{[^}]*\}\}/g, path.join(repo, 'bin/conformance.js')),
      ]),
    );
    const run = await promisify(execFile)('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', runStep.run!], {
      cwd: temp,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, RUNNER_TEMP: temp, GITHUB_OUTPUT: outputFile, ...env },
    });
    const outputs = Object.fromEntries(
      readFileSync(outputFile, 'utf8')
        .trim()
        .split('\n')
        .map((line) => line.split('=', 2) as [string, string]),
    );
    return { outputs, log: run.stdout + run.stderr };
  }

  it('runs: a conformant run records verdict and exit code 0', async () => {
    const { outputs } = await runStepAs({ profile: 'quick', rules: 'fa.metadata', seed: '5' });
    expect(outputs).toEqual({ 'exit-code': '0', verdict: 'conformant', 'report-dir': 'conformance-reports' });
  });

  it('runs: the bundle inputs write a redacted evidence bundle where the upload takes it', async () => {
    const { outputs, log } = await runStepAs({ profile: 'quick', rules: 'fa.metadata', seed: '5', bundle: 'evidence.tar.gz', 'redact-personal': 'true' });
    expect(outputs['exit-code']).toBe('0');
    expect(log).toMatch(/bundle: evidence\.tar\.gz, unsigned: .*personal values replaced by stand-ins/);
    const upload = action.runs.steps.find((s) => s.uses?.startsWith('actions/upload-artifact'))!;
    expect(inputRefs(upload.with!.path!)).toEqual(['report-dir', 'bundle']);
  });

  it('runs: a configuration error records exit code 2 and verdict error, without failing before the upload', async () => {
    const { outputs, log } = await runStepAs({ 'base-url': 'https://sandbox.example.com', token: 'not-shown' });
    expect(outputs['exit-code']).toBe('2');
    expect(outputs.verdict).toBe('error');
    expect(log).toContain('fiat account id');
    expect(log).not.toContain('not-shown');
  });
});

describe('CI templates', () => {
  it('the GitHub workflow uses the action with inputs it declares', () => {
    const workflow = read('examples/ci/github-workflow.yml') as { jobs: Record<string, { steps: Step[] }> };
    const step = Object.values(workflow.jobs)[0]!.steps.find((s) => s.uses?.endsWith('fiat-identity-conformance@v0.1.0'))!;
    expect(Object.keys(step.with!).filter((name) => !(name in action.inputs))).toEqual([]);
  });

  it('the GitLab job sets real environment twins and hands junit.xml to GitLab', () => {
    const gitlab = read('examples/ci/gitlab-ci.yml') as {
      conformance: { variables: Record<string, string>; script: string[]; artifacts: { when: string; reports: { junit: string } } };
    };
    const job = gitlab.conformance;
    // HARNESS_PACKAGE is what npm installs (tests/ci/install-lines.test.ts), not a run setting.
    expect(Object.keys(job.variables).filter((k) => !ENV_TWINS.has(k) && k !== 'HARNESS_PACKAGE')).toEqual([]);
    expect(job.artifacts.when).toBe('always');
    expect(job.artifacts.reports.junit).toBe(`${job.variables.CONFORMANCE_REPORT_DIR}/junit.xml`);
    expect(job.script.join('\n')).toMatch(/conformance(@[\d.]+)? run/);
  });
});
