/**
 * Workflow commands for GitHub Actions: one `::error` per rule that keeps the run from conformant
 * and one `::warning` per failed or inconclusive rule that does not, so a pull request shows the
 * findings without opening the log; the fiat accounts left changed first (restore off: a warning). GitHub shows at most 10 errors and 10 warnings of a step:
 * past that, one line says how many more are in the summary.
 */
import { oneLine } from '../../core/text.ts';
import type { ConformanceReport, ReportRule } from '../model/model.ts';
import { reasonText, stoppedText } from '../model/rule-text.ts';
import { failureLine } from '../model/failure-line.ts';
import { caseModeText } from '../model/case-text.ts';
import { leftChangedHeadline, sandboxNotice, sandboxQuietLine } from '../model/left-changed.ts';

/** GitHub's display limit of annotations per kind and step. */
export const ANNOTATIONS_SHOWN = 10;
const MESSAGE_WIDTH = 1000;

/** A workflow command's data: %, CR and LF escaped (GitHub's toCommandValue). */
const escapeData = (text: string): string => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
/** A property value: the data escapes, and the `:` and `,` that would end it. */
const escapeProperty = (text: string): string => escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');

function command(kind: 'error' | 'warning', properties: { file: string; title: string }, message: string): string {
  return `::${kind} file=${escapeProperty(properties.file)},title=${escapeProperty(properties.title)}::${escapeData(message)}`;
}

function ruleMessage(rule: ReportRule): string {
  const first = rule.failures[0];
  if (!first) return oneLine(rule.reason ?? rule.status, MESSAGE_WIDTH);
  const more = rule.failures.length > 1 ? ` (+${rule.failures.length - 1} more)` : '';
  return [
    `${failureLine(first, rule.id, { width: MESSAGE_WIDTH })}${more}`,
    `case: ${first.case.label} (${caseModeText(first.case)})`,
    `reproduce: ${oneLine(first.curl, MESSAGE_WIDTH)}`,
  ].join('\n');
}

const titleOf = (rule: ReportRule, kind: string): string =>
  `${rule.id} ${kind} (§${rule.section}, ${rule.basis}${rule.blocking ? '' : ', fatal only with --strict'})`;

/**
 * The annotation lines of a report. `file`: the path the annotations point at, the run's
 * summary.md (relative to the workspace): the findings have no line in the user's sources.
 */
export function githubAnnotations(report: ConformanceReport, file: string): string[] {
  const errors: string[] = [];
  const warnings: string[] = [];
  const stopped = stoppedText(report, 300);
  if (stopped) errors.push(command('error', { file, title: 'conformance run stopped early' }, stopped));
  const reason = reasonText(report);
  if (reason) errors.push(command('error', { file, title: `conformance run ${report.summary.verdict}` }, reason));
  // First among the errors that GitHub shows: an account left changed is someone else's problem too.
  const notice = sandboxNotice(report);
  if (notice?.kind === 'left-changed') errors.unshift(command('error', { file, title: leftChangedHeadline(notice) }, sandboxQuietLine(notice)));
  if (notice?.kind === 'restore-off') warnings.push(command('warning', { file, title: 'fiat accounts not restored (--no-restore)' }, sandboxQuietLine(notice)));
  for (const rule of report.rules) {
    if (rule.status !== 'failed' && rule.status !== 'error' && rule.status !== 'inconclusive') continue;
    const line = command(rule.blocking ? 'error' : 'warning', { file, title: titleOf(rule, rule.status) }, ruleMessage(rule));
    (rule.blocking ? errors : warnings).push(line);
  }
  const bounded = (lines: string[], kind: 'error' | 'warning'): string[] =>
    lines.length <= ANNOTATIONS_SHOWN
      ? lines
      : [
          ...lines.slice(0, ANNOTATIONS_SHOWN - 1),
          command(kind, { file, title: `${lines.length - ANNOTATIONS_SHOWN + 1} more ${kind}s` }, `${lines.length - ANNOTATIONS_SHOWN + 1} more in ${file}`),
        ];
  return [...bounded(errors, 'error'), ...bounded(warnings, 'warning')];
}
