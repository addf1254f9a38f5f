/**
 * A fiat account the run left changed is impossible to miss (issue 29, point 6): a conformant run
 * with one account partly restored and one whose end read failed exits 5, and every output names
 * both: the console's last lines, --quiet's one line, the top of summary.md and report.html, a
 * failing testcase of junit.xml's sandbox suite (valid against the strict schema), the --json
 * result and the annotations. Restore off says so at the same places, and is no exit 5.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { EXIT } from '../../../src/core/errors.ts';
import { accountsLeftChanged, RESTORE_OFF, type RestoreSummary } from '../../../src/engine/restore/restore-summary.ts';
import { renderHtmlReport } from '../../../src/report/files/html-report.ts';
import { renderJunit } from '../../../src/report/files/junit.ts';
import { renderMarkdownSummary } from '../../../src/report/files/markdown-summary.ts';
import { exitCodeOf, type ConformanceReport } from '../../../src/report/model/model.ts';
import { countRules } from '../../../src/report/model/report-builder.ts';
import { runJsonResult } from '../../../src/report/model/run-json-result.ts';
import { createConsoleReporter, endLines } from '../../../src/report/terminal/console.ts';
import { githubAnnotations } from '../../../src/report/terminal/github-annotations.ts';
import { registry } from '../../../src/schema/registry.ts';
import { inconclusiveReport, sampleReport, stoppedReport } from '../sample-report.ts';
import { xmlProblems } from '../xml-well-formed.ts';

const PARTLY = '0f8fad5b-d9cb-469f-a165-70867728950e';
const UNKNOWN = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const RESTORED = '16fd2706-8baf-433b-82eb-8c7fada847da';
const JOURNAL = 'reports/restore-journal.json';
const REPAIR = `conformance restore ${JOURNAL} --base-url http://127.0.0.1:4010`;
const MERGE_REASON = 'added by the run; the target merges metadata, so no update can remove a key';
const END_READ = 'the end read was answered HTTP 500: {"error":"internal"}';

const restore = (): RestoreSummary => ({
  enabled: true,
  note: 'fiat accounts: 1 restored, 1 partly restored, 1 unknown (may be changed)',
  requests: 9,
  journal: JOURNAL,
  repair: REPAIR,
  accounts: [
    { id: RESTORED, outcome: 'restored', restored: ['fiat_account_owner.person_details.first_name'], notRestored: [] },
    {
      id: PARTLY,
      outcome: 'partly-restored',
      restored: ['fiat_account_owner.person_details.first_name'],
      notRestored: [{ field: 'metadata.k1', reason: MERGE_REASON }],
    },
    { id: UNKNOWN, outcome: 'unknown', restored: [], notRestored: [], reason: END_READ },
  ],
});

/** The sample run with every rule passed: conformant, but two accounts left changed. */
function leftChangedReport(patch: Partial<RestoreSummary> = {}): ConformanceReport {
  const report = sampleReport();
  report.rules = report.rules.map((r) => ({ ...r, status: 'passed', blocking: false, failures: [] }));
  const { reason: _none, ...summary } = report.summary;
  report.summary = { ...summary, verdict: 'conformant', ...countRules(report.rules) };
  report.target.fiatAccountIds = [RESTORED, PARTLY, UNKNOWN];
  report.restore = { ...restore(), ...patch };
  report.createdIdentities = [];
  return report;
}

const restoreOff = (): ConformanceReport => ({ ...leftChangedReport(), restore: RESTORE_OFF });
const asFound = (): ConformanceReport => ({ ...leftChangedReport(), restore: { ...restore(), accounts: [restore().accounts[0]] } });

describe('which accounts are left changed, and the exit code', () => {
  it('partly restored, not restored and unknown are; restored and unchanged are not', () => {
    const summary = restore();
    summary.accounts.push({ id: 'a4', outcome: 'not-restored', restored: [], notRestored: [], reason: 'the write-back was refused' });
    summary.accounts.push({ id: 'a5', outcome: 'unchanged', restored: [], notRestored: [] });
    expect(accountsLeftChanged(summary).map((a) => a.id)).toEqual([PARTLY, UNKNOWN, 'a4']);
    expect(accountsLeftChanged(RESTORE_OFF)).toEqual([]);
    expect(accountsLeftChanged(undefined)).toEqual([]);
  });

  it('5 replaces 0 and 4 only: a failure, a stop and a signal say more', () => {
    expect(EXIT.leftChanged).toBe(5);
    expect(exitCodeOf(leftChangedReport())).toBe(5);
    expect(exitCodeOf(asFound())).toBe(0);
    expect(exitCodeOf({ ...inconclusiveReport(), restore: restore() })).toBe(5);
    expect(exitCodeOf(inconclusiveReport())).toBe(4);
    expect(exitCodeOf({ ...sampleReport(), restore: restore() })).toBe(1);
    expect(exitCodeOf({ ...stoppedReport(), restore: restore() })).toBe(3);
    const interrupted = leftChangedReport();
    interrupted.summary.verdict = 'interrupted';
    interrupted.stopped = { kind: 'interrupted', message: 'SIGTERM', signal: 'SIGTERM', requests: 10 };
    expect(exitCodeOf(interrupted)).toBe(143);
  });

  it('restore off is no exit 5: the user asked for it', () => {
    expect(exitCodeOf(restoreOff())).toBe(0);
  });

  it('conformance.json with unknown, journal and repair is valid against its schema', () => {
    expect(registry().validate('conformance-report', leftChangedReport())).toEqual([]);
    const bad = leftChangedReport();
    (bad.restore!.accounts[2] as { outcome: string }).outcome = 'lost';
    expect(registry().validate('conformance-report', bad)).not.toEqual([]);
  });
});

describe('every output names the accounts left changed', () => {
  it('the console ends with them: after the verdict, each field with why, the journal and the repair command', () => {
    const lines = endLines(leftChangedReport());
    const verdict = lines.findIndex((l) => l.startsWith('verdict: conformant'));
    const warning = lines.findIndex((l) => l.startsWith('⚠ '));
    expect(warning).toBeGreaterThan(verdict);
    expect(lines.slice(warning)).toEqual([
      '⚠ 2 of 3 fiat accounts left changed by the run (exit 5)',
      `  ${PARTLY} metadata.k1 not restored: ${MERGE_REASON}`,
      `  ${UNKNOWN}: ${END_READ}`,
      `  original values: ${JOURNAL}`,
      `  repair: ${REPAIR}`,
    ]);
    expect(lines.join('\n')).not.toContain(`${RESTORED}:`);
  });

  it('--quiet: the verdict line and one line more', async () => {
    const lines: string[] = [];
    const reporter = createConsoleReporter({ out: (l) => lines.push(l), isTTY: false, quiet: true });
    await reporter({ type: 'run-end', report: leftChangedReport() });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^verdict: conformant/);
    expect(lines[1]).toBe(`fiat accounts left changed (exit 5): ${PARTLY} (partly restored), ${UNKNOWN} (unknown, may be changed); repair: ${REPAIR}`);
    lines.length = 0;
    await reporter({ type: 'run-end', report: asFound() });
    expect(lines).toHaveLength(1);
  });

  it('summary.md opens with the warning, before the title', () => {
    const text = renderMarkdownSummary(leftChangedReport());
    const lines = text.split('\n');
    expect(lines[0]).toBe('> ⚠️ **2 of 3 fiat accounts left changed by the run (exit 5)**');
    const title = lines.findIndex((l) => l.startsWith('## Conformance:'));
    const warning = lines.slice(0, title).join('\n');
    expect(warning).toContain(`> - \`${PARTLY}\`: partly restored`);
    expect(warning).toContain(`>   - not restored: ${MERGE_REASON}: \`metadata.k1\``);
    expect(warning).toContain(`> - \`${UNKNOWN}\`: unknown, may be changed: ${END_READ}`);
    expect(warning).toContain(`Original values: \`${JOURNAL}\``);
    expect(warning).toContain(`> ${REPAIR}`);
    expect(warning).not.toContain(RESTORED);
    expect(renderMarkdownSummary(asFound()).split('\n')[0]).toMatch(/^## Conformance:/);
  });

  it('report.html puts the warning before the verdict banner, every value escaped', () => {
    const report = leftChangedReport();
    report.restore!.accounts[1].notRestored[0].field = 'metadata.<b>k1</b>';
    const html = renderHtmlReport(report);
    const warning = html.indexOf('id="left-changed"');
    const banner = html.indexOf('<header class="banner');
    expect(warning).toBeGreaterThan(html.indexOf('<body>'));
    expect(warning).toBeLessThan(banner);
    const block = html.slice(warning, banner);
    expect(block).toContain('role="alert"');
    expect(block).toContain(`data-account="${PARTLY}"`);
    expect(block).toContain(`data-account="${UNKNOWN}"`);
    expect(block).not.toContain(RESTORED);
    expect(block).toContain('metadata.&lt;b&gt;k1&lt;/b&gt;');
    expect(block).not.toContain('<b>');
    expect(block).toContain(JOURNAL);
    expect(block).toContain(REPAIR);
    expect(renderHtmlReport(asFound())).not.toContain('id="left-changed"');
  });

  it('junit.xml: a failing testcase per account in a sandbox suite, counted, valid against the strict schema', async () => {
    const xml = renderJunit(leftChangedReport());
    expect(xmlProblems(xml)).toEqual([]);
    const xsd = readFileSync(new URL('../xsd/jenkins-xunit-junit-10.xsd', import.meta.url), 'utf8');
    const { errors } = await validateXML({ xml: [{ fileName: 'junit.xml', contents: xml }], schema: [{ fileName: 'junit-10.xsd', contents: xsd }] });
    expect(errors).toEqual([]);
    const suite = xml.slice(xml.indexOf('<testsuite name="sandbox"'), xml.indexOf('</testsuite>', xml.indexOf('<testsuite name="sandbox"')));
    expect(suite).toMatch(/^<testsuite name="sandbox" tests="2" failures="2" errors="0" skipped="0"/);
    for (const id of [PARTLY, UNKNOWN]) expect(suite).toContain(`<testcase classname="sandbox" name="sandbox: fiat account ${id} left changed"`);
    expect(suite).toContain(`not restored: ${MERGE_REASON}: metadata.k1`);
    expect(suite).toContain(`repair: ${REPAIR}`);
    expect(suite).toContain('type="left-changed"');
    // The run's totals count the sandbox's failures: a CI widget goes red on a conformant run.
    const rules = leftChangedReport().rules.length;
    expect(xml).toMatch(new RegExp(`<testsuites name="[^"]*" tests="${rules + 2}" failures="2" errors="0"`));
    expect(renderJunit(asFound())).not.toContain('name="sandbox"');
  });

  it('the --json result lists them in leftChanged, with the journal and the repair command', () => {
    const result = runJsonResult(leftChangedReport(), 5, []);
    expect(result.exitCode).toBe(5);
    expect(result.verdict).toBe('conformant');
    expect(result.leftChanged.map((a) => [a.id, a.outcome])).toEqual([
      [PARTLY, 'partly-restored'],
      [UNKNOWN, 'unknown'],
    ]);
    expect(result.leftChanged[0].notRestored).toEqual([{ field: 'metadata.k1', reason: MERGE_REASON }]);
    expect(result.restore).toEqual({ enabled: true, note: restore().note, journal: JOURNAL, repair: REPAIR });
    expect(runJsonResult(asFound(), 0, []).leftChanged).toEqual([]);
  });

  it('GitHub Actions: the first error annotation names them', () => {
    const [first] = githubAnnotations(leftChangedReport(), 'summary.md');
    expect(first).toMatch(/^::error file=summary\.md,title=2 of 3 fiat accounts left changed by the run/);
    expect(first).toContain(PARTLY);
    expect(first).toContain(UNKNOWN);
  });

  it('an account with many fields hides no other account: fields are grouped by reason and cut, accounts never', () => {
    const report = leftChangedReport();
    const failed = 'the write-back was answered HTTP 500: {"error":"internal"}';
    report.restore!.accounts[1].notRestored = Array.from({ length: 30 }, (_, i) => ({ field: `metadata.k${i}`, reason: failed }));
    report.restore!.accounts[1].outcome = 'not-restored';
    const console = endLines(report);
    expect(console.filter((l) => l.startsWith(`  ${PARTLY}`) || l.startsWith(`  ${UNKNOWN}`))).toHaveLength(2);
    // A long line loses the field names first, never the reason.
    expect(console.find((l) => l.startsWith(`  ${PARTLY}`))).toMatch(
      new RegExp(`^  ${PARTLY} 30 fields not restored: ${failed.replace(/[{}()]/g, '\\$&')} \\(metadata\\.k0, `),
    );
    const markdown = renderMarkdownSummary(report);
    expect(markdown).toContain(
      `>   - not restored: ${failed}: \`metadata.k0\`, \`metadata.k1\`, \`metadata.k2\`, \`metadata.k3\`, \`metadata.k4\`, \`metadata.k5\` (+24 more)`,
    );
    expect(markdown.split('\n').filter((l) => l.includes('metadata.k'))).toHaveLength(1);
    expect(markdown).toContain(`> - \`${UNKNOWN}\``);
    const html = renderHtmlReport(report);
    expect(html).toContain(`data-account="${UNKNOWN}"`);
    expect(html).toContain('(+24 more)');
  });

  it('without a journal, each output says where the original values are', () => {
    const report = leftChangedReport({ journal: undefined, repair: undefined });
    delete report.restore!.journal;
    delete report.restore!.repair;
    expect(endLines(report).at(-1)).toBe('  the original values are in the start reads of exchanges.har (no journal was written)');
    expect(renderMarkdownSummary(report)).toContain('> The original values are in the start reads of exchanges.har');
    expect(renderJunit(report)).toContain('the original values are in the start reads of exchanges.har');
  });
});

describe('restore off says so at the same places', () => {
  const off = restoreOff();
  const said = 'restore was off (--no-restore): the fiat accounts keep what the run last wrote';

  it('the console: its last line; --quiet: one line more', async () => {
    expect(endLines(off).at(-1)).toBe(`${said}: ${RESTORED}, ${PARTLY}, ${UNKNOWN}`);
    const lines: string[] = [];
    await createConsoleReporter({ out: (l) => lines.push(l), isTTY: false, quiet: true })({ type: 'run-end', report: off });
    expect(lines[1]).toBe(`${said}: ${RESTORED}, ${PARTLY}, ${UNKNOWN}`);
  });

  it('summary.md and report.html first; junit.xml a skipped testcase, so CI stays green; --json restore.enabled false', () => {
    expect(renderMarkdownSummary(off).split('\n')[0]).toBe(`> ℹ️ **Restore was off**: ${said}: \`${RESTORED}\`, \`${PARTLY}\`, \`${UNKNOWN}\`.`);
    const html = renderHtmlReport(off);
    expect(html.indexOf('data-sandbox="restore-off"')).toBeGreaterThan(0);
    expect(html.indexOf('data-sandbox="restore-off"')).toBeLessThan(html.indexOf('<header class="banner'));
    const xml = renderJunit(off);
    expect(xml).toContain('<testsuite name="sandbox" tests="1" failures="0" errors="0" skipped="1"');
    expect(xml).toContain(`<skipped message="${said}: ${RESTORED}, ${PARTLY}, ${UNKNOWN}"/>`);
    const result = runJsonResult(off, exitCodeOf(off), []);
    expect(result.exitCode).toBe(0);
    expect(result.leftChanged).toEqual([]);
    expect(result.restore?.enabled).toBe(false);
  });
});
