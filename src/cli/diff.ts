/**
 * `conformance diff <old.json> <new.json>`: rules newly failing, newly passing and still failing
 * between two reports, per section of the document, plus rules added or removed. Exit 1 when
 * something regressed, 0 otherwise, 2 when a file cannot be read or is not a report.
 */
import { readFile } from 'node:fs/promises';
import { type CliIO } from './io.ts';
import { parseCommandArgs } from '../run/command-args.ts';
import { UsageError } from '../core/errors.ts';
import type { ConformanceReport } from '../report/model.ts';
import { REPORT_VERSION } from '../report/model.ts';
import { registry } from '../schema/registry.ts';
import { diffReports, type ReportDiff, type RuleChange } from '../report/report-diff.ts';

const HELP = `usage: conformance diff <old conformance.json> <new conformance.json> [--json]

Compares two reports rule by rule: newly failing, newly passing, still failing, per section,
and rules added or removed. --json prints the comparison as JSON.
Exit 1 when something regressed (a rule that passed fails now, or a new rule fails), 0 otherwise,
2 when a file cannot be read or is not a conformance report.`;

const REPORT_SCHEMA = 'conformance-report';

async function readReport(file: string): Promise<ConformanceReport> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file} is not JSON (${(error as Error).message.split('\n')[0]})`);
  }
  const version = (data as { reportVersion?: unknown } | null)?.reportVersion;
  if (typeof version === 'string' && version.split('.')[0] !== REPORT_VERSION.split('.')[0]) {
    throw new UsageError(`${file} is a version ${version} report; this tool reads version ${REPORT_VERSION.split('.')[0]}.x`);
  }
  const errors = registry().validate(REPORT_SCHEMA, data);
  if (errors.length) {
    const first = errors[0];
    throw new UsageError(`${file} is not a valid conformance.json report: ${first.instancePath || '/'} ${first.message}`);
  }
  return data as ConformanceReport;
}

const LABEL: Record<RuleChange['kind'], string> = {
  'newly-failing': 'newly failing',
  'newly-passing': 'newly passing',
  'still-failing': 'still failing',
  'no-longer-judged': 'not judged now',
  added: 'added',
  removed: 'removed',
  other: 'unchanged',
};

function changeLine(c: RuleChange, width: number): string {
  const transition = `${c.before ?? '—'} → ${c.after ?? '—'}`;
  const mark = c.regression ? '✗' : c.kind === 'newly-passing' ? '✓' : ' ';
  const message = c.message ? `  ${c.message.replace(/\s+/g, ' ').slice(0, 120)}` : '';
  return `  ${mark} ${LABEL[c.kind].padEnd(14)}  ${c.id.padEnd(width)}  ${transition}${message}`;
}

function textLines(d: ReportDiff): string[] {
  const lines = [
    `old: ${d.old.baseUrl}  seed ${d.old.seed}  ${d.old.startedAt}  ${d.old.verdict}`,
    `new: ${d.new.baseUrl}  seed ${d.new.seed}  ${d.new.startedAt}  ${d.new.verdict}`,
    '',
  ];
  const width = Math.max(0, ...d.sections.flatMap((s) => s.changes.map((c) => c.id.length)));
  if (!d.sections.length) lines.push('no rule changed its outcome', '');
  for (const s of d.sections) {
    lines.push(`§${s.section}`, ...s.changes.map((c) => changeLine(c, width)), '');
  }
  lines.push(
    `${d.newlyFailing.length} newly failing, ${d.newlyPassing.length} newly passing, ${d.stillFailing.length} still failing, ` +
      (d.noLongerJudged.length ? `${d.noLongerJudged.length} no longer judged, ` : '') +
      `${d.added.length} added, ${d.removed.length} removed: ` +
      (d.regressions ? `${d.regressions} regression${d.regressions === 1 ? '' : 's'}` : 'no regression'),
  );
  return lines;
}

/** The `diff` subcommand. */
export async function diff(argv: string[], io: CliIO): Promise<number> {
  const parsed = parseCommandArgs('diff', argv, { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, true);
  if (parsed.values.help) {
    io.out(HELP);
    return 0;
  }
  if (parsed.positionals.length !== 2) {
    throw new UsageError('give two report files: conformance diff reports/old/conformance.json reports/new/conformance.json');
  }
  const older = await readReport(parsed.positionals[0]);
  const newer = await readReport(parsed.positionals[1]);
  const result = diffReports(older, newer);
  if (parsed.values.json) io.out(JSON.stringify(result, null, 2));
  else for (const line of textLines(result)) io.out(line);
  return result.regressions > 0 ? 1 : 0;
}
