/**
 * A long table of report.html collapsed: past LONG_TABLE_ROWS rows (200 undocumented fields took
 * 7,659 of a page's 11,990 px), the table sits in a `<details>` whose summary counts its rows, so
 * the page stays a few screens long and the count is still read at a glance. No script needed.
 */
import { escapeHtml as e } from './escape.ts';

/** Rows a table shows open; more and it starts collapsed. */
export const LONG_TABLE_ROWS = 20;

/** `table` as it is when short, else collapsed under `<rows> <what>` (`200 undocumented fields`). */
export function collapsedWhenLong(table: string, rows: number, what: string): string {
  if (rows <= LONG_TABLE_ROWS) return table;
  return `<details class="long-table" data-rows="${rows}"><summary>${rows} ${e(what)} (show the table)</summary>${table}</details>`;
}
