/**
 * What summary.md says of what the run left on the target (docs/design.md section 2, "What a run
 * leaves behind"): first of all, a warning when it left a fiat account changed (each field with
 * why, where the original values are, the repair command) or when restore was off; near the end,
 * the "Left on the target" section: how many identities the run created, and the restore's line.
 * Nothing for a report before 1.9.0, which says nothing of either.
 */
import type { ConformanceReport } from '../model/model.ts';
import { leftChangedHeadline, NO_JOURNAL_SENTENCE, outcomeWords, reasonGroups, restoreOffLine, sandboxNotice } from '../model/left-changed.ts';
import { escapeMarkdownCell } from './escape.ts';
import { identityCounts } from '../model/identity-counts.ts';

/** Reasons listed per account, and fields named per reason; conformance.json `restore` lists them all. */
const REASONS_LISTED = 5;
const FIELDS_NAMED = 6;

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
  for (const a of notice.accounts) {
    lines.push(`> - ${code(a.id)}: ${outcomeWords(a)}${a.reason ? `: ${escapeMarkdownCell(a.reason, 300)}` : ''}`);
    const groups = reasonGroups(a);
    for (const g of groups.slice(0, REASONS_LISTED)) {
      const more = g.fields.length > FIELDS_NAMED ? ` (+${g.fields.length - FIELDS_NAMED} more)` : '';
      lines.push(`>   - not restored: ${escapeMarkdownCell(g.reason, 300)}: ${g.fields.slice(0, FIELDS_NAMED).map(code).join(', ')}${more}`);
    }
    if (groups.length > REASONS_LISTED) lines.push(`>   - +${groups.length - REASONS_LISTED} more reasons in conformance.json \`restore\``);
  }
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
  if (createdIdentities) {
    const { created, unknown } = identityCounts(createdIdentities);
    const lost = unknown ? `, ${unknown} more may exist (the answer to their create was lost; listed by ref_id)` : '';
    lines.push(`- ${created} identities created${lost} (listed in \`created-identities.json\`; the document has no delete).`);
  }
  if (restore) {
    const warned = sandboxNotice(report)?.kind === 'left-changed' ? ' (the accounts left changed are at the top)' : '';
    lines.push(
      `- Restore: ${escapeMarkdownCell(restore.enabled ? restore.note : restoreOffLine({ kind: 'restore-off', note: restore.note, accountIds: [] }), 200)}${warned}.`,
    );
  }
  lines.push('');
  return lines;
}
