/**
 * summary.md's "Left on the target" section (docs/design.md section 2, "What a run leaves
 * behind"): how many identities the run created, and what it could not put back on the fiat
 * accounts. Nothing for a report before 1.9.0, which says nothing of either.
 */
import type { ConformanceReport } from '../model/model.ts';
import { escapeMarkdownCell } from './escape.ts';
import { identityCounts } from '../model/identity-counts.ts';

/** Fields not restored listed in summary.md; conformance.json `restore` lists them all. */
const FIELDS_LISTED = 20;

export function leftBehindMarkdown(report: ConformanceReport): string[] {
  const { createdIdentities, restore } = report;
  if (!createdIdentities && !restore) return [];
  const lines = ['### Left on the target', ''];
  if (createdIdentities) {
    const { created, unknown } = identityCounts(createdIdentities);
    const lost = unknown ? `, ${unknown} more may exist (the answer to their create was lost; listed by ref_id)` : '';
    lines.push(`- ${created} identities created${lost} (listed in \`created-identities.json\`; the document has no delete).`);
  }
  if (restore) lines.push(`- Restore: ${escapeMarkdownCell(restore.note, 200)}.`);
  const code = (text: string) => `\`${escapeMarkdownCell(text, 120)}\``;
  const notes = (restore?.accounts ?? []).flatMap((a) =>
    a.reason
      ? [`${code(a.id)}: ${escapeMarkdownCell(a.reason, 300)}`]
      : a.notRestored.map((n) => `${code(a.id)} ${code(n.field)} not restored: ${escapeMarkdownCell(n.reason, 300)}`),
  );
  for (const note of notes.slice(0, FIELDS_LISTED)) lines.push(`  - ${note}`);
  if (notes.length > FIELDS_LISTED) lines.push(`  - +${notes.length - FIELDS_LISTED} more in conformance.json \`restore\``);
  lines.push('');
  return lines;
}
