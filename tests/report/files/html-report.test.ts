import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { renderHtmlReport } from '../../../src/report/files/html-report.ts';
import { HTML_SCRIPT } from '../../../src/report/files/html-assets.ts';
import { HOSTILE, REFUSAL_WORDS, SHORTFALL, inconclusiveReport, sampleReport, stoppedReport } from '../sample-report.ts';

describe('report.html (as text; the browser test opens it)', () => {
  const html = renderHtmlReport(sampleReport());

  it('is self-contained: no external URL in src/href, one inline script pinned by the CSP hash', () => {
    // Links within the page only (the table of contents), each to an element of the page.
    expect(html).not.toMatch(/\s(?:src|href)=(?!"#)/i);
    const anchors = [...html.matchAll(/\shref="#([^"]+)"/g)].map((m) => m[1]);
    expect(anchors.length).toBeGreaterThan(3);
    for (const id of anchors) expect(html).toContain(`id="${id}"`);
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

  it('an inconclusive run: its banner, a chip per rule, the reason and the coverage figures', () => {
    const page = renderHtmlReport(inconclusiveReport());
    expect(page).toContain('data-verdict="inconclusive"');
    expect(page).toContain('<h1>Inconclusive: a rule was not judged by enough cases</h1>');
    expect(page).toContain('<h2 id="inconclusive">Inconclusive</h2>');
    const article = page.slice(
      page.indexOf('data-inconclusive="id.dob.midnight-utc"'),
      page.indexOf('</article>', page.indexOf('data-inconclusive="id.dob.midnight-utc"')),
    );
    expect(article).toContain('<span class="badge s-inconclusive">inconclusive</span>');
    expect(article).toContain(e(SHORTFALL));
    expect(article).toContain('3 fixed + 0 random cases, minimum 2 + 25');
    expect(article).toContain('blocks the verdict');
    expect(page).toMatch(
      /<tr data-rule="id\.dob\.midnight-utc" data-status="inconclusive">.*<span class="badge s-inconclusive">inconclusive<\/span><\/td><td class="num">3<div class="muted figures">3 fixed \+ 0 random cases, minimum 2 \+ 25<\/div>/,
    );
    expect(page).toContain('rect class="bar-inconclusive"');
    expect(page).toContain('.s-inconclusive');
    expect(page).not.toContain('id="stopped"');
  });

  it('a stopped run: a banner line says where it stopped; a failure shows what the target said', () => {
    const page = renderHtmlReport(stoppedReport());
    expect(page).toContain(
      '<p class="stopped bidi" id="stopped" role="alert"><strong>Stopped:</strong> stopped after 212 requests while judging id.dob.midnight-utc: the target stopped answering: connection: connect ECONNREFUSED 127.0.0.1:4010; partial report, exit 3</p>',
    );
    expect(page).toContain(`<p class="said bidi">Target said: <q>${REFUSAL_WORDS}</q></p>`);
    expect(page.match(/<script>/g)).toHaveLength(1);
    expect(page).not.toMatch(/\s(?:src|href)=(?!"#)/i);
  });
});

/** The page's escaping of a piece of text. */
function e(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
