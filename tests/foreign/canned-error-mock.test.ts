/**
 * A mock that answers every refusal with a canned error body and puts the real reason in a
 * `validation` array and an `sl-violations` header (canned-error-mock.ts): the failure lines of
 * every report quote the real reason, never the canned text, and never the complaint about
 * something else that its successes carry. Its canned body alone is no failure (section 7 leaves
 * error bodies open).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { conformance, conformantExit, readReport, reportDir, targetFlags } from '../cli/binary.ts';
import { staticTokenRuledOut } from '../engine/static-token.ts';
import {
  CANNED_ERROR,
  COUNTRY_REQUIRED,
  startCannedErrorMock,
  UNRELATED_RESPONSE_VIOLATION,
  type CannedErrorMock,
  type CannedErrorMockOptions,
} from './canned-error-mock.ts';

const mocks: CannedErrorMock[] = [];
afterAll(async () => Promise.all(mocks.map((m) => m.close())));

async function runAgainst(options: CannedErrorMockOptions) {
  const mock = await startCannedErrorMock(options);
  mocks.push(mock);
  const dir = reportDir();
  const result = await conformance(['run', ...targetFlags(mock, mock.accountIds), '--profile', 'quick', '--seed', '5', '--report-dir', dir]);
  const file = (name: string) => readFileSync(path.join(dir, name), 'utf8');
  return { ...result, report: readReport(dir), summary: file('summary.md'), junit: file('junit.xml'), html: file('report.html') };
}

const REASON = `${COUNTRY_REQUIRED.message} (at ${COUNTRY_REQUIRED.field})`;

describe('a mock with a canned error body and the real reason beside it', () => {
  it('quotes the real reason of a refusal in the console, summary.md, junit.xml and report.html, and never the canned text', async () => {
    const { code, stdout, stderr, report, summary, junit, html } = await runAgainst({ requireAddressCountry: true, defect: 'lowercase-status' });
    expect(code, stdout + stderr).toBe(1);
    const valid = report.rules.find((r) => r.id === 'id.valid-accepted')!;
    expect(valid.status).toBe('failed');
    // The refusal is the country the mock requires: every report quotes it after the harness's sentence, status included.
    const line = stdout.split('\n').find((l) => l.includes('✗ id.valid-accepted'))!;
    expect(line).toMatch(/\(HTTP 400\) — target said: "is required \(at person_details\.address\.country\)"/);
    // The cell ends with how many more failures the rule has, by kind when of several (report/model/kind-groups.ts).
    expect(summary).toMatch(
      /\| `id\.valid-accepted` \|[^\n]*\(HTTP 400\) — target said: "is required \(at person_details\.address\.country\)"( \(\+\d+ more[^)]*\))? \|/,
    );
    expect(junit).toContain(`(HTTP 400) — target said: &quot;${REASON}&quot;`);
    expect(junit).toContain(`target said: ${REASON}`);
    expect(html).toContain(`Target said: <q>${REASON}</q>`);
    // The canned text is in no line the harness writes (report.html shows the raw response only in its response pane).
    for (const [name, text] of [
      ['console', stdout],
      ['summary.md', summary],
      ['junit.xml', junit],
    ])
      expect(text, name).not.toContain(CANNED_ERROR.message);
    expect(html).not.toContain(`<q>${CANNED_ERROR.message}`);
    // A success that failed a rule: the mock's complaint about another field of the response is not quoted.
    expect(report.rules.find((r) => r.id === 'fa.status.enum')?.status).toBe('failed');
    const statusLine = stdout.split('\n').find((l) => l.includes('✗ fa.status.enum'))!;
    expect(statusLine).toBeDefined();
    for (const text of [stdout, summary, junit]) expect(text).not.toContain(UNRELATED_RESPONSE_VIOLATION);
    expect(html).not.toContain(`<q>${UNRELATED_RESPONSE_VIOLATION}`);
  }, 120_000);

  it('is conformant when it refuses only what the document forbids: a canned error body is no failure', async () => {
    const { code, stdout, stderr, report } = await runAgainst({});
    expect(
      report.rules.filter((r) => r.status !== 'passed' && !staticTokenRuledOut(r)).map((r) => `${r.id} ${r.status}: ${r.reason ?? r.failures[0]?.message}`),
      stdout + stderr,
    ).toEqual([]);
    // It merges metadata: the keys the run added stay (exit 5), and nothing else is left changed.
    const expected = conformantExit(report);
    expect(expected.leftOtherwise).toEqual([]);
    expect(code).toBe(expected.code);
    expect(report.summary.verdict).toBe('conformant');
  }, 120_000);
});
