/**
 * junit.xml against the strict JUnit schema of the Jenkins xunit plugin (tests/report/xsd), with
 * libxml2's validator: the reports of real runs (faithful, a documented failure, a convention
 * failure, a run that could not start) and the edge cases of the sample reports.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { validateXML } from 'xmllint-wasm';
import { renderJunit } from '../../src/report/files/junit.ts';
import { runConformance } from '../../src/api/index.ts';
import { HOSTILE, inconclusiveReport, sampleReport, stoppedReport } from './sample-report.ts';
import { abortedReport } from '../../src/report/model/report-builder.ts';
import { conformance, reportDir } from '../cli/binary.ts';
import path from 'node:path';

const XSD = readFileSync(new URL('./xsd/jenkins-xunit-junit-10.xsd', import.meta.url), 'utf8');

/** The schema's complaints about a document; none: valid. */
async function xsdErrors(xml: string): Promise<string[]> {
  const result = await validateXML({ xml: [{ fileName: 'junit.xml', contents: xml }], schema: [{ fileName: 'junit-10.xsd', contents: XSD }] });
  return result.errors.map((e) => e.message);
}

const quick = { profile: 'quick' as const, seed: 3 };
/** A rule's testcase element, from its opening tag to its end. */
const testcaseOf = (xml: string, rule: string): string => {
  const start = xml.indexOf(`name="${rule} `);
  return xml.slice(start, xml.indexOf('</testcase>', start));
};

describe('junit.xml against the Jenkins xunit JUnit schema', () => {
  it('rejects what the schema forbids (the check can fail): properties in a testcase, skipped on testsuites', async () => {
    const bad = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<testsuites skipped="1">',
      '<testsuite name="s" tests="1" failures="0" errors="0">',
      '<testcase name="c"><properties/></testcase>',
      '</testsuite>',
      '</testsuites>',
    ].join('\n');
    const errors = await xsdErrors(bad);
    expect(errors.some((e) => e.includes("'skipped'"))).toBe(true);
    expect(errors.some((e) => e.includes("'properties'"))).toBe(true);
  });

  it('accepts the report of a faithful run', async () => {
    const { report } = await runConformance(quick);
    expect(report.summary.verdict).toBe('conformant');
    expect(await xsdErrors(renderJunit(report))).toEqual([]);
  });

  it('accepts a documented failure, shown as a failure', async () => {
    const { report } = await runConformance({ ...quick, rules: ['fa.metadata'], fault: 'metadata-exact-pairs-rejected' });
    const xml = renderJunit(report);
    expect(await xsdErrors(xml)).toEqual([]);
    expect(testcaseOf(xml, 'fa.metadata.max-pairs-accepted')).toMatch(/<failure message="[^"]+" type="documented §8">/);
  });

  it('shows a failed convention rule outside --strict as a failure that says it is not fatal, never a grey skipped', async () => {
    const { report, exitCode } = await runConformance({ ...quick, rules: ['fa.unknown-id'], fault: 'fa-unknown-id-400' });
    expect(exitCode).toBe(0);
    const xml = renderJunit(report);
    expect(await xsdErrors(xml)).toEqual([]);
    const unknownId = testcaseOf(xml, 'fa.unknown-id-404');
    expect(unknownId).toMatch(
      /<failure message="convention rule failed \(fatal only with --strict\): [^"]+" type="convention §4.1, fatal only with --strict">/,
    );
    expect(unknownId).not.toContain('<skipped');
    expect(xml).toMatch(/<testsuites [^>]*failures="1"/);
  });

  it('accepts a run that could not start (every rule skipped), an inconclusive run, a stopped run and hostile text', async () => {
    const facts = { baseUrl: 'http://127.0.0.1:9', embedded: false, fiatAccountIds: [], seed: 1, profile: 'quick', runs: 10, strict: false, ruleFilter: [] };
    const aborted = abortedReport(facts, 'no answer');
    // What the CLI writes when the user interrupts a run before its first case.
    const interrupted = abortedReport(facts, 'SIGINT before the run started', {
      kind: 'interrupted',
      message: 'SIGINT before the run started',
      signal: 'SIGINT',
      requests: 0,
    });
    expect(renderJunit(interrupted).match(/<skipped /g)).toHaveLength(interrupted.rules.length);
    const hostile = sampleReport();
    hostile.rules.find((r) => r.status === 'failed')!.failures[0]!.message = Object.values(HOSTILE).join(' ');
    for (const report of [
      aborted,
      interrupted,
      hostile,
      inconclusiveReport(),
      inconclusiveReport({ strict: true }),
      stoppedReport(),
      sampleReport(),
      sampleReport({ strict: true }),
    ]) {
      expect(await xsdErrors(renderJunit(report))).toEqual([]);
    }
  });

  it('accepts the junit.xml file a real conformance run writes (redacted as written)', async () => {
    const dir = reportDir();
    const run = await conformance([
      'run',
      '--profile',
      'quick',
      '--seed',
      '3',
      '--rule',
      'fa.metadata',
      '--fault',
      'metadata-exact-pairs-rejected',
      '--report-dir',
      dir,
    ]);
    expect(run.code, run.stderr).toBe(1);
    const xml = readFileSync(path.join(dir, 'junit.xml'), 'utf8');
    expect(xml).toContain('<failure ');
    expect(await xsdErrors(xml)).toEqual([]);
  });
});
