/** Runs the real `conformance` binary in a child process, as a user does. */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ConformanceReport } from '../../src/report/model/model.ts';
import { registry } from '../../src/schema/registry.ts';
import { accountsLeftChanged } from '../../src/engine/restore/restore-summary.ts';
import { EXIT } from '../../src/core/errors.ts';

const BIN = path.resolve('bin/conformance.js');

export interface BinaryResult {
  code: number;
  stdout: string;
  stderr: string;
}

const CALLER_ONLY = new Set(['FORCE_COLOR', 'NO_COLOR', 'GITHUB_ACTIONS', 'GITHUB_STEP_SUMMARY', 'GITHUB_WORKSPACE']);

export function conformance(args: string[], extraEnv: Record<string, string> = {}): Promise<BinaryResult> {
  return new Promise((resolve) => {
    // An empty environment for the CONFORMANCE_* settings, so a developer's .env cannot leak in.
    // Colour only when a test asks for it (a CI that sets FORCE_COLOR must not paint the lines tests
    // read), and GitHub Actions' annotations and step summary only when a test asks for them.
    const env = { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CONFORMANCE_') && !CALLER_ONLY.has(k))), ...extraEnv };
    execFile('node', [BIN, ...args], { env, cwd: tmpdir(), timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** The flags that point `conformance run` at a target: its base URL, a static bearer token and, when given, its fiat accounts. */
export const targetFlags = (target: { baseUrl: string; token: string }, accountIds: readonly string[] = []): string[] => [
  '--base-url',
  target.baseUrl,
  '--token',
  target.token,
  ...accountIds.flatMap((id) => ['--fiat-account-id', id]),
];

/** What a run writes into its report folder: the six report files, and the restore journal written before its first write. */
export const REPORT_FOLDER = ['conformance.json', 'created-identities.json', 'exchanges.har', 'junit.xml', 'report.html', 'restore-journal.json', 'summary.md'];

/**
 * For a target that died for good (the tests' crashed servers never restart): the restore gives up
 * at once instead of waiting the default 60 s for it, which proves nothing there.
 */
export const NO_PATIENCE = ['--restore-patience', '0'];

export const reportDir = () => mkdtempSync(path.join(tmpdir(), 'conformance-run-'));
/** conformance.json of a run, checked against its own schema on the way (the contract other tools read). */
export function readReport(dir: string): ConformanceReport {
  const report: unknown = JSON.parse(readFileSync(path.join(dir, 'conformance.json'), 'utf8'));
  const errors = registry().validate('conformance-report', report);
  if (errors.length) throw new Error(`conformance.json breaks its schema: ${JSON.stringify(errors.slice(0, 3))}`);
  return report as ConformanceReport;
}

/**
 * What a conformant run against a merging target exits with: 0, or 5 when it left the metadata
 * keys it added (no update can remove a key there), and only those (`leftOtherwise` says what else).
 */
export function conformantExit(report: ConformanceReport): { code: number; leftOtherwise: string[] } {
  const left = accountsLeftChanged(report.restore);
  const leftOtherwise = left.flatMap((a) => [
    ...(a.reason ? [`${a.id}: ${a.reason}`] : []),
    ...a.notRestored.filter((n) => !/the target merges metadata/.test(n.reason)).map((n) => `${a.id} ${n.field}: ${n.reason}`),
  ]);
  return { code: left.length ? EXIT.leftChanged : EXIT.conformant, leftOtherwise };
}
