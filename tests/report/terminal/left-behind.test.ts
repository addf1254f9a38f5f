/** What the run left on the target, as the console and summary.md say it (since report 1.9.0). */
import { describe, expect, it } from 'vitest';
import { renderMarkdownSummary } from '../../../src/report/files/markdown-summary.ts';
import type { ConformanceReport } from '../../../src/report/model/model.ts';
import { endLines } from '../../../src/report/terminal/console.ts';
import { leftBehindLines } from '../../../src/report/terminal/left-behind.ts';
import { sampleReport } from '../sample-report.ts';
import { NO_JOURNAL } from '../../../src/report/model/left-changed.ts';

const ACCOUNT = '0f8fad5b-d9cb-469f-a165-70867728950e';

function leftBehind(): ConformanceReport {
  return {
    ...sampleReport(),
    createdIdentities: [
      { id: 'i-1', refId: 'conformance-1-x-1', runTag: 'conformance-1-x' },
      { id: 'i-2', refId: 'conformance-1-x-2', runTag: 'conformance-1-x' },
    ],
    restore: {
      enabled: true,
      note: 'fiat accounts: 1 partly restored',
      requests: 4,
      accounts: [
        {
          id: ACCOUNT,
          outcome: 'partly-restored',
          restored: ['fiat_account_owner.person_details.first_name'],
          notRestored: [{ field: 'metadata.k1', reason: 'added by the run; the target merges metadata, so no update can remove a key' }],
        },
      ],
    },
  };
}

describe('what the run left on the target', () => {
  it('the console counts the identities and says where the list is, then the restore, before the verdict; the fields not restored close it', () => {
    const lines = endLines(leftBehind(), undefined, undefined, 'reports/created-identities.json');
    const at = lines.indexOf('created 2 identities; list in reports/created-identities.json');
    expect(at).toBeGreaterThan(0);
    expect(lines[at + 1]).toBe('restore: fiat accounts: 1 partly restored');
    expect(lines[at + 3]).toMatch(/^verdict: /);
    expect(lines.slice(-3)).toEqual([
      // The sample run failed rules: it exits 1, which says more than 5.
      '⚠ 1 fiat account left changed by the run',
      `  ${ACCOUNT} metadata.k1 not restored: added by the run; the target merges metadata, so no update can remove a key`,
      `  ${NO_JOURNAL}`,
    ]);
  });

  it('says restore was off in the last line, and names at most three fields of an account on the console', () => {
    const report = leftBehind();
    const off = { ...report, restore: { enabled: false, note: 'restore was off (--no-restore)', requests: 0, accounts: [] } };
    expect(leftBehindLines(off)).toEqual(['created 2 identities; list in conformance.json createdIdentities']);
    expect(endLines(off).at(-1)).toBe('restore was off (--no-restore)');
    report.restore!.accounts[0].notRestored = [
      ...Array.from({ length: 7 }, (_, i) => ({ field: `metadata.k${i}`, reason: 'added' })),
      { field: 'fiat_account_owner.person_details.first_name', reason: 'refused' },
    ];
    // One line for the account, however many fields: the first reason, then at most three fields.
    expect(endLines(report).at(-2)).toBe(`  ${ACCOUNT} 8 fields not restored: added (and other reasons) (metadata.k0, metadata.k1, metadata.k2 +5 more)`);
  });

  it('counts the creates whose answer was lost apart: they may have created an identity each (since 1.10.0)', () => {
    const report = leftBehind();
    const lost = { outcome: 'unknown' as const, runTag: 'conformance-1-x', sentAt: '2026-01-05T10:00:00Z' };
    report.createdIdentities = [
      ...report.createdIdentities!,
      { ...lost, refId: 'conformance-1-x-3', why: 'timeout' as const },
      { ...lost, refId: 'conformance-1-x-4', why: 'server-error' as const },
    ];
    expect(leftBehindLines(report, 'reports/created-identities.json')[0]).toBe(
      'created 2 identities, 2 more may exist (answer lost); list in reports/created-identities.json',
    );
    expect(renderMarkdownSummary(report)).toContain(
      '- 2 identities created, 2 more may exist (the answer to their create was lost; listed by ref_id) (listed in `created-identities.json`',
    );
    report.createdIdentities = [{ ...lost, refId: 'conformance-1-x-3', why: 'connection' as const }];
    expect(leftBehindLines(report)[0]).toBe('created 0 identities, 1 more may exist (answer lost); list in conformance.json createdIdentities');
  });

  it('summary.md has a section of its own; a report before 1.9.0 has none, nor a console line', () => {
    const text = renderMarkdownSummary(leftBehind());
    expect(text).toContain('### Left on the target');
    expect(text).toContain('- 2 identities created (listed in `created-identities.json`');
    expect(text).toContain('- Restore: fiat accounts: 1 partly restored (the accounts left changed are at the top).');
    expect(text).toContain(`>   - not restored: added by the run; the target merges metadata, so no update can remove a key: \`metadata.k1\``);
    const { createdIdentities: _c, restore: _r, ...older } = leftBehind();
    expect(renderMarkdownSummary(older)).not.toContain('Left on the target');
    expect(leftBehindLines(older)).toEqual([]);
  });
});
