/**
 * summary.md: a short summary for a pull-request comment or a GitHub job summary: the verdict,
 * the counts, the failed rules, and how to run the same cases again.
 */
import type { ConformanceReport } from './model.ts';
import { escapeMarkdownCell } from './escape.ts';
import { rerunCommand } from './rerun-command.ts';

const VERDICT_LINE: Record<ConformanceReport['summary']['verdict'], string> = {
  conformant: '✅ **Conformant**',
  'non-conformant': '❌ **Non-conformant**',
  inconclusive: '❔ **Inconclusive**: nothing failed, but a rule was not judged by enough cases',
  error: '⚠️ **Error**: the run could not judge the target',
};

/** The markdown text of a report summary. */
export function renderMarkdownSummary(report: ConformanceReport): string {
  const s = report.summary;
  const failed = report.rules.filter((r) => r.status === 'failed' || r.status === 'error');
  const lines = [
    `## Conformance: ${VERDICT_LINE[s.verdict]}`,
    '',
    `Target \`${escapeMarkdownCell(report.target.baseUrl, 200)}\`${report.target.embedded ? ' (embedded reference server)' : ''} · ` +
      `${s.rules} rules: **${s.passed} passed**, **${s.failed} failed**, ${s.skipped} skipped` +
      `${s.errors ? `, ${s.errors} errors` : ''} · ${s.requests} requests · ${(report.durationMs / 1000).toFixed(1)} s`,
    '',
  ];
  if (failed.length) {
    lines.push('| Rule | Section | Basis | First failure |', '|---|---|---|---|');
    for (const r of failed) {
      const message = r.failures[0]?.message ?? r.reason ?? r.status;
      lines.push(`| \`${escapeMarkdownCell(r.id)}\` | §${escapeMarkdownCell(r.section)} | ${r.basis} | ${escapeMarkdownCell(message)} |`);
    }
    lines.push('');
    if (failed.some((r) => r.status === 'failed' && !r.blocking)) {
      lines.push('_Convention rules are reported but fail the run only with `--strict`._', '');
    }
  }
  if (report.undocumentedFields.length) {
    lines.push(`${report.undocumentedFields.length} undocumented response field(s) seen; see report.html.`, '');
  }
  lines.push(
    `Seed **${report.seed}**, profile \`${escapeMarkdownCell(report.profile)}\`. Re-run the same cases with:`,
    '',
    '```sh',
    `npx ${rerunCommand(report).replace(/[\r\n`]/g, '')}`,
    '```',
    '',
  );
  return lines.join('\n');
}
