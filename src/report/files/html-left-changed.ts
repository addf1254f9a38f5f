/**
 * report.html's warning before everything else, the verdict banner included, when the run left a
 * fiat account changed: the accounts, each field not restored with why, where the original values
 * are and the repair command; or a note that restore was off (--no-restore). Every value escaped.
 */
import type { ConformanceReport } from '../model/model.ts';
import { leftChangedHeadline, NO_JOURNAL_SENTENCE, outcomeWords, restoreOffLine, sandboxNotice } from '../model/left-changed.ts';
import { escapeHtml as e } from './escape.ts';

/** Fields not restored listed on the page; conformance.json `restore` lists them all. */
const FIELDS_LISTED = 20;

export function leftChangedHtml(report: ConformanceReport): string {
  const notice = sandboxNotice(report);
  if (!notice) return '';
  if (notice.kind === 'restore-off') {
    return `<aside class="sandbox restore-off" id="left-changed" data-sandbox="restore-off"><div class="inner"><strong>Restore was off.</strong> <span class="bidi">${e(restoreOffLine(notice))}</span></div></aside>\n`;
  }
  let listed = 0;
  const accounts = notice.accounts.map((a) => {
    const fields = a.notRestored
      .filter(() => listed++ < FIELDS_LISTED)
      .map((n) => `<li><code class="bidi">${e(n.field)}</code> not restored: <span class="bidi">${e(n.reason)}</span></li>`)
      .join('');
    return `<li data-account="${e(a.id)}"><code>${e(a.id)}</code>: ${e(outcomeWords(a))}${a.reason ? `: <span class="bidi">${e(a.reason)}</span>` : ''}${fields ? `<ul>${fields}</ul>` : ''}</li>`;
  });
  const more = listed > FIELDS_LISTED ? `<li>+${listed - FIELDS_LISTED} more fields in conformance.json <code>restore</code></li>` : '';
  const where = notice.journal ? `Original values: <code>${e(notice.journal)}</code>.` : e(NO_JOURNAL_SENTENCE);
  const repair = notice.repair ? ` Put them back with <code class="repair">${e(notice.repair)}</code>` : '';
  return `<aside class="sandbox left-changed" id="left-changed" role="alert" data-sandbox="left-changed"><div class="inner">
<h2>⚠ ${e(leftChangedHeadline(notice))}</h2>
<ul>${accounts.join('')}${more}</ul>
<p>${where}${repair}</p></div></aside>
`;
}
