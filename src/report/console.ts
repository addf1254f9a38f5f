/**
 * The console reporter: progress while the run goes, then a table of rules. On a terminal one
 * progress line is rewritten in place; in CI (no TTY) one plain line per finished rule, so logs
 * stay readable. The very last line is always `N passed, N failed` counting rules (then
 * `, N inconclusive`, `, N skipped`, `, N errors` when any). A failure line ends with what the
 * target said; an inconclusive rule (`?`) gets its reason on the line under it; a run the target
 * stopped answering says where it stopped and its exit code.
 */
import type { ReportListener } from './report-events.ts';
import type { ConformanceReport, ReportRule } from './model.ts';
import { oneLine } from '../core/text.ts';
import { Redactor } from './redact.ts';
import { rerunCommand } from './rerun-command.ts';
import { targetSaidSuffix } from './target-words.ts';
import { coverageFigures, reasonText, stoppedText } from './rule-text.ts';

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

/** Longest reason line under an inconclusive rule. */
const REASON_WIDTH = 200;

/**
 * The plain line of a finished rule, e.g. `  ✓ fa.status.enum  (24 cases)`, or
 * `  ✗ id.valid-accepted  … (HTTP 422) — target said: "first_name must be ASCII"`.
 */
export function ruleLine(rule: ReportRule, redactor?: Redactor): string {
  const mark = MARK[rule.status];
  if (rule.status === 'passed') return `  ${mark} ${rule.id}  (${rule.cases} ${rule.cases === 1 ? 'case' : 'cases'})`;
  if (rule.status === 'skipped') return `  ${mark} ${rule.id}  skipped${rule.reason ? `: ${oneLine(rule.reason, MESSAGE_WIDTH)}` : ''}`;
  if (rule.status === 'inconclusive') {
    const figures = rule.coverage ? coverageFigures(rule.coverage) : `${rule.cases} ${rule.cases === 1 ? 'case' : 'cases'}`;
    return `  ${mark} ${rule.id}  inconclusive: ${figures}${rule.blocking ? '' : ' (does not block the verdict)'}`;
  }
  const first = rule.failures[0];
  const message = first?.message ?? rule.reason ?? rule.status;
  const more = rule.failures.length > 1 ? ` (+${rule.failures.length - 1} more)` : '';
  return `  ${mark} ${rule.id}  ${oneLine(message, MESSAGE_WIDTH)}${targetSaidSuffix(first, redactor)}${more}`;
}

/** The lines of a finished rule: its line, and for an inconclusive rule the reason under it. */
export function ruleLines(rule: ReportRule, redactor?: Redactor): string[] {
  const lines = [ruleLine(rule, redactor)];
  if (rule.status === 'inconclusive' && rule.reason) lines.push(`      ${oneLine(rule.reason, REASON_WIDTH)}`);
  return lines;
}

/**
 * The closing line: `N passed, N failed` counting rules, then `, N inconclusive`, `, N skipped`
 * and `, N errors` when any.
 */
export function closingLine(rules: ReportRule[]): string {
  const n = (status: ReportRule['status']) => rules.filter((r) => r.status === status).length;
  let line = `${n('passed')} passed, ${n('failed')} failed`;
  if (n('inconclusive')) line += `, ${n('inconclusive')} inconclusive`;
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
  const stopped = stoppedText(report, MESSAGE_WIDTH);
  const reason = reasonText(report);
  return [
    '',
    ...rulesTable(report.rules),
    '',
    `verdict: ${s.verdict} (${s.requests} requests in ${(report.durationMs / 1000).toFixed(1)} s)`,
    ...(stopped ? [stopped] : []),
    ...(reason ? [`reason: ${reason}`] : []),
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
  const redactor = () => new Redactor(io.secrets?.() ?? []);
  const out = (line: string) => io.out(redactor().text(line));
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
          // Failures and shortfalls stay on screen above the progress line; passes only move the counter.
          if (event.rule.status === 'failed' || event.rule.status === 'error' || event.rule.status === 'inconclusive') {
            ruleLines(event.rule, redactor()).forEach((line, i) => out((i === 0 && progressShown ? REWRITE : '') + line));
            progressShown = false;
          }
          progress(true);
        } else ruleLines(event.rule, redactor()).forEach(out);
        break;
      case 'run-end':
        // The first closing line takes the place of the progress line.
        endLines(event.report).forEach((line, i) => out((i === 0 && progressShown ? REWRITE : '') + line));
        progressShown = false;
        break;
    }
  };
}
