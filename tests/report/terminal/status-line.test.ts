/**
 * The progress display on a terminal of 80 columns: the status line never wraps, never holds a
 * newline, erases only its own row, and the `reports:` line and the final table stay intact.
 */
import { describe, expect, it } from 'vitest';
import { StatusLine, lineWriter } from '../../../src/report/terminal/status-line.ts';
import { createProgress, plainText, statusText } from '../../../src/report/terminal/progress.ts';
import { createConsoleReporter } from '../../../src/report/terminal/console.ts';
import { displayWidth, fitWidth } from '../../../src/report/terminal/display-width.ts';
import { RULES } from '../../../src/core/catalogue.ts';
import type { ReportEvent } from '../../../src/report/model/report-events.ts';
import { VirtualTerminal } from '../virtual-terminal.ts';
import { sampleExchanges, sampleReport } from '../sample-report.ts';

describe('display width', () => {
  it('counts columns, not code units: wide CJK and emoji take two, combining marks none, escapes none', () => {
    expect(displayWidth('fa.status.enum')).toBe(14);
    expect(displayWidth('漢字')).toBe(4);
    expect(displayWidth('ｆｕｌｌ')).toBe(8);
    expect(displayWidth('e\u0301')).toBe(1);
    expect(displayWidth('👩🏽‍💻')).toBe(2);
    expect(displayWidth('🇫🇷')).toBe(2);
    expect(displayWidth('\u001b[31m✗\u001b[39m')).toBe(1);
  });

  it('cuts to a width with an ellipsis, never inside a grapheme nor half a wide character', () => {
    expect(fitWidth('abcdef', 6)).toBe('abcdef');
    expect(fitWidth('abcdefg', 6)).toBe('abcde…');
    expect(fitWidth('漢字漢字', 6)).toBe('漢字…');
    expect(displayWidth(fitWidth('漢字漢字', 6))).toBeLessThanOrEqual(6);
    expect(fitWidth('👩🏽‍💻👩🏽‍💻👩🏽‍💻', 5)).toBe('👩🏽‍💻👩🏽‍💻…');
  });
});

describe('status line', () => {
  it('never exceeds the width nor holds a newline, however long or wide its text', () => {
    const term = new VirtualTerminal(80);
    const status = new StatusLine(term.stream());
    const texts = ['x'.repeat(200), '漢'.repeat(100), `${'👩🏽‍💻'.repeat(50)} a`, 'line one\nline two\r\nthree', 'e\u0301'.repeat(300)];
    for (const text of texts) status.show(text);
    for (const write of term.writes) {
      expect(write).not.toContain('\n');
      // What is drawn after the carriage return fits in 79 columns: the cursor never reaches the last.
      expect(displayWidth(write.replace(/^\r/, ''))).toBeLessThan(80);
    }
    expect(term.wraps).toBe(0);
    expect(term.screen()).toHaveLength(1);
  });

  it("follows the stream's columns when the window is resized", () => {
    let columns = 80;
    const writes: string[] = [];
    const status = new StatusLine({ write: (t) => writes.push(t), columns: () => columns });
    status.show('y'.repeat(100));
    columns = 40;
    status.show('y'.repeat(100));
    expect(displayWidth(writes[0].replace(/^\r/, ''))).toBe(79);
    expect(displayWidth(writes[1].replace(/^\r/, ''))).toBe(39);
  });

  it('clears only its own row: lines printed above it, before and after, stay intact', () => {
    const term = new VirtualTerminal(80);
    const status = new StatusLine(term.stream());
    const out = lineWriter(status, term.line);
    out('target http://127.0.0.1:4010 (embedded reference server)');
    status.show('[███░░░] 12/~819 requests · 0 failing · 0:01 · fa.valid-accepted');
    out('conformance run: SIGINT: stopping');
    status.show('[████░░] 20/~819 requests · 0 failing · 0:02 · fa.valid-accepted');
    out('reports: reports/conformance.json, reports/junit.xml');
    status.end();
    out('verdict: conformant (819 requests in 2.0 s)');
    expect(term.screen().filter((row) => row !== '')).toEqual([
      'target http://127.0.0.1:4010 (embedded reference server)',
      'conformance run: SIGINT: stopping',
      'reports: reports/conformance.json, reports/junit.xml',
      'verdict: conformant (819 requests in 2.0 s)',
    ]);
    // No cursor-up, ever: nothing above the status row can be touched.
    expect(term.writes.join('')).not.toMatch(/\u001b\[\d*A/);
  });
});

/** The events of a run of the sample report, as the report builder emits them (rule-end at the end). */
function runEvents(): ReportEvent[] {
  const report = sampleReport();
  const list: ReportEvent[] = [
    { type: 'run-start', baseUrl: report.target.baseUrl, seed: report.seed, profile: report.profile, rules: report.rules.length, fiatAccountIds: [] },
  ];
  for (const rule of report.rules) {
    list.push({ type: 'rule-start', rule: RULES.find((r) => r.id === rule.id)! });
    for (const exchange of sampleExchanges()) list.push({ type: 'exchange', exchange });
    if (rule.status === 'failed') list.push({ type: 'rule-failing', rule: RULES.find((r) => r.id === rule.id)!, atRequest: 1 });
  }
  for (const rule of report.rules) list.push({ type: 'rule-end', rule });
  list.push({ type: 'run-end', report });
  return list;
}

describe('progress on a terminal of 80 columns', () => {
  it('a whole run: one row of progress, never wrapped; at the end the reports: line, the table and the counts intact, no progress left', async () => {
    const term = new VirtualTerminal(80);
    const status = new StatusLine(term.stream());
    const out = lineWriter(status, term.line);
    let sent = 0;
    let clock = 0;
    const progress = createProgress({ status, requestsSent: () => sent, planned: () => 819, now: () => (clock += 150), ticker: null });
    const report = sampleReport();
    const reportsLine = 'reports: reports/conformance.json, reports/junit.xml, reports/report.html, reports/summary.md, reports/exchanges.har';
    const listeners = [
      progress.listener,
      (event: ReportEvent) => void (event.type === 'run-end' && out(reportsLine)),
      createConsoleReporter({ out, isTTY: true }),
    ];
    out('target http://127.0.0.1:4010 (embedded reference server)');
    let rowsDuringRun = 0;
    let wrapsDuringRun = 0;
    for (const event of runEvents()) {
      if (event.type === 'exchange') sent++;
      for (const listener of listeners) await listener(event);
      if (event.type !== 'run-end') {
        rowsDuringRun = Math.max(rowsDuringRun, term.screen().length);
        wrapsDuringRun = term.wraps;
      }
    }
    // The header and the status row, nothing more, while the run went; the status never wrapped.
    expect(rowsDuringRun).toBe(2);
    expect(wrapsDuringRun).toBe(0);
    expect(term.writes.some((w) => w.includes('requests ·'))).toBe(true);
    const screen = term.screen();
    expect(screen).toContain(reportsLine.slice(0, 80));
    expect(screen.some((row) => row.includes('requests ·'))).toBe(false);
    expect(screen.filter((row) => /^rule\s+section\s+basis\s+status\s+cases$/.test(row))).toHaveLength(1);
    expect(screen.filter((row) => row !== '').at(-1)).toBe(
      `${report.summary.passed} passed, ${report.summary.failed} failed, ${report.summary.skipped} skipped`,
    );
    // The reports line comes before the table, whole (it wraps as any long line does, but is not erased).
    const at = screen.findIndex((row) => row.startsWith('reports: '));
    expect(screen.slice(at, at + 2).join('')).toBe(reportsLine);
  });

  it('shows requests sent of planned, the rules failing so far and the rule judged, as the final figures count them', async () => {
    const shown: string[] = [];
    const status = new StatusLine({ write: (t) => shown.push(t), columns: () => 200 });
    let sent = 0;
    let clock = 0;
    const progress = createProgress({ status, requestsSent: () => sent, planned: () => 819, now: () => (clock += 1000), ticker: null });
    const events = runEvents();
    const failing = events.filter((e) => e.type === 'rule-failing').length;
    for (const event of events) {
      if (event.type === 'exchange') sent++;
      if (event.type === 'run-end') break;
      await progress.listener(event);
    }
    const last = shown.at(-1)!;
    expect(last).toContain(`${sent}/~819 requests`);
    expect(last).toContain(`${failing} failing`);
    expect(failing).toBe(sampleReport().summary.failed);
    // What is judged now: the rule of the last case, or its label.
    const lastCase = events.filter((e): e is Extract<ReportEvent, { type: 'exchange' }> => e.type === 'exchange').at(-1)!.exchange.testCase;
    expect(last).toContain(lastCase.violates ?? lastCase.exercises ?? lastCase.label);
  });

  it('past the plan it says so instead of a bar past full', () => {
    expect(statusText({ sent: 900, planned: 819, failing: 1, elapsedMs: 65_000 })).toBe('[████████████████] 900 requests (~819 planned) · 1 failing · 1:05');
    expect(statusText({ sent: 0, failing: 0, elapsedMs: 0 })).toBe('0 requests · 0 failing · 0:00');
  });
});

describe('progress in a log (no terminal)', () => {
  it('no redraw, no escape: at most one plain line per interval, none for a run shorter than it', async () => {
    const lines: string[] = [];
    let clock = 0;
    let sent = 0;
    const progress = createProgress({ line: (l) => lines.push(l), requestsSent: () => sent, planned: () => 819, now: () => clock, intervalMs: 30_000 });
    await progress.listener({ type: 'run-start', baseUrl: 'http://x', seed: 1, profile: 'quick', rules: 47, fiatAccountIds: [] });
    const exchange = sampleExchanges()[0];
    for (let i = 0; i < 100; i++) {
      sent++;
      clock += 1000; // 100 s of exchanges, one a second
      await progress.listener({ type: 'exchange', exchange });
    }
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe(plainText({ sent: 30, planned: 819, failing: 0, elapsedMs: 30_000 }));
    expect(lines.join('')).not.toContain('\u001b');

    const short: string[] = [];
    const quick = createProgress({ line: (l) => short.push(l), requestsSent: () => 5, now: () => 0 });
    for (const event of runEvents()) await quick.listener(event);
    expect(short).toEqual([]);
  });
});
