/**
 * summary.md: a short summary for a pull-request comment or a GitHub job summary: a warning first
 * when the run left a fiat account changed (or restore was off), then the verdict,
 * where the run stopped when the target stopped answering, the counts, the failed rules with what
 * the target said (and their other failures by kind and field), the inconclusive rules with why (a reason several share, once), the observed
 * contract (what the target refused on open points), what the run left on the target (identities
 * created, the restore's line), and how to run the same cases again.
 */
import { shardNoVerdict } from '../model/shard-rules.ts';
import type { ConformanceReport, ReportRule } from '../model/model.ts';
import { groupShortfalls, reasonGroupText } from '../model/reason-groups.ts';
import { moreFailuresText } from '../model/kind-groups.ts';
import { escapeMarkdownCell } from './escape.ts';
import { rerunCommand } from '../model/rerun-command.ts';
import { failureLine } from '../model/failure-line.ts';
import { coverageFigures, inconclusiveForAnswers, reasonText, stoppedText } from '../model/rule-text.ts';
import { contractOf, refusedLimits } from '../model/report-contract.ts';
import { firstRefusalText, openCasesText } from '../model/contract-text.ts';
import { leftBehindMarkdown, sandboxWarningMarkdown } from './left-behind-markdown.ts';

/** Longest first-failure cell: the harness's message with the target's words. */
const FAILURE_CELL_WIDTH = 280;

const VERDICT_LINE: Record<ConformanceReport['summary']['verdict'], string> = {
  conformant: '✅ **Conformant**',
  'non-conformant': '❌ **Non-conformant**',
  inconclusive: '❔ **Inconclusive**: nothing failed, but a rule was not judged by enough cases',
  interrupted: '⏹️ **Interrupted**: the run was stopped before its end; what was judged until then is below',
  error: '⚠️ **Error**: the run could not judge the target',
};

/** Values listed per rule; the rest are counted. */
const OPEN_SPACE_VALUES = 8;

/**
 * Which documented rules were judged with which accepted open values (conformance.json
 * `openSpace`): one line per rule; nothing for a run that sent no combination.
 */
function openSpaceLines(report: ConformanceReport): string[] {
  const space = report.openSpace;
  if (!space?.rules.length) return [];
  const lines = [
    '### Rules over the open space',
    '',
    `_Each rule judged again with open values the target accepted alone, pairwise, at most ${space.perRule} cases a rule._`,
    '',
  ];
  for (const r of space.rules) {
    const values = r.values.map((v) => `${v.field.split('.').at(-1)} ${v.value}`);
    const shown =
      values.length > OPEN_SPACE_VALUES ? `${values.slice(0, OPEN_SPACE_VALUES).join(', ')} (+${values.length - OPEN_SPACE_VALUES} more)` : values.join(', ');
    const refused = r.refused ? `, ${r.refused} refused as a combination (the target's limit)` : '';
    lines.push(`- \`${escapeMarkdownCell(r.rule)}\`: ${r.cases} ${r.cases === 1 ? 'case' : 'cases'}${refused}; with ${escapeMarkdownCell(shown, 400)}`);
  }
  lines.push('');
  return lines;
}

/**
 * What the target refused where the document leaves the choice open, one line per point, and the
 * open cases' counts; nothing for a run that tried no open point (or a report before 1.7.0).
 */
function contractLines(report: ConformanceReport): string[] {
  const { contract } = contractOf(report);
  const counts = openCasesText(report);
  const tried = contract.limits.length > 0 || (report.summary.openCases?.accepted ?? 0) + (report.summary.openCases?.refused ?? 0) > 0;
  if (!tried) return [];
  const refused = refusedLimits(contract);
  const lines = ['### Observed contract (open points)', ''];
  for (const limit of refused) {
    const words = firstRefusalText(limit);
    lines.push(
      `- \`${escapeMarkdownCell(limit.field, 120)}\` (${limit.operation}), ${limit.kind}: ${escapeMarkdownCell(limit.summary, 200)}` +
        (words ? ` — ${escapeMarkdownCell(words, 160)}` : ''),
    );
  }
  if (refused.length) lines.push('');
  const others = contract.limits.length - refused.length;
  const tally = [
    refused.length ? undefined : 'No open point was refused',
    counts,
    refused.length && others ? `${others} other open ${others === 1 ? 'point' : 'points'} accepted everything tried` : undefined,
  ].filter(Boolean);
  lines.push(`${tally.join('; ')}. _The document leaves these to the target: a refusal is conformant, not a failure._`, '');
  return lines;
}

/** `\`id\` §2.6 documented (3 fixed + 0 random cases, minimum 2 + 25)`. */
function inconclusiveRuleText(r: ReportRule): string {
  const figures = r.coverage ? ` (${coverageFigures(r.coverage)})` : ` (${r.cases} cases)`;
  return `\`${escapeMarkdownCell(r.id)}\` §${escapeMarkdownCell(r.section)} ${r.basis}${figures}`;
}

const NOT_BLOCKING = ' Does not block the verdict.';

/**
 * One item per reason: a rule with its reason of its own on one line; rules that share a reason
 * under one `N rules: <reason>` item, the reason said once.
 */
function inconclusiveItems(rules: ReportRule[]): string[] {
  return groupShortfalls(rules, 'not judged by enough cases').flatMap((group) => {
    const [{ rule: only }] = group.rules;
    if (group.rules.length === 1) return [`- ${inconclusiveRuleText(only)}: ${escapeMarkdownCell(group.reason, 300)}${only.blocking ? '' : NOT_BLOCKING}`];
    return [
      `- **${escapeMarkdownCell(reasonGroupText(group), 300)}**`,
      ...group.rules.map(
        ({ rule, own }) =>
          `  - ${inconclusiveRuleText(rule)}${own.length ? `: ${escapeMarkdownCell(own.join('; '), 200)}.` : ''}${rule.blocking ? '' : NOT_BLOCKING}`,
      ),
    ];
  });
}

/** The markdown text of a report summary. */
export function renderMarkdownSummary(report: ConformanceReport): string {
  const s = report.summary;
  const failed = report.rules.filter((r) => r.status === 'failed' || r.status === 'error');
  const inconclusive = report.rules.filter((r) => r.status === 'inconclusive');
  const inconclusiveCount = s.inconclusive ?? inconclusive.length;
  const none = shardNoVerdict(report);
  const verdictLine = none
    ? `**No verdict**: ${none}`
    : inconclusiveForAnswers(report)
      ? '❔ **Inconclusive**: nothing failed, but too many requests got no usable HTTP answer'
      : VERDICT_LINE[s.verdict];
  // An account left changed is read before anything else, the verdict included.
  const lines = [...sandboxWarningMarkdown(report), `## Conformance: ${verdictLine}`, ''];
  // Why the verdict is what it is comes first: a run that could not judge the target says why here.
  const reason = reasonText(report, 400);
  if (reason) lines.push(`⚠️ **Reason**: ${escapeMarkdownCell(reason, 400)}`, '');
  const stopped = stoppedText(report);
  if (stopped) lines.push(`⛔ **Stopped**: ${escapeMarkdownCell(stopped, 400)}`, '');
  lines.push(
    `Target \`${escapeMarkdownCell(report.target.baseUrl, 200)}\`${report.target.embedded ? ' (embedded reference server)' : ''} · ` +
      `${s.rules} rules: **${s.passed} passed**, **${s.failed} failed**${inconclusiveCount ? `, **${inconclusiveCount} inconclusive**` : ''}, ${s.skipped} skipped` +
      `${s.errors ? `, ${s.errors} errors` : ''} · ${s.requests} requests${s.unanswered ? ` (${s.unanswered} without a usable answer)` : ''} · ${(report.durationMs / 1000).toFixed(1)} s`,
    '',
  );
  if (failed.length) {
    lines.push('| Rule | Section | Basis | First failure |', '|---|---|---|---|');
    for (const r of failed) {
      const first = r.failures[0];
      const message = first?.message ?? r.reason ?? r.status;
      // The other failures by kind and field (kind-groups.ts), after the first one.
      const others = moreFailuresText(r.failures).trim();
      const more = others ? ` ${escapeMarkdownCell(others, 400)}` : '';
      // The target's words are shortened before the harness's message (failure-line.ts).
      const cell =
        (first ? escapeMarkdownCell(failureLine(first, r.id, { width: FAILURE_CELL_WIDTH }), FAILURE_CELL_WIDTH) : escapeMarkdownCell(message)) + more;
      lines.push(`| \`${escapeMarkdownCell(r.id)}\` | §${escapeMarkdownCell(r.section)} | ${r.basis} | ${cell} |`);
    }
    lines.push('');
    if (failed.some((r) => r.status === 'failed' && !r.blocking)) {
      lines.push('_Convention rules are reported but fail the run only with `--strict`._', '');
    }
  }
  if (inconclusive.length) {
    lines.push('### Inconclusive', '', '_Judged by fewer cases than the profile asks: neither passed nor failed._', '');
    lines.push(...inconclusiveItems(inconclusive), '');
  }
  lines.push(...contractLines(report));
  lines.push(...openSpaceLines(report));
  lines.push(...leftBehindMarkdown(report));
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
