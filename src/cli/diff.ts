/**
 * `conformance diff <old.json> <new.json>`: rules newly failing, newly passing and still failing
 * between two reports, per section of the document, plus rules added or removed, inconclusive
 * transitions and the verdicts, and the changes of the observed contract (open points), which
 * are information. Exit 1 when something regressed, 0 otherwise, 2 when a file cannot be read or
 * is not a report.
 */
import type { CliIO } from './io.ts';
import { parseCommandArgs } from '../run/command-args.ts';
import { UsageError } from '../core/errors.ts';
import { oneLine } from '../core/text.ts';
import { readReport } from '../report/model/read-report.ts';
import { diffReports, type ReportDiff, type ReportFacts, type RuleChange } from '../report/compare/report-diff.ts';
import type { ContractChange, ContractDiff } from '../report/compare/contract-diff.ts';
import { renderDiffMarkdown } from '../report/compare/diff-markdown.ts';
import { colourEnabled, palette, type Palette } from '../report/terminal/colour.ts';

const HELP = `usage: conformance diff <old conformance.json> <new conformance.json> [--json | --markdown]

Compares two reports rule by rule: newly failing, newly passing, still failing, per section,
rules no longer judged (enough) and rules added or removed, then the verdicts. --json prints the
comparison as JSON; --markdown as a Markdown table for a pull-request comment.
A warning goes to stderr when the two runs differ in what they ran: target, seed, profile or
runs, strict mode, rule filter or shard (a changed rule then says less about the target).
Exit 1 when something regressed (a rule that passed fails now, or is skipped or inconclusive now,
or a new rule fails), 0 otherwise, 2 when a file cannot be read or is not a conformance report.
A rule that was inconclusive and passes now is newly passing; a failing rule that is inconclusive
now is shown as newly inconclusive: not reproduced, but not proven fixed, and no regression.
Open points whose observed limits appeared, disappeared or changed (a longest accepted length, a
code value now refused) are listed as observed contract changes: information, never a
regression (a guaranteed input now refused is a rule failure, listed above).`;

const LABEL: Record<RuleChange['kind'], string> = {
  'newly-failing': 'newly failing',
  'newly-passing': 'newly passing',
  'still-failing': 'still failing',
  'newly-inconclusive': 'inconclusive',
  'no-longer-judged': 'not judged now',
  added: 'added',
  removed: 'removed',
  other: 'unchanged',
};

function changeLine(c: RuleChange, width: number, paint: Palette): string {
  const transition = `${c.before ?? '—'} → ${c.after ?? '—'}`;
  const mark = c.regression ? paint.red('✗') : c.kind === 'newly-passing' ? paint.green('✓') : c.kind === 'newly-inconclusive' ? paint.yellow('?') : ' ';
  const message = c.message ? `  ${oneLine(c.message, 120)}` : '';
  return `  ${mark} ${LABEL[c.kind].padEnd(14)}  ${c.id.padEnd(width)}  ${transition}${message}`;
}

/** `  (stopped after 212 requests while judging X: …)` for a run that stopped early. */
const stopNote = (f: ReportFacts): string =>
  f.stopped
    ? `  (stopped after ${f.stopped.requests} requests${f.stopped.rule ? ` while judging ${f.stopped.rule}` : ''}: ${oneLine(f.stopped.message, 80)})`
    : '';

const CONTRACT_MARK: Record<ContractChange['change'], string> = { appeared: '+', disappeared: '-', changed: '~' };

/** The observed contract's changes, before the closing line; nothing when there are none. */
function contractLines(d: ContractDiff): string[] {
  if (!d.changes.length && !d.note) return [];
  const lines = ['observed contract changes (open points: information, not regressions)'];
  for (const c of d.changes) {
    const transition =
      c.change === 'appeared' ? `${c.after} (not tried before)` : c.change === 'disappeared' ? `${c.before} (not tried now)` : `${c.before} → ${c.after}`;
    lines.push(`  ${CONTRACT_MARK[c.change]} ${c.operation} ${c.field}, ${c.kind}: ${oneLine(transition, 160)}`);
    if (c.details.length) lines.push(`      ${oneLine(c.details.join('; '), 200)}`);
  }
  if (d.note) lines.push(`  note: ${oneLine(d.note, 300)}`);
  return [...lines, ''];
}

function textLines(d: ReportDiff, paint: Palette): string[] {
  const lines = [
    `old: ${d.old.baseUrl}  seed ${d.old.seed}  ${d.old.startedAt}  ${d.old.verdict}${stopNote(d.old)}`,
    `new: ${d.new.baseUrl}  seed ${d.new.seed}  ${d.new.startedAt}  ${d.new.verdict}${stopNote(d.new)}`,
    d.verdict.changed ? `verdict: ${d.verdict.before} → ${d.verdict.after}` : `verdict: ${d.verdict.after}, unchanged`,
    '',
  ];
  const width = Math.max(0, ...d.sections.flatMap((s) => s.changes.map((c) => c.id.length)));
  if (!d.sections.length) lines.push('no rule changed its outcome', '');
  for (const s of d.sections) {
    lines.push(`§${s.section}`, ...s.changes.map((c) => changeLine(c, width, paint)), '');
  }
  lines.push(...contractLines(d.observedContract));
  lines.push(
    `${d.newlyFailing.length} newly failing, ${d.newlyPassing.length} newly passing, ${d.stillFailing.length} still failing, ` +
      (d.newlyInconclusive.length ? `${d.newlyInconclusive.length} newly inconclusive, ` : '') +
      (d.noLongerJudged.length ? `${d.noLongerJudged.length} no longer judged, ` : '') +
      `${d.added.length} added, ${d.removed.length} removed: ` +
      (d.regressions ? `${d.regressions} regression${d.regressions === 1 ? '' : 's'}` : 'no regression'),
  );
  return lines;
}

/** The `diff` subcommand. */
export async function diff(argv: string[], io: CliIO): Promise<number> {
  const parsed = parseCommandArgs('diff', argv, { json: { type: 'boolean' }, markdown: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, true);
  if (parsed.values.help) {
    io.out(HELP);
    return 0;
  }
  if (parsed.positionals.length !== 2) {
    throw new UsageError('give two report files: conformance diff reports/old/conformance.json reports/new/conformance.json');
  }
  const older = await readReport(parsed.positionals[0]);
  const newer = await readReport(parsed.positionals[1]);
  if (parsed.values.json && parsed.values.markdown) throw new UsageError('give --json or --markdown, not both');
  const result = diffReports(older, newer);
  // On stderr whatever the format: stdout stays the comparison alone (a comment, a JSON value).
  for (const warning of result.warnings) io.err(`conformance diff: warning: ${warning}`);
  if (parsed.values.json) io.out(JSON.stringify(result, null, 2));
  else if (parsed.values.markdown) io.out(renderDiffMarkdown(result).trimEnd());
  else for (const line of textLines(result, palette(colourEnabled(io.env, io.isTTY)))) io.out(line);
  return result.regressions > 0 ? 1 : 0;
}
