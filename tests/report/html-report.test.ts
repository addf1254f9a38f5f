import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { renderHtmlReport } from '../../src/report/html-report.ts';
import { HTML_SCRIPT } from '../../src/report/html-assets.ts';
import { HOSTILE, sampleReport } from './sample-report.ts';

describe('report.html (as text; the browser test opens it)', () => {
  const html = renderHtmlReport(sampleReport());

  it('is self-contained: no external URL in src/href, one inline script pinned by the CSP hash', () => {
    expect(html).not.toMatch(/\s(?:src|href)=/i);
    expect(html.match(/<script>/g)).toHaveLength(1);
    const hash = createHash('sha256').update(HTML_SCRIPT).digest('base64');
    expect(html).toContain(`script-src 'sha256-${hash}'`);
  });

  it('escapes hostile payloads and makes control characters visible', () => {
    expect(html).not.toContain(HOSTILE.script);
    expect(html).toContain('&lt;script&gt;window.__pwned = 1&lt;/script&gt;');
    expect(html).not.toMatch(/[\u0000\u0007\u001b]/);
    expect(html).not.toContain('</pre></td>"');
  });

  it('shows a calm empty state for a conformant run and the error banner for an aborted one', () => {
    const ok = sampleReport();
    ok.rules = ok.rules.map((r) => ({ ...r, status: 'passed', failures: [] }));
    ok.summary = { ...ok.summary, verdict: 'conformant', passed: ok.rules.length, failed: 0, skipped: 0 };
    const okHtml = renderHtmlReport(ok);
    expect(okHtml).toContain('data-verdict="conformant"');
    expect(okHtml).toContain('No rule failed.');
    const aborted = { ...sampleReport(), summary: { ...sampleReport().summary, verdict: 'error' as const } };
    expect(renderHtmlReport(aborted)).toContain('<h1>Error: the target could not be judged</h1>');
  });
});
