/**
 * report.html's warning before everything else, the verdict banner included, when the run left a
 * fiat account changed: the accounts, each field not restored with why, where the original values
 * are and the repair command; or a note that restore was off (--no-restore). Every value escaped.
 */
import type { ConformanceReport } from '../model/model.ts';
import { leftChangedHeadline, NO_JOURNAL_SENTENCE, outcomeWords, reasonGroups, restoreOffLine, sandboxNotice } from '../model/left-changed.ts';
import { escapeHtml as e } from './escape.ts';

/** Reasons listed per account, and fields named per reason; conformance.json `restore` lists them all. */
const REASONS_LISTED = 5;
const FIELDS_NAMED = 6;

export function leftChangedHtml(report: ConformanceReport): string {
  const notice = sandboxNotice(report);
  if (!notice) return '';
  if (notice.kind === 'restore-off') {
    return `<aside class="sandbox restore-off" id="left-changed" data-sandbox="restore-off"><div class="inner"><strong>Restore was off.</strong> <span class="bidi">${e(restoreOffLine(notice))}</span></div></aside>\n`;
  }
  const accounts = notice.accounts.map((a) => {
    const groups = reasonGroups(a);
    const items = groups.slice(0, REASONS_LISTED).map((g) => {
      const more = g.fields.length > FIELDS_NAMED ? ` (+${g.fields.length - FIELDS_NAMED} more)` : '';
      const fields = g.fields
        .slice(0, FIELDS_NAMED)
        .map((f) => `<code class="bidi">${e(f)}</code>`)
        .join(', ');
      return `<li>not restored: <span class="bidi">${e(g.reason)}</span>: ${fields}${more}</li>`;
    });
    if (groups.length > REASONS_LISTED) items.push(`<li>+${groups.length - REASONS_LISTED} more reasons in conformance.json <code>restore</code></li>`);
    return `<li data-account="${e(a.id)}"><code>${e(a.id)}</code>: ${e(outcomeWords(a))}${a.reason ? `: <span class="bidi">${e(a.reason)}</span>` : ''}${items.length ? `<ul>${items.join('')}</ul>` : ''}</li>`;
  });
  const where = notice.journal ? `Original values: <code>${e(notice.journal)}</code>.` : e(NO_JOURNAL_SENTENCE);
  const repair = notice.repair ? ` Put them back with <code class="repair">${e(notice.repair)}</code>` : '';
  return `<aside class="sandbox left-changed" id="left-changed" role="alert" data-sandbox="left-changed"><div class="inner">
<h2>⚠ ${e(leftChangedHeadline(notice))}</h2>
<ul>${accounts.join('')}</ul>
<p>${where}${repair}</p></div></aside>
`;
}
