/**
 * `conformance drift --openapi FILE`: an OpenAPI 3.0/3.1 document of the two operations (JSON or
 * YAML) against the schemas derived from the API document. Each difference is a contradiction,
 * a tightening of an open point, another difference, or a construct not compared; with
 * `--report conformance.json`, each tightening says whether the run's observed contract confirmed
 * it. Exit 1 when there is a contradiction, 0 otherwise, 2 for a usage error or an unreadable file.
 */
import type { CliIO } from './io.ts';
import { parseCommandArgs } from '../run/command-args.ts';
import { UsageError } from '../core/errors.ts';
import { readInputFile } from '../core/json-file.ts';
import { oneLine } from '../core/text.ts';
import { registry } from '../schema/registry.ts';
import { parseOpenApi } from '../schema/drift/openapi-source.ts';
import { compareWithOpenApi } from '../schema/drift/openapi-drift.ts';
import { DRIFT_KINDS, type DriftFinding, type DriftKind, type DriftResult } from '../schema/drift/drift-finding.ts';
import { confirmDrift } from '../report/compare/drift-confirmation.ts';
import { readReport } from '../report/model/read-report.ts';

const HELP = `usage: conformance drift --openapi FILE [--report conformance.json] [--json | --markdown]

Compares the request and response schemas of an OpenAPI 3.0 or 3.1 document (JSON or YAML) for
the two operations with the schemas derived from the API document. Each difference is one of:
  contradiction  the OpenAPI refuses what the document guarantees (a required member the document
                 makes optional, a pattern refusing address2 "", a date where a timestamp is
                 returned) or accepts what it forbids (more than 6 metadata pairs, 101 characters)
  tightening     the OpenAPI restricts a point the document leaves open (a maxLength, a pattern,
                 an enum): a reasonable limit, not a defect
  other          another difference, for information (members one side lists and the other not)
  not compared   a construct this comparison cannot read (an external $ref, oneOf), with its pointer
Each names the operation, the section of the document, the JSON pointer in our schemas and in
the OpenAPI document, and both constraints in words. With --report, each tightening says whether
the run's observed contract confirmed it: confirmed, not enforced by the target, not observed.
--json prints the comparison as JSON, --markdown as a Markdown table.
Exit 1 when there is a contradiction, 0 otherwise, 2 when a file cannot be read.`;

const TITLE: Record<DriftKind, string> = {
  contradiction: 'contradictions: the OpenAPI refuses what the document guarantees, or accepts what it forbids',
  tightening: 'tightenings: the OpenAPI restricts points the document leaves open',
  other: 'other differences (information)',
  'not-compared': 'not compared',
};

const where = (f: DriftFinding) => `${f.operation} ${f.direction} ${f.field}${f.section ? ` (§${f.section})` : ''}`;

function textLines(result: DriftResult): string[] {
  const lines: string[] = [];
  for (const op of result.operations) lines.push(`${op.operation}: ${op.openapi ?? 'not in the OpenAPI document'}`);
  lines.push('');
  for (const kind of DRIFT_KINDS) {
    const findings = result.findings.filter((f) => f.kind === kind);
    if (!findings.length) continue;
    lines.push(`${TITLE[kind]} (${findings.length})`);
    for (const f of findings) {
      lines.push(`  ${where(f)}: ${oneLine(f.reason, 200)}${f.observed ? ` [${f.observed}]` : ''}`);
      lines.push(`      openapi ${f.theirs}${f.openapi ? `: ${oneLine(f.openapi, 120)}` : ''}`);
      lines.push(`      ours    ${f.ours}${f.document ? `: ${oneLine(f.document, 120)}` : ''}`);
    }
    lines.push('');
  }
  const c = result.counts;
  lines.push(`${c.contradiction} contradictions, ${c.tightening} tightenings, ${c.other} other differences, ${c['not-compared']} not compared`);
  return lines;
}

const cell = (text: string) => oneLine(text, 200).replace(/\|/g, '\\|');

function markdown(result: DriftResult): string {
  const rows = result.findings.map(
    (f) =>
      `| ${f.kind} | ${f.operation} ${f.direction} | \`${cell(f.field)}\` | ${f.section ?? ''} | ${cell(f.reason)} | \`${cell(f.theirs)}\` | \`${cell(f.ours)}\` | ${f.observed ?? ''} |`,
  );
  const c = result.counts;
  return [
    '| kind | operation | field | § | difference | OpenAPI | ours | observed |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    `${c.contradiction} contradictions, ${c.tightening} tightenings, ${c.other} other differences, ${c['not-compared']} not compared`,
  ].join('\n');
}

/** The `drift` subcommand. */
export async function drift(argv: string[], io: CliIO): Promise<number> {
  const parsed = parseCommandArgs('drift', argv, {
    openapi: { type: 'string' },
    report: { type: 'string' },
    json: { type: 'boolean' },
    markdown: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (parsed.values.help) {
    io.out(HELP);
    return 0;
  }
  const file = parsed.values.openapi;
  if (!file) throw new UsageError('give the OpenAPI document: conformance drift --openapi openapi.yaml');
  if (parsed.values.json && parsed.values.markdown) throw new UsageError('give --json or --markdown, not both');
  const document = parseOpenApi(await readInputFile(file), file);
  const report = parsed.values.report ? await readReport(parsed.values.report) : undefined;
  const compared = compareWithOpenApi(document, registry());
  const result: DriftResult = report ? { ...compared, findings: confirmDrift(compared.findings, report.observedContract) } : compared;
  if (parsed.values.json) io.out(JSON.stringify({ openapi: file, ...(parsed.values.report ? { report: parsed.values.report } : {}), ...result }, null, 2));
  else if (parsed.values.markdown) io.out(markdown(result));
  else for (const line of textLines(result)) io.out(line);
  return result.counts.contradiction > 0 ? 1 : 0;
}
