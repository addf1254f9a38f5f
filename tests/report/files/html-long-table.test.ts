/** Long tables of report.html start collapsed, their row count in the summary. */
import { describe, expect, it } from 'vitest';
import { collapsedWhenLong, LONG_TABLE_ROWS } from '../../../src/report/files/html-long-table.ts';
import { renderHtmlReport } from '../../../src/report/files/html-report.ts';
import { sampleReport } from '../sample-report.ts';

describe('a long table', () => {
  it('is collapsed under a summary that counts its rows past LONG_TABLE_ROWS, shown as it is up to it', () => {
    expect(collapsedWhenLong('<table></table>', LONG_TABLE_ROWS, 'rows')).toBe('<table></table>');
    expect(collapsedWhenLong('<table></table>', 200, 'undocumented fields')).toBe(
      '<details class="long-table" data-rows="200"><summary>200 undocumented fields (show the table)</summary><table></table></details>',
    );
  });

  it('200 undocumented fields: one summary line in report.html, the table inside it', () => {
    const report = sampleReport();
    report.undocumentedFields = Array.from({ length: 200 }, (_, i) => ({ path: `/extra_${i}`, operation: 'createIdentity' as const, count: 1 }));
    const html = renderHtmlReport(report);
    const section = html.slice(html.indexOf('id="undocumented"'));
    expect(section).toContain('<details class="long-table" data-rows="200"><summary>200 undocumented fields');
    expect(section.indexOf('<summary>200 undocumented fields')).toBeLessThan(section.indexOf('/extra_0'));
    const few = sampleReport();
    few.undocumentedFields = few.undocumentedFields.slice(0, 3);
    expect(renderHtmlReport(few)).not.toContain('class="long-table"');
  });
});
