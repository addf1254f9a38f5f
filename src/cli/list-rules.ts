/**
 * `conformance run --list-rules`: every rule the run would judge (honouring --rule), with its
 * section of the document, its basis and its title; `--json` prints them as one JSON array.
 * Nothing is sent and no server is started.
 */
import type { CliIO } from './io.ts';
import type { RunConfig } from '../run/run-config.ts';
import { selectRules } from '../engine/plan.ts';
import { displayWidth } from '../report/terminal/display-width.ts';

/** One rule as --list-rules --json prints it. */
export interface ListedRule {
  id: string;
  operation: string;
  section: string;
  basis: 'documented' | 'convention';
  title: string;
}

export function listedRules(ruleFilter: readonly string[]): ListedRule[] {
  return selectRules(ruleFilter).map((r) => ({ id: r.id, operation: r.operation, section: r.section, basis: r.basis, title: r.title }));
}

/** `id  §section  basis  title`, one rule a line under a header, columns aligned. */
export function ruleListLines(rules: readonly ListedRule[]): string[] {
  const rows = [['rule', 'section', 'basis', 'title'], ...rules.map((r) => [r.id, `§${r.section}`, r.basis, r.title])];
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((row) => displayWidth(row[i]))));
  return rows.map((row) => row.map((cell, i) => (i < 3 ? cell + ' '.repeat(widths[i] - displayWidth(cell)) : cell)).join('  '));
}

export function listRules(config: RunConfig, io: CliIO): number {
  const rules = listedRules(config.ruleFilter);
  if (config.json) io.out(JSON.stringify(rules, null, 2));
  else for (const line of ruleListLines(rules)) io.out(line);
  return 0;
}
