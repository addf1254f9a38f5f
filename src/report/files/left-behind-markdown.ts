/**
 * What summary.md says of what the run left on the target (docs/design.md section 2, "What a run
 * leaves behind"): first of all, a warning when it left a fiat account changed (each field with
 * why, where the original values are, the repair command) or when restore was off; near the end,
 * the "Left on the target" section: how many identities the run created, and the restore's line.
 * Nothing for a report before 1.9.0, which says nothing of either.
 */
import type { ConformanceReport } from '../model/model.ts';
import { leftChangedHeadline, NO_JOURNAL_SENTENCE, outcomeWords, restoreOffLine, sandboxNotice } from '../model/left-changed.ts';
import { escapeMarkdownCell } from './escape.ts';

/** Fields not restored listed in summary.md; conformance.json `restore` lists them all. */
const FIELDS_LISTED = 20;

const code = (text: string) => `\`${escapeMarkdownCell(text, 120)}\``;

/** The warning summary.md opens with: a quote block, before the title, so no one reads past it. */
export function sandboxWarningMarkdown(report: ConformanceReport): string[] {
  const notice = sandboxNotice(report);
  if (!notice) return [];
  if (notice.kind === 'restore-off') {
    const ids = notice.accountIds.map(code).join(', ');
    return [`> ℹ️ **Restore was off**: ${escapeMarkdownCell(notice.note, 200)}${ids ? `: ${ids}` : ''}.`, ''];
  }
  const lines = [`> ⚠️ **${escapeMarkdownCell(leftChangedHeadline(notice), 200)}**`, '>'];
  let listed = 0;
  for (const a of notice.accounts) {
    lines.push(`> - ${code(a.id)}: ${outcomeWords(a)}${a.reason ? `: ${escapeMarkdownCell(a.reason, 300)}` : ''}`);
    for (const n of a.notRestored) {
      if (listed++ < FIELDS_LISTED) lines.push(`>   - ${code(n.field)} not restored: ${escapeMarkdownCell(n.reason, 300)}`);
    }
  }
  if (listed > FIELDS_LISTED) lines.push(`> - +${listed - FIELDS_LISTED} more fields in conformance.json \`restore\``);
  lines.push('>', `> ${notice.journal ? `Original values: ${code(notice.journal)}.` : escapeMarkdownCell(NO_JOURNAL_SENTENCE, 200)}`);
  if (notice.repair) lines.push('> Put them back with:', '>', '> ```sh', `> ${notice.repair.replace(/[\r\n`]/g, '')}`, '> ```');
  lines.push('');
  return lines;
}

/** The "Left on the target" section near the end. */
export function leftBehindMarkdown(report: ConformanceReport): string[] {
  const { createdIdentities, restore } = report;
  if (!createdIdentities && !restore) return [];
  const lines = ['### Left on the target', ''];
  if (createdIdentities) lines.push(`- ${createdIdentities.length} identities created (listed in \`created-identities.json\`; the document has no delete).`);
  if (restore) {
    const warned = sandboxNotice(report)?.kind === 'left-changed' ? ' (the accounts left changed are at the top)' : '';
    lines.push(
      `- Restore: ${escapeMarkdownCell(restore.enabled ? restore.note : restoreOffLine({ kind: 'restore-off', note: restore.note, accountIds: [] }), 200)}${warned}.`,
    );
  }
  lines.push('');
  return lines;
}
