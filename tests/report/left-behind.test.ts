/** What the run left on the target, as the console and summary.md say it (since report 1.9.0). */
import { describe, expect, it } from 'vitest';
import { renderMarkdownSummary } from '../../src/report/files/markdown-summary.ts';
import type { ConformanceReport } from '../../src/report/model/model.ts';
import { endLines } from '../../src/report/terminal/console.ts';
import { leftBehindLines } from '../../src/report/terminal/left-behind.ts';
import { sampleReport } from './sample-report.ts';

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
  it('the console counts the identities, says where the list is, and names each field not restored, before the verdict', () => {
    const lines = endLines(leftBehind(), undefined, undefined, 'reports/created-identities.json');
    const at = lines.indexOf('created 2 identities; list in reports/created-identities.json');
    expect(at).toBeGreaterThan(0);
    expect(lines.slice(at + 1, at + 3)).toEqual([
      'restore: fiat accounts: 1 partly restored',
      `  ${ACCOUNT} metadata.k1 not restored: added by the run; the target merges metadata, so no update can remove a key`,
    ]);
    expect(lines[at + 4]).toMatch(/^verdict: /);
  });

  it('says restore was off, and lists at most six fields on the console', () => {
    const report = leftBehind();
    expect(leftBehindLines({ ...report, restore: { enabled: false, note: 'restore was off (--no-restore)', requests: 0, accounts: [] } })).toEqual([
      'created 2 identities; list in conformance.json createdIdentities',
      'restore: restore was off (--no-restore)',
    ]);
    report.restore!.accounts[0].notRestored = Array.from({ length: 9 }, (_, i) => ({ field: `metadata.k${i}`, reason: 'added' }));
    const lines = leftBehindLines(report);
    expect(lines).toHaveLength(2 + 6 + 1);
    expect(lines.at(-1)).toBe('  +3 more in conformance.json restore');
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
    expect(text).toContain(`  - \`${ACCOUNT}\` \`metadata.k1\` not restored: added by the run`);
    const { createdIdentities: _c, restore: _r, ...older } = leftBehind();
    expect(renderMarkdownSummary(older)).not.toContain('Left on the target');
    expect(leftBehindLines(older)).toEqual([]);
  });
});
