/**
 * `conformance matrix <a.json> <b.json> [c.json ...]`: several targets judged by the same rules,
 * side by side (src/report/compare/matrix.ts): a table of rules by target with each first failure
 * in the target's words, the verdicts, the observed contracts where they differ, and what a
 * client of one target would break on another. Console, --markdown, --html or --json, on stdout
 * or into --out FILE. Exit 0 when every target is conformant, 1 when one is not, 2 usage.
 */
import type { CliIO } from './io.ts';
import { printOrWrite } from './out-file.ts';
import { parseCommandArgs } from '../run/command-args.ts';
import { UsageError } from '../core/errors.ts';
import { readReport } from '../report/model/read-report.ts';
import { buildMatrix, type MatrixInput, type ReportMatrix } from '../report/compare/matrix.ts';
import { matrixConsoleLines } from '../report/compare/matrix-console.ts';
import { renderMatrixMarkdown } from '../report/compare/matrix-markdown.ts';
import { renderMatrixHtml } from '../report/compare/matrix-html.ts';
import { colourEnabled, palette } from '../report/terminal/colour.ts';

const HELP = `usage: conformance matrix <conformance.json> <conformance.json>... [--name NAME]...
                         [--json | --markdown | --html] [--out FILE] [--allow-different-seeds]

Puts the reports of several targets side by side: one table of rules by target (each cell the
rule's status and its first failure with the target's words; the rules whose status differs
between targets first, marked ≠), a verdict row, then the observed contracts (open points) where
the targets differ, and what a client written against one target would break on another: the
values one accepted that another refused, as both runs observed them (never a value neither sent).

  --name NAME               a column's name, once per report in their order (default: the
                            report's target base URL; a repeated name gets " (2)")
  --json                    the matrix as one JSON value
  --markdown                as Markdown (a pull-request comment, a wiki page)
  --html                    as one self-contained HTML page (no script, nothing fetched)
  --out FILE                write the output to FILE instead of stdout
  --allow-different-seeds   compare runs of different seeds (a warning instead of an error)

The reports must come from the same rule set (the same rule ids and schemas): otherwise exit 2.
Runs of different seeds are refused too (their random cases differ) unless
--allow-different-seeds; a difference in profile or runs, strict mode, rule filter or shard is a
warning on stderr, as with diff.
Exit 0 when every target is conformant, 1 when any is not (non-conformant, inconclusive,
error, interrupted), 2 when a file cannot be read, is not a report, or the reports cannot be
compared.`;

const OPTIONS = {
  name: { type: 'string', multiple: true },
  json: { type: 'boolean' },
  markdown: { type: 'boolean' },
  html: { type: 'boolean' },
  out: { type: 'string' },
  'allow-different-seeds': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The one document a format asks for; undefined for the console. */
function documentOf(matrix: ReportMatrix, format: 'json' | 'markdown' | 'html' | undefined): string | undefined {
  if (format === 'json') return JSON.stringify(matrix, null, 2);
  if (format === 'markdown') return renderMatrixMarkdown(matrix);
  if (format === 'html') return renderMatrixHtml(matrix);
  return undefined;
}

/** The `matrix` subcommand. */
export async function matrix(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('matrix', argv, OPTIONS, true);
  if (values.help) {
    io.out(HELP);
    return 0;
  }
  if (positionals.length < 2) throw new UsageError('give two or more report files: conformance matrix a/conformance.json b/conformance.json ...');
  const names = values.name ?? [];
  if (names.length && names.length !== positionals.length) {
    throw new UsageError(`give --name once per report, in their order: ${names.length} names for ${positionals.length} reports`);
  }
  if (names.some((n) => !n.trim())) throw new UsageError('--name is empty: give each column a name, or leave --name out for the base URLs');
  const formats = (['json', 'markdown', 'html'] as const).filter((f) => values[f]);
  if (formats.length > 1) throw new UsageError(`give one of --json, --markdown and --html, not ${formats.map((f) => `--${f}`).join(' and ')}`);
  const inputs: MatrixInput[] = [];
  for (const [i, file] of positionals.entries()) inputs.push({ report: await readReport(file), file, ...(names[i] ? { name: names[i] } : {}) });
  const result = buildMatrix(inputs, { allowDifferentSeeds: values['allow-different-seeds'] ?? false });
  // On stderr whatever the format: stdout stays the matrix alone.
  for (const warning of result.warnings) io.err(`conformance matrix: warning: ${warning}`);
  const document = documentOf(result, formats[0]);
  if (document !== undefined) await printOrWrite(document, values.out, io);
  else {
    const lines = matrixConsoleLines(result, palette(values.out === undefined && colourEnabled(io.env, io.isTTY)));
    await printOrWrite(lines.join('\n'), values.out, io);
  }
  return result.conformant ? 0 : 1;
}
