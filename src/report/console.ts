/**
 * The console reporter: progress while the run goes, then a table of rules. On a terminal one
 * progress line is rewritten in place; in CI (no TTY) one plain line per finished rule, so logs
 * stay readable. The very last line is always `N passed, N failed` counting rules.
 */
import type { ReportListener } from './report-events.ts';
import type { ConformanceReport, ReportRule } from './model.ts';
import { oneLine } from '../core/text.ts';
import { Redactor } from './redact.ts';
import { rerunCommand } from './rerun-command.ts';

export interface ConsoleIO {
  /** Writes one line (the newline is added by the writer). */
  out(line: string): void;
  isTTY: boolean;
  /** The run's credentials so far (issued tokens accumulate), scrubbed from every line. */
  secrets?: () => string[];
}

const MARK: Record<ReportRule['status'], string> = { passed: '✓', failed: '✗', inconclusive: '?', skipped: '-', error: '!' };
/** Least time between two progress rewrites on a terminal. */
const PROGRESS_INTERVAL_MS = 100;
// Cursor up one line and clear it: `out` always ends with a newline, so the progress line is the previous one.
const REWRITE = '\u001b[1A\u001b[2K';

/** Longest failure message or reason shown on a rule's line. */
const MESSAGE_WIDTH = 120;

/** The plain line of a finished rule, e.g. `  ✓ fa.status.enum  (24 cases)`. */
export function ruleLine(rule: ReportRule): string {
  const mark = MARK[rule.status];
  if (rule.status === 'passed') return `  ${mark} ${rule.id}  (${rule.cases} ${rule.cases === 1 ? 'case' : 'cases'})`;
  if (rule.status === 'skipped') return `  ${mark} ${rule.id}  skipped${rule.reason ? `: ${oneLine(rule.reason, MESSAGE_WIDTH)}` : ''}`;
  const message = rule.failures[0]?.message ?? rule.reason ?? rule.status;
  const more = rule.failures.length > 1 ? ` (+${rule.failures.length - 1} more)` : '';
  return `  ${mark} ${rule.id}  ${oneLine(message, MESSAGE_WIDTH)}${more}`;
}

/** The closing line: `N passed, N failed` counting rules, then `, N skipped` / `, N errors` when any. */
export function closingLine(rules: ReportRule[]): string {
  const n = (status: ReportRule['status']) => rules.filter((r) => r.status === status).length;
  let line = `${n('passed')} passed, ${n('failed')} failed`;
  if (n('skipped')) line += `, ${n('skipped')} skipped`;
  if (n('error')) line += `, ${n('error')} errors`;
  return line;
}

/** The table of rules printed at the end of a run. */
export function rulesTable(rules: ReportRule[]): string[] {
  const header = ['rule', 'section', 'basis', 'status', 'cases'];
  const rows = rules.map((r) => [r.id, r.section, r.basis, `${MARK[r.status]} ${r.status}`, String(r.cases)]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => [...row[i]].length)));
  const format = (row: string[]) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell.padStart(widths[i]) : cell + ' '.repeat(widths[i] - [...cell].length)))
      .join('  ')
      .trimEnd();
  return [format(header), widths.map((w) => '─'.repeat(w)).join('  '), ...rows.map(format)];
}

function endLines(report: ConformanceReport): string[] {
  const s = report.summary;
  return [
    '',
    ...rulesTable(report.rules),
    '',
    `verdict: ${s.verdict} (${s.requests} requests in ${(report.durationMs / 1000).toFixed(1)} s)`,
    `seed ${report.seed}: re-run the same cases with \`${rerunCommand(report)}\``,
    closingLine(report.rules),
  ];
}

const BAR_WIDTH = 24;

/** `[██████░░░░]`: the share of rules done, in block characters. */
function bar(done: number, total: number): string {
  const filled = total ? Math.round((done / total) * BAR_WIDTH) : 0;
  return `[${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)}]`;
}

/** A ReportListener that prints progress and the final table to `io.out`. */
export function createConsoleReporter(io: ConsoleIO): ReportListener {
  // A target may echo a token in a body that a failure message quotes: scrub every line.
  const out = (line: string) => io.out(new Redactor(io.secrets?.() ?? []).text(line));
  let total = 0;
  let done = 0;
  let requests = 0;
  let current = '';
  let progressShown = false;
  let lastProgress = 0;

  const progress = (force: boolean) => {
    if (!io.isTTY) return;
    const now = Date.now();
    if (!force && now - lastProgress < PROGRESS_INTERVAL_MS) return;
    lastProgress = now;
    const line = `  ${bar(done, total)} ${done}/${total} rules, ${requests} requests${current ? `  ${current}` : ''}`;
    out((progressShown ? REWRITE : '') + line);
    progressShown = true;
  };

  return (event) => {
    switch (event.type) {
      case 'run-start':
        total = event.rules;
        if (!io.isTTY) out(`running ${event.rules} rules against ${event.baseUrl} (seed ${event.seed}, profile ${event.profile})`);
        progress(true);
        break;
      case 'rule-start':
        current = event.rule.id;
        progress(true);
        break;
      case 'exchange':
        requests++;
        progress(false);
        break;
      case 'rule-end':
        done++;
        if (io.isTTY) {
          // Failures stay on screen above the progress line; passes only move the counter.
          if (event.rule.status === 'failed' || event.rule.status === 'error') {
            out((progressShown ? REWRITE : '') + ruleLine(event.rule));
            progressShown = false;
          }
          progress(true);
        } else out(ruleLine(event.rule));
        break;
      case 'run-end':
        // The first closing line takes the place of the progress line.
        endLines(event.report).forEach((line, i) => out((i === 0 && progressShown ? REWRITE : '') + line));
        progressShown = false;
        break;
    }
  };
}
