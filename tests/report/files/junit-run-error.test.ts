/**
 * junit.xml of a run that could not judge the target (unreachable, refused, misconfigured) or
 * that the target stopped mid-run (exit 3) opens with a `run` suite whose testcase is an
 * <error>, so CI widgets turn red instead of counting skipped tests; an interrupted or a judged
 * run has none. The real CLI against a closed port: exit 3, that error, a real duration, and the
 * verdict line under --quiet.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderJunit, runErrorText } from '../../../src/report/files/junit.ts';
import { abortedReport } from '../../../src/report/model/report-builder.ts';
import { conformance, readReport, reportDir } from '../../cli/binary.ts';
import { sampleReport, stoppedReport } from '../sample-report.ts';

const facts = { baseUrl: 'http://127.0.0.1:9', embedded: false, fiatAccountIds: [], seed: 1, profile: 'quick', runs: 10, strict: false, ruleFilter: [] };

describe('the run suite of junit.xml', () => {
  it('a run that could not start: one <error> with the reason, counted in <testsuites>', () => {
    const xml = renderJunit(abortedReport(facts, 'cannot reach http://127.0.0.1:9: ECONNREFUSED (3 attempts)'));
    expect(xml).toMatch(/<testsuites [^>]*errors="1"/);
    expect(xml).toMatch(/<testsuite name="run" tests="1" failures="0" errors="1" skipped="0"/);
    expect(xml).toContain('<error message="cannot reach http://127.0.0.1:9: ECONNREFUSED (3 attempts)" type="could not judge the target">');
  });

  it('a run the target stopped mid-run (exit 3): an <error> that says where it stopped', () => {
    const report = stoppedReport();
    expect(runErrorText(report)).toMatch(/^stopped after \d+ requests/);
    expect(renderJunit(report)).toMatch(/<testcase classname="run" [^>]*>\s*<error message="stopped after/);
  });

  it('none for a judged run, nor for a run the user interrupted before it started', () => {
    expect(runErrorText(sampleReport())).toBeUndefined();
    const interrupted = abortedReport(facts, 'SIGINT before the run started', { kind: 'interrupted', message: 'SIGINT', signal: 'SIGINT', requests: 0 });
    expect(runErrorText(interrupted)).toBeUndefined();
    expect(renderJunit(interrupted)).not.toContain('name="run"');
  });

  it('conformance run against a closed port: exit 3, the <error>, a real duration, and the verdict line under --quiet', async () => {
    const dir = reportDir();
    const { code, stdout } = await conformance([
      'run',
      '--base-url',
      'http://127.0.0.1:9',
      '--token',
      't',
      '--fiat-account-id',
      '0f8fad5b-d9cb-469f-a165-70867728950e',
      '--report-dir',
      dir,
      '--quiet',
    ]);
    expect(code).toBe(3);
    const junit = readFileSync(path.join(dir, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<error message="cannot reach http:\/\/127\.0\.0\.1:9: [^"]+" type="could not judge the target">/);
    expect(readReport(dir).durationMs).toBeGreaterThan(0);
    expect(stdout.trim().split('\n').at(-1)).toMatch(/^verdict: error \(\d+ requests in \d+\.\d s\)$/);
  });
});
