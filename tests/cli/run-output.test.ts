/**
 * What `conformance run` prints, by option: --list-rules (text and JSON, nothing sent), --quiet,
 * --json (one JSON value on stdout), and colour by NO_COLOR / FORCE_COLOR; the real binary in a
 * child process (its stdout and stderr are pipes, not terminals).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { conformance, readReport, reportDir, targetFlags } from './binary.ts';
import { selectRules } from '../../src/engine/plan.ts';
import { RULES } from '../../src/core/catalogue.ts';

const ESC = '\u001b[';
/** A quick run of a few rules against the embedded server. */
const QUICK = ['run', '--profile', 'quick', '--seed', '11', '--rule', 'fa.status'];

describe('conformance run --list-rules', () => {
  it('prints every rule, id, section, basis and title, one a line under a header; sends nothing, writes nothing', async () => {
    const dir = path.join(reportDir(), 'never');
    // A remote target without credentials: a run would refuse it; a list needs none.
    const { code, stdout, stderr } = await conformance(['run', '--list-rules', '--base-url', 'http://127.0.0.1:9', '--report-dir', dir]);
    expect(code, stderr).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^rule\s+section\s+basis\s+title$/);
    expect(lines).toHaveLength(RULES.length + 1);
    const first = RULES[0];
    expect(lines[1]).toMatch(new RegExp(`^${first.id.replace(/\./g, '\\.')}\\s+§${first.section.replace(/\./g, '\\.')}\\s+${first.basis}\\s+`));
    expect(lines[1].endsWith(first.title)).toBe(true);
    expect(existsSync(dir)).toBe(false);
  });

  it('honours --rule, and with --json prints one JSON array of the rules', async () => {
    const { code, stdout } = await conformance(['run', '--list-rules', '--rule', 'id.tax', '--rule', 'fa.metadata', '--json']);
    expect(code).toBe(0);
    const listed = JSON.parse(stdout) as { id: string; section: string; basis: string; title: string; operation: string }[];
    const expected = selectRules(['id.tax', 'fa.metadata']);
    expect(listed.map((r) => r.id)).toEqual(expected.map((r) => r.id));
    expect(listed[0]).toEqual({
      id: expected[0].id,
      operation: expected[0].operation,
      section: expected[0].section,
      basis: expected[0].basis,
      title: expected[0].title,
    });
  });

  it('an unknown --rule is still a usage error (exit 2)', async () => {
    const { code, stderr } = await conformance(['run', '--list-rules', '--rule', 'nope']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--rule nope matches no rule id/);
  });
});

describe('conformance run --quiet and --json', () => {
  it('--quiet: the reports line and the verdict line, nothing else', async () => {
    const dir = reportDir();
    const { code, stdout, stderr } = await conformance([...QUICK, '--report-dir', dir, '--quiet']);
    expect(code, stderr).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^reports: .*conformance\.json/);
    const report = readReport(dir);
    expect(lines[1]).toBe(`verdict: ${report.summary.verdict} (${report.summary.requests} requests in ${(report.durationMs / 1000).toFixed(1)} s)`);
    expect(stderr).toBe('');
  });

  it('CONFORMANCE_QUIET=1 is the same as --quiet', async () => {
    const { stdout } = await conformance([...QUICK, '--report-dir', reportDir()], { CONFORMANCE_QUIET: '1' });
    expect(stdout.trimEnd().split('\n')).toHaveLength(2);
  });

  it('--json: stdout is one JSON value (verdict, exit code, counts, failing rules, report paths); the human lines go to stderr', async () => {
    const dir = reportDir();
    const { code, stdout, stderr } = await conformance([...QUICK, '--report-dir', dir, '--json', '--fault', 'fa-status-lowercase']);
    const result = JSON.parse(stdout);
    const report = readReport(dir);
    expect(code).toBe(1);
    expect(result.exitCode).toBe(code);
    expect(result.verdict).toBe(report.summary.verdict);
    expect(result.summary).toEqual({
      rules: report.summary.rules,
      passed: report.summary.passed,
      failed: report.summary.failed,
      inconclusive: report.summary.inconclusive ?? 0,
      skipped: report.summary.skipped,
      errors: report.summary.errors,
      requests: report.summary.requests,
    });
    expect(result.failingRules.map((r: { id: string }) => r.id)).toEqual(
      report.rules.filter((r) => r.status === 'failed' || r.status === 'error').map((r) => r.id),
    );
    expect(result.failingRules[0].message).toBe(report.rules.find((r) => r.status === 'failed')!.failures[0].message);
    expect(result.reports).toContain(path.join(dir, 'conformance.json'));
    expect(result.seed).toBe(11);
    expect(stderr).toMatch(/^verdict: non-conformant/m);
    expect(stderr).toMatch(/^reports: /m);
  });

  it('--json --quiet: the JSON value alone on stdout, the quiet lines (reports, verdict) on stderr', async () => {
    const { code, stdout, stderr } = await conformance([...QUICK, '--report-dir', reportDir(), '--json', '--quiet']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).verdict).toBe('conformant');
    const lines = stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^reports: /);
    expect(lines[1]).toMatch(/^verdict: conformant/);
  });

  it('--json when the target cannot be reached: still one JSON value, verdict error, exit 3', async () => {
    const { code, stdout } = await conformance([
      'run',
      ...targetFlags({ baseUrl: 'http://127.0.0.1:9', token: 't' }),
      '--fiat-account-id',
      '8d3b1c2e-7f4a-4e0b-9c51-2a6f0d9e1b37',
      '--report-dir',
      reportDir(),
      '--json',
      '--timeout',
      '2000',
    ]);
    expect(code).toBe(3);
    const result = JSON.parse(stdout);
    expect(result).toMatchObject({ verdict: 'error', exitCode: 3 });
  });
});

describe('colour', () => {
  it('none into a pipe, none with NO_COLOR, and FORCE_COLOR paints a pipe too', async () => {
    const plain = await conformance([...QUICK, '--report-dir', reportDir()]);
    expect(plain.stdout).not.toContain(ESC);
    const noColour = await conformance([...QUICK, '--report-dir', reportDir()], { NO_COLOR: '1' });
    expect(noColour.stdout).not.toContain(ESC);
    const forced = await conformance([...QUICK, '--report-dir', reportDir()], { FORCE_COLOR: '1' });
    expect(forced.stdout).toContain(`verdict: ${ESC}1m${ESC}32mconformant`);
    expect(forced.stdout).toMatch(/\u001b\[32m✓ passed\u001b\[39m/);
    const refused = await conformance([...QUICK, '--report-dir', reportDir()], { FORCE_COLOR: '0' });
    expect(refused.stdout).not.toContain(ESC);
  });
});
