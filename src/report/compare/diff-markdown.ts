/**
 * `conformance diff --markdown`: the comparison of two reports as Markdown fit for a pull-request
 * comment: a headline (regressions or none), the verdicts, both runs, the warnings when the runs
 * differ in what they ran, then one table of the rules that changed, the regressions first:
 * newly failing, no longer judged, added, newly passing, newly inconclusive, still failing,
 * removed; then the changes of the observed contract (open points), which are no regressions.
 * Cells are escaped (a failure message quotes what the target said).
 */
import { escapeMarkdownCell } from '../files/escape.ts';
import type { ChangeKind, ReportDiff, ReportFacts, RuleChange } from './report-diff.ts';
import type { ContractChange, ContractDiff } from './contract-diff.ts';

const ORDER: readonly ChangeKind[] = ['newly-failing', 'no-longer-judged', 'added', 'newly-passing', 'newly-inconclusive', 'still-failing', 'removed'];

const LABEL: Record<ChangeKind, string> = {
  'newly-failing': '🔴 newly failing',
  'no-longer-judged': '🟠 not judged now',
  added: '🆕 added',
  'newly-passing': '🟢 newly passing',
  'newly-inconclusive': '🟡 newly inconclusive',
  'still-failing': '⚪ still failing',
  removed: '➖ removed',
  other: 'unchanged',
};

const run = (f: ReportFacts): string =>
  `\`${escapeMarkdownCell(f.baseUrl, 120)}\` · seed \`${f.seed}\` · ${escapeMarkdownCell(f.startedAt, 40)} · **${f.verdict}**` +
  (f.stopped ? ` · stopped after ${f.stopped.requests} requests` : '');

function row(c: RuleChange): string {
  const label = c.kind === 'added' && c.regression ? '🔴 added, failing' : LABEL[c.kind];
  return `| ${label} | \`${escapeMarkdownCell(c.id)}\` | §${escapeMarkdownCell(c.section)} | ${c.basis} | ${c.before ?? '—'} → ${c.after ?? '—'} | ${c.message ? escapeMarkdownCell(c.message) : ''} |`;
}

const CONTRACT_LABEL: Record<ContractChange['change'], string> = { appeared: '🆕 appeared', disappeared: '➖ not tried now', changed: '🔀 changed' };

function contractRow(c: ContractChange): string {
  const point = `\`${escapeMarkdownCell(c.field, 120)}\` (${c.operation}), ${c.kind}`;
  const transition = `${escapeMarkdownCell(c.before ?? '—', 120)} → ${escapeMarkdownCell(c.after ?? '—', 120)}`;
  return `| ${CONTRACT_LABEL[c.change]} | ${point} | ${transition} | ${escapeMarkdownCell(c.details.join('; '), 400)} |`;
}

/** The observed contract's changes: a table under its own heading, one line when nothing changed, nothing when neither run tried an open point. */
function contractLines(d: ContractDiff): string[] {
  if (!d.changes.length && !d.note) return d.recorded.old || d.recorded.new ? ['Observed contract (open points): unchanged.', ''] : [];
  const lines = ['### Observed contract changes', '', '_Open points the document leaves to the target: a change is information, not a regression._', ''];
  if (d.note) lines.push(`> ℹ️ ${escapeMarkdownCell(d.note, 400)}`, '');
  if (d.changes.length) lines.push('| Change | Open point | Before → after | What changed |', '|---|---|---|---|', ...d.changes.map(contractRow), '');
  return lines;
}

/** The Markdown text of a diff. */
export function renderDiffMarkdown(d: ReportDiff): string {
  const headline = d.regressions ? `❌ ${d.regressions} regression${d.regressions === 1 ? '' : 's'}` : '✅ no regression';
  const lines = [
    `## Conformance diff: ${headline}`,
    '',
    d.verdict.changed ? `**Verdict changed**: ${d.verdict.before} → **${d.verdict.after}**` : `**Verdict**: ${d.verdict.after}, unchanged`,
    '',
    `- Old: ${run(d.old)}`,
    `- New: ${run(d.new)}`,
    '',
  ];
  for (const warning of d.warnings) lines.push(`> ⚠️ ${escapeMarkdownCell(warning, 400)}`, '');
  const changes = ORDER.flatMap((kind) => d.sections.flatMap((s) => s.changes).filter((c) => c.kind === kind));
  if (changes.length) {
    lines.push('| Change | Rule | Section | Basis | Before → after | First failure or reason |', '|---|---|---|---|---|---|', ...changes.map(row), '');
  } else lines.push('No rule changed its outcome.', '');
  lines.push(
    `${d.newlyFailing.length} newly failing, ${d.newlyPassing.length} newly passing, ${d.stillFailing.length} still failing` +
      (d.newlyInconclusive.length ? `, ${d.newlyInconclusive.length} newly inconclusive` : '') +
      (d.noLongerJudged.length ? `, ${d.noLongerJudged.length} no longer judged` : '') +
      `, ${d.added.length} added, ${d.removed.length} removed.`,
  );
  const contract = contractLines(d.observedContract);
  if (contract.length) lines.push('', ...contract);
  return lines.join('\n') + '\n';
}
