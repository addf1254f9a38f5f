/**
 * A failure about a request sent without credentials keeps its words: the redaction of secrets
 * (a header line "Authorization: ...") must not take the case's own label for a header and
 * swallow the rest of the message.
 */
import { describe, expect, it } from 'vitest';
import { runEmbedded } from '../../src/run/embedded-run.ts';
import { renderMarkdownSummary } from '../../src/report/files/markdown-summary.ts';
import { Redactor } from '../../src/report/model/redact.ts';

describe('a failure of a request without credentials', () => {
  it('is reported whole, not redacted', async () => {
    const { report } = await runEmbedded({ fault: 'fa-no-auth-accepted', runs: 1, seed: 1, ruleFilter: ['fa.auth-401'] });
    const rule = report.rules.find((r) => r.id === 'fa.auth-401')!;
    expect(rule.status).toBe('failed');
    const message = rule.failures.map((f) => f.message).find((m) => m.includes('without an Authorization header'));
    expect(message).toMatch(/without an Authorization header: .*HTTP 2\d\d/);
    // As written to summary.md: every report text goes through the redaction of credentials.
    const written = new Redactor([]).text(renderMarkdownSummary(report));
    expect(written).toContain('update without an Authorization header: ');
    expect(written).not.toMatch(/without an Authorization header: \[REDACTED\]/);
  });
});
