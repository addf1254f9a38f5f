/**
 * The observed contract in every renderer: summary.md lists each refused open point after the
 * rules, report.html a compact table, the console a few lines (none when nothing was refused);
 * and where a failing case's mode is shown (junit.xml, annotations, report.html), its intent too.
 */
import { describe, expect, it } from 'vitest';
import type { ObservedLimit } from '../../src/core/open-point.ts';
import { renderHtmlReport } from '../../src/report/files/html-report.ts';
import { renderJunit } from '../../src/report/files/junit.ts';
import { renderMarkdownSummary } from '../../src/report/files/markdown-summary.ts';
import type { ConformanceReport } from '../../src/report/model/model.ts';
import { contractLines, createConsoleReporter, endLines } from '../../src/report/terminal/console.ts';
import { githubAnnotations } from '../../src/report/terminal/github-annotations.ts';
import { ALPHABET_WORDS, HOSTILE, SAMPLE_CONTRACT, legacyReport, openCaseFailure, sampleReport } from './sample-report.ts';

/** The sample with only the limits the target accepted throughout. */
function acceptingReport(): ConformanceReport {
  const report = sampleReport();
  report.observedContract!.limits = report.observedContract!.limits.filter((l) => !l.refused.length);
  report.summary.openCases = { accepted: 12, refused: 0 };
  return report;
}

/** The sample with no open point tried. */
function untriedReport(): ConformanceReport {
  const report = sampleReport();
  report.observedContract = { version: 1, limits: [] };
  report.summary.openCases = { accepted: 0, refused: 0 };
  return report;
}

/** `n` refused limits on fields f1..fn. */
const refusing = (n: number): ObservedLimit[] =>
  Array.from({ length: n }, (_, i) => ({
    operation: 'createIdentity',
    field: `person_details.f${i + 1}`,
    kind: 'code',
    accepted: ['GBR'],
    refused: [{ value: `X${i + 1}`, status: 400, said: `f${i + 1} is not a known code` }],
    summary: `refused X${i + 1}; accepted GBR`,
  }));

describe('summary.md', () => {
  const md = renderMarkdownSummary(sampleReport());
  const section = md.slice(md.indexOf('### Observed contract (open points)'));

  it('has the section after the rules, before the undocumented fields and the re-run command', () => {
    const at = md.indexOf('### Observed contract (open points)');
    expect(at).toBeGreaterThan(md.indexOf('| `id.answers` |'));
    expect(at).toBeLessThan(md.indexOf('undocumented response field'));
    expect(at).toBeLessThan(md.indexOf('Re-run the same cases'));
  });

  it('gives one line per refused point: field, operation, kind, summary and the first refusal in the target words, escaped', () => {
    const items = section.split('\n').filter((l) => l.startsWith('- '));
    expect(items).toEqual([
      '- `person_details.address.address1` (createIdentity), length: refuses over 35 characters (accepted up to 35) — 422: address1 is longer than 35 characters',
      '- `person_details.address.country` (createIdentity), code: refused XKX; accepted GBR, DEU — 400: country must be one of GBR \\| DEU \\| FRA &lt;script&gt;window.__pwned = 1&lt;/script&gt;',
      '- `person_details.date_of_birth` (createIdentity), date: refused 1899-12-31; accepted 1930-01-01 to 2005-06-30 — 400',
      `- \`person_details.first_name\` (createIdentity), alphabet: refused cjk, astral; accepted accented latin (é, ñ, ß) — 400: ${ALPHABET_WORDS}`,
    ]);
    expect(section).not.toContain(HOSTILE.script);
  });

  it('counts the open cases and the points accepted throughout', () => {
    expect(section).toContain(
      '41 open cases accepted, 6 refused; 2 other open points accepted everything tried. _The document leaves these to the target: a refusal is conformant, not a failure._',
    );
  });

  it('says that no open point was refused when every open case was accepted', () => {
    const accepting = renderMarkdownSummary(acceptingReport());
    expect(accepting).toContain('### Observed contract (open points)');
    expect(accepting).toContain('No open point was refused; 12 open cases accepted, 0 refused.');
    expect(accepting).not.toMatch(/^- `/m);
  });

  it('has no section for a run that tried no open point, nor for a report before 1.7.0', () => {
    expect(renderMarkdownSummary(untriedReport())).not.toContain('Observed contract');
    expect(renderMarkdownSummary(legacyReport())).not.toContain('Observed contract');
  });
});

describe('report.html', () => {
  const html = renderHtmlReport(sampleReport());

  it('has a compact table of the refused points, after the rules, with the target words escaped', () => {
    expect(html.indexOf('<h2 id="observed-contract">')).toBeGreaterThan(html.indexOf('<h2>Rules</h2>'));
    const rows = [...html.matchAll(/<tr data-limit="([^"]+)">/g)].map((m) => m[1]);
    expect(rows).toEqual(SAMPLE_CONTRACT.limits.filter((l) => l.refused.length).map((l) => `${l.operation} ${l.field} ${l.kind}`));
    expect(html).toContain('<td class="said bidi">400: country must be one of GBR | DEU | FRA &lt;script&gt;window.__pwned = 1&lt;/script&gt;</td>');
    expect(html).toContain('41 open cases accepted, 6 refused · 2 open points accepted everything tried.');
  });

  it('says so when nothing was refused, nothing was tried, or the report predates the contract', () => {
    expect(renderHtmlReport(acceptingReport())).toContain('<p class="empty">No open point was refused.</p>');
    expect(renderHtmlReport(untriedReport())).toContain('<p class="empty">No open case was tried.</p>');
    expect(renderHtmlReport(legacyReport())).toContain('<p class="empty">Not recorded: report version 1.6.0 predates it.</p>');
    expect(renderHtmlReport(acceptingReport())).not.toContain('data-limit=');
  });

  it("shows a failing case's mode with its intent, and an open case's probe", () => {
    expect(html).toContain('metadata with 7 pairs · mode invalid, forbidden · violates fa.metadata.over-pairs-rejected');
    const open = sampleReport();
    open.rules.find((r) => r.id === 'id.dob.midnight-utc')!.failures = [structuredClone(openCaseFailure)];
    expect(renderHtmlReport(open)).toContain('person with a first name in cjk · mode valid, open: person_details.first_name, alphabet cjk');
  });
});

describe('the console', () => {
  it('lists the refused points between the rules table and the verdict, with the counts', () => {
    const lines = endLines(sampleReport());
    const at = lines.findIndex((l) => l.startsWith('observed contract'));
    expect(lines[at]).toBe('observed contract (open points, refusals are conformant): 41 open cases accepted, 6 refused');
    expect(lines.slice(at + 1, at + 5)).toEqual([
      '  person_details.address.address1, length: refuses over 35 characters (accepted up to 35) (422: address1 is longer than 35 characters)',
      '  person_details.address.country, code: refused XKX; accepted GBR, DEU (400: country must be one of GBR | DEU | FRA <script>window.__pwn…)',
      '  person_details.date_of_birth, date: refused 1899-12-31; accepted 1930-01-01 to 2005-06-30 (400)',
      `  person_details.first_name, alphabet: refused cjk, astral; accepted accented latin (é, ñ, ß) (400: ${ALPHABET_WORDS})`,
    ]);
    expect(lines[at + 5]).toBe('');
    expect(lines[at + 6]).toMatch(/^verdict: /);
    expect(at).toBeGreaterThan(lines.findIndex((l) => l.startsWith('rule ')));
  });

  it('stays within six lines: four points and how many more are in summary.md', () => {
    const report = sampleReport();
    report.observedContract!.limits = refusing(9);
    const lines = contractLines(report);
    expect(lines).toHaveLength(6);
    expect(lines.at(-1)).toBe('  +5 more in summary.md');
    report.observedContract!.limits = refusing(4);
    expect(contractLines(report)).toHaveLength(5);
  });

  it('is silent when nothing was refused, nothing was tried, or the report predates the contract', () => {
    for (const report of [acceptingReport(), untriedReport(), legacyReport()]) {
      expect(contractLines(report)).toEqual([]);
      expect(endLines(report).some((l) => l.includes('observed contract'))).toBe(false);
    }
  });

  it("scrubs the run's credentials from the target's words", async () => {
    const token = 'tok_live_contract_7d1e';
    const report = sampleReport();
    report.observedContract!.limits[1].refused[0].said = `token ${token} may not send 36 characters`;
    const lines: string[] = [];
    const listener = createConsoleReporter({ out: (l) => lines.push(l), isTTY: true, secrets: () => [token] });
    await listener({ type: 'run-end', report });
    expect(lines.find((l) => l.includes('address1'))).toMatch(/\(422: token \S+ may not send 36 characters\)$/);
    expect(lines.join('\n')).not.toContain(token);
  });
});

describe("a failing case's intent where its mode is shown", () => {
  const withOpenFailure = (): ConformanceReport => {
    const report = sampleReport();
    report.rules.find((r) => r.id === 'id.dob.midnight-utc')!.failures = [structuredClone(openCaseFailure)];
    return report;
  };

  it('junit.xml: forbidden, guaranteed and open with the point it varies', () => {
    const xml = renderJunit(withOpenFailure());
    expect(xml).toContain('case: metadata with 7 pairs (invalid, forbidden)');
    expect(xml).toContain('case: valid person (valid, guaranteed)');
    expect(xml).toContain('case: person with a first name in cjk (valid, open: person_details.first_name, alphabet cjk)');
  });

  it('annotations: the same', () => {
    const lines = githubAnnotations(withOpenFailure(), 'summary.md').join('\n');
    expect(lines).toContain('case: metadata with 7 pairs (invalid, forbidden)');
    expect(lines).toContain('case: person with a first name in cjk (valid, open: person_details.first_name, alphabet cjk)');
  });

  it('a report before 1.7.0: the intent follows from the mode', () => {
    const xml = renderJunit(legacyReport());
    expect(xml).toContain('case: metadata with 7 pairs (invalid, forbidden)');
    expect(xml).toContain('case: person with date_of_birth 1990-05-17 (valid, guaranteed)');
  });
});
