/**
 * The console reporter: what a run prints on its lines (stdout, or stderr under --json). Every
 * figure comes from the finished report, the same one every report file is written from, so the
 * console, conformance.json, summary.md, report.html and junit.xml cannot disagree; progress
 * while the run goes is progress.ts (a status line on a terminal). At run-end: a line per failed,
 * crashed or inconclusive rule (with what the target said; a reason shared by several inconclusive
 * rules once, under them), the table of rules,
 * what the target refused on open points (a few lines, none when it refused none), the verdict, where a stopped run stopped, the seed, and `N passed, N failed`
 * counting rules (then `, N inconclusive`, `, N skipped`, `, N errors` when any); last, the fiat
 * accounts the run left changed (or that restore was off), so a CI log ends with them. `quiet`:
 * the verdict line, and that notice in one line. In a log (no terminal) a `running N rules` line opens the run.
 */
import { shardNoVerdict } from '../model/shard-rules.ts';
import type { ReportListener } from '../model/report-events.ts';
import type { ConformanceReport, ReportRule } from '../model/model.ts';
import { oneLine } from '../../core/text.ts';
import { Redactor } from '../model/redact.ts';
import { rerunCommand } from '../model/rerun-command.ts';
import { failureLine } from '../model/failure-line.ts';
import { coverageFigures, reasonText, stoppedText } from '../model/rule-text.ts';
import { contractOf, refusedLimits } from '../model/report-contract.ts';
import { limitLine, openCasesText } from '../model/contract-text.ts';
import { paintStatus, paintVerdict, palette, type Palette } from './colour.ts';
import { displayWidth } from './display-width.ts';
import { leftBehindLines, sandboxLines } from './left-behind.ts';
import { sandboxNotice, sandboxQuietLine } from '../model/left-changed.ts';
import { groupShortfalls, reasonGroupText } from '../model/reason-groups.ts';
import { moreFailuresText } from '../model/kind-groups.ts';

export interface ConsoleIO {
  /** Writes one line (the newline is added by the writer). */
  out(line: string): void;
  /** True when a status line shows progress (stderr is a terminal): no `running N rules` line then. */
  isTTY: boolean;
  /** The run's credentials so far (issued tokens accumulate), scrubbed from every line. */
  secrets?: () => string[];
  /** Colours, resolved once from the environment (colour.ts); default none. */
  palette?: Palette;
  /** --quiet: only the verdict line (and one line on fiat accounts left changed). */
  quiet?: boolean;
  /** Where created-identities.json was written, for the line that counts the identities created. */
  ledgerFile?: string;
}

const MARK: Record<ReportRule['status'], string> = { passed: '✓', failed: '✗', inconclusive: '?', skipped: '-', error: '!' };

/** Longest reason shown on a rule's line. */
const MESSAGE_WIDTH = 120;
/** Longest failure message with the target's words: the words are shortened first (failure-line.ts). */
const FAILURE_WIDTH = 240;

/** Longest reason line under an inconclusive rule. */
const REASON_WIDTH = 200;

const PLAIN = palette(false);

/**
 * The plain line of a rule, e.g. `  ✓ fa.status.enum  (24 cases)`, or
 * `  ✗ id.valid-accepted  … (HTTP 422) — target said: "first_name must be ASCII"`.
 */
export function ruleLine(rule: ReportRule, redactor?: Redactor, paint: Palette = PLAIN): string {
  const mark = paintStatus(paint, rule.status, MARK[rule.status]);
  if (rule.status === 'passed') return `  ${mark} ${rule.id}  (${rule.cases} ${rule.cases === 1 ? 'case' : 'cases'})`;
  if (rule.status === 'skipped') return `  ${mark} ${rule.id}  skipped${rule.reason ? `: ${oneLine(rule.reason, MESSAGE_WIDTH)}` : ''}`;
  if (rule.status === 'inconclusive' && rule.ruledOutBy) {
    const blocks = rule.blocking ? ' (blocks the verdict under --strict)' : ' (does not block the verdict)';
    return `  ${mark} ${rule.id}  not run: ruled out by ${rule.ruledOutBy.setting}: ${rule.ruledOutBy.fix}${blocks}`;
  }
  if (rule.status === 'inconclusive') {
    const figures = rule.coverage ? coverageFigures(rule.coverage) : `${rule.cases} ${rule.cases === 1 ? 'case' : 'cases'}`;
    return `  ${mark} ${rule.id}  inconclusive: ${figures}${rule.blocking ? '' : ' (does not block the verdict)'}`;
  }
  const first = rule.failures[0];
  const message = first?.message ?? rule.reason ?? rule.status;
  const more = moreFailuresText(rule.failures);
  const line = first ? failureLine(first, rule.id, { width: FAILURE_WIDTH, ...(redactor ? { redactor } : {}) }) : oneLine(message, MESSAGE_WIDTH);
  return `  ${mark} ${rule.id}  ${line}${more}`;
}

/**
 * The lines of inconclusive rules: each rule's line, and under the rules that share a reason the
 * reason once (`15 rules: …` when several share it), not once per rule.
 */
export function inconclusiveLines(rules: readonly ReportRule[], redactor?: Redactor, paint: Palette = PLAIN): string[] {
  return groupShortfalls(rules, '').flatMap((group) => [
    ...group.rules.map(({ rule, own }) => `${ruleLine(rule, redactor, paint)}${own.length ? `; ${own.join('; ')}` : ''}`),
    ...(group.reason ? [`      ${oneLine(reasonGroupText(group), REASON_WIDTH)}`] : []),
  ]);
}

/**
 * The closing line: `N passed, N failed` counting rules, then `, N inconclusive`, `, N skipped`
 * and `, N errors` when any.
 */
export function closingLine(rules: ReportRule[], paint: Palette = PLAIN): string {
  const n = (status: ReportRule['status']) => rules.filter((r) => r.status === status).length;
  const part = (status: ReportRule['status'], words: string) => (n(status) ? paintStatus(paint, status, words) : words);
  let line = `${part('passed', `${n('passed')} passed`)}, ${part('failed', `${n('failed')} failed`)}`;
  if (n('inconclusive')) line += `, ${part('inconclusive', `${n('inconclusive')} inconclusive`)}`;
  if (n('skipped')) line += `, ${n('skipped')} skipped`;
  if (n('error')) line += `, ${part('error', `${n('error')} errors`)}`;
  return line;
}

/** The table of rules printed at the end of a run; the status column in its colour. */
export function rulesTable(rules: ReportRule[], paint: Palette = PLAIN): string[] {
  const header = ['rule', 'section', 'basis', 'status', 'cases'];
  const rows = rules.map((r) => [r.id, r.section, r.basis, `${MARK[r.status]} ${r.status}`, String(r.cases)]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => displayWidth(row[i]))));
  // Padded as plain text, painted after: escape codes take no column.
  const format = (row: string[], status?: ReportRule['status']) =>
    row
      .map((cell, i) => {
        if (i === row.length - 1) return cell.padStart(widths[i]);
        const padded = cell + ' '.repeat(widths[i] - displayWidth(cell));
        return i === 3 && status ? paintStatus(paint, status, cell) + padded.slice(cell.length) : padded;
      })
      .join('  ')
      .trimEnd();
  return [format(header), widths.map((w) => '─'.repeat(w)).join('  '), ...rows.map((row, i) => format(row, rules[i].status))];
}

/** `verdict: conformant (298 requests in 0.5 s)`, the verdict in its colour. */
export function verdictLine(report: ConformanceReport, paint: Palette = PLAIN): string {
  const s = report.summary;
  const figures = `(${s.requests} requests in ${(report.durationMs / 1000).toFixed(1)} s)`;
  // One shard judged one share of the cases: it claims no verdict (shard-rules.ts).
  const none = shardNoVerdict(report);
  if (none) return `verdict: ${none} ${figures}`;
  return `verdict: ${paintVerdict(paint, s.verdict)} ${figures}`;
}

/** Refused open points listed on the console; summary.md lists them all. */
const LIMITS_SHOWN = 4;
/** The target's words on a refusal, in a limit's console line. */
const LIMIT_WORDS_WIDTH = 60;

/**
 * The open points the target refused, at most LIMITS_SHOWN and a line for the rest: information,
 * not failures. None when it refused none (the counts are in summary.md).
 */
export function contractLines(report: ConformanceReport): string[] {
  const refused = refusedLimits(contractOf(report).contract);
  if (!refused.length) return [];
  const counts = openCasesText(report);
  const more = refused.length - LIMITS_SHOWN;
  return [
    `observed contract (open points, refusals are conformant)${counts ? `: ${counts}` : ''}`,
    ...refused.slice(0, LIMITS_SHOWN).map((l) => `  ${oneLine(limitLine(l, LIMIT_WORDS_WIDTH), MESSAGE_WIDTH + 40)}`),
    ...(more > 0 ? [`  +${more} more in summary.md`] : []),
  ];
}

/** The one line for every rule --fail-fast did not let the run judge. */
export function failFastRestLine(rules: number): string {
  return `  … ${rules} ${rules === 1 ? 'rule' : 'rules'} not judged: --fail-fast ended the run at the first failure (run without it to judge them)`;
}

/** Every line the console prints when a run ends. */
export function endLines(report: ConformanceReport, redactor?: Redactor, paint: Palette = PLAIN, ledgerFile?: string): string[] {
  const stopped = stoppedText(report, MESSAGE_WIDTH);
  const reason = reasonText(report);
  const inconclusive = report.rules.filter((r) => r.status === 'inconclusive');
  // --fail-fast stopped the run on purpose: the rules it never reached are one line, not one each.
  const failFast = report.stopped?.kind === 'fail-fast' && inconclusive.length > 0;
  // Worth a line of their own above the table: what failed or crashed, then what was not judged enough.
  const details = [
    ...report.rules.filter((r) => r.status === 'failed' || r.status === 'error').map((r) => ruleLine(r, redactor, paint)),
    ...(failFast ? [failFastRestLine(inconclusive.length)] : inconclusiveLines(inconclusive, redactor, paint)),
  ];
  const tableRules = failFast ? report.rules.filter((r) => r.status !== 'inconclusive') : report.rules;
  const contract = contractLines(report);
  const leftBehind = leftBehindLines(report, ledgerFile);
  const notice = sandboxNotice(report);
  return [
    ...(details.length ? ['', ...details] : []),
    '',
    ...rulesTable(tableRules, paint),
    '',
    ...(contract.length ? [...contract, ''] : []),
    ...(leftBehind.length ? [...leftBehind, ''] : []),
    verdictLine(report, paint),
    ...(stopped ? [stopped] : []),
    ...(reason ? [`reason: ${reason}`] : []),
    `seed ${report.seed}: re-run the same cases with \`${rerunCommand(report)}\``,
    closingLine(report.rules, paint),
    // Last, so a CI log ends with it: an account left changed, or that restore was off.
    ...(notice ? sandboxLines(notice, paint) : []),
  ];
}

/** A ReportListener that prints the end of a run to `io.out` (progress is progress.ts). */
export function createConsoleReporter(io: ConsoleIO): ReportListener {
  // A target may echo a token in a body that a failure message quotes: scrub every line.
  const redactor = () => new Redactor(io.secrets?.() ?? []);
  const out = (line: string) => io.out(redactor().text(line));
  const paint = io.palette ?? PLAIN;
  return (event) => {
    if (event.type === 'run-start' && !io.isTTY && !io.quiet) {
      out(`running ${event.rules} rules against ${event.baseUrl} (seed ${event.seed}, profile ${event.profile})`);
    }
    if (event.type !== 'run-end') return;
    if (io.quiet) {
      out(verdictLine(event.report, paint));
      // One line more under --quiet: an account left changed must not pass unseen.
      const notice = sandboxNotice(event.report);
      if (notice) out(sandboxQuietLine(notice));
    } else endLines(event.report, redactor(), paint, io.ledgerFile).forEach(out);
  };
}
