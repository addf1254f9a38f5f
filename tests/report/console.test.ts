import { describe, expect, it } from 'vitest';
import { createConsoleReporter } from '../../src/report/console.ts';
import { RULES } from '../../src/core/catalogue.ts';
import type { ReportEvent } from '../../src/report/report-events.ts';
import { FIAT_ACCOUNT_ID, sampleExchanges, sampleReport } from './sample-report.ts';

/** The events a runner would emit for the sample report. */
function events(): ReportEvent[] {
  const report = sampleReport();
  const exchanges = sampleExchanges();
  const list: ReportEvent[] = [{ type: 'run-start', baseUrl: report.target.baseUrl, seed: report.seed, profile: report.profile, rules: report.rules.length, fiatAccountIds: [FIAT_ACCOUNT_ID] }];
  for (const rule of report.rules) {
    list.push({ type: 'rule-start', rule: RULES.find((r) => r.id === rule.id)! });
    for (const exchange of exchanges) list.push({ type: 'exchange', exchange });
    list.push({ type: 'rule-end', rule });
  }
  list.push({ type: 'run-end', report, exchanges });
  return list;
}

async function play(isTTY: boolean): Promise<string[]> {
  const lines: string[] = [];
  const listener = createConsoleReporter({ out: (line) => lines.push(line), isTTY });
  for (const event of events()) await listener(event);
  return lines;
}

describe('console reporter', () => {
  it('in CI prints one plain line per finished rule, then the table, the seed, and the counts last', async () => {
    const lines = await play(false);
    expect(lines.some((l) => l.includes('\u001b'))).toBe(false);
    expect(lines).toContain('  ✓ fa.status.enum  (24 cases)');
    expect(lines).toContain('  ✗ fa.metadata.over-pairs-rejected  7 pairs accepted (200)');
    expect(lines).toContain('  - id.ref-id.concurrent-duplicate  skipped: the profile runs no concurrent scenario');
    const table = lines.findIndex((l) => /^rule\s+section\s+basis\s+status\s+cases$/.test(l));
    expect(table).toBeGreaterThan(0);
    expect(lines[table + 2]).toMatch(/^fa\.valid-accepted\s+4\.1\s+documented\s+✓ passed\s+24$/);
    expect(lines.some((l) => l.includes('--seed 424242'))).toBe(true);
    expect(lines.at(-1)).toBe('42 passed, 3 failed, 1 skipped');
  });

  it('on a TTY rewrites one progress line instead of printing every rule', async () => {
    const lines = await play(true);
    const progress = lines.filter((l) => l.includes(' rules, '));
    expect(progress.length).toBeGreaterThan(10);
    // Only the first progress line and the one after each kept failure line are new lines.
    const fresh = progress.filter((l) => !l.startsWith('\u001b[1A\u001b[2K'));
    expect(fresh).toHaveLength(1 + 3);
    expect(lines.some((l) => l.includes('✓ fa.status.enum  (24 cases)'))).toBe(false);
    expect(lines.some((l) => l.endsWith('✗ fa.metadata.over-pairs-rejected  7 pairs accepted (200)'))).toBe(true);
    expect(lines.at(-1)).toBe('42 passed, 3 failed, 1 skipped');
  });

  it('omits the skipped count when nothing was skipped, and never prints an Authorization value', async () => {
    const lines: string[] = [];
    const listener = createConsoleReporter({ out: (line) => lines.push(line), isTTY: false });
    const report = sampleReport();
    report.rules = report.rules.filter((r) => r.status !== 'skipped');
    report.rules[0] = { ...report.rules[0], status: 'failed', failures: [{ ...report.rules.find((r) => r.failures.length)!.failures[0], message: 'echoed Authorization: Bearer live-token-1' }] };
    await listener({ type: 'rule-end', rule: report.rules[0] });
    await listener({ type: 'run-end', report, exchanges: [] });
    expect(lines.join('\n')).not.toContain('live-token-1');
    expect(lines.at(-1)).toBe('41 passed, 4 failed');
  });

  it('scrubs the run\'s credentials, issued during the run, from a failure message that quotes an echoed token', async () => {
    const lines: string[] = [];
    const secrets = ['first-token-0123456789'];
    const listener = createConsoleReporter({ out: (line) => lines.push(line), isTTY: false, secrets: () => secrets });
    const rule = sampleReport().rules.find((r) => r.failures.length)!;
    secrets.push('later-token-9876543210'); // a token renewed mid-run
    await listener({ type: 'rule-end', rule: { ...rule, failures: [{ ...rule.failures[0], message: 'first_name returned "later-token-9876543210"' }] } });
    expect(lines.join('\n')).not.toContain('later-token-9876543210');
    expect(lines.join('\n')).toContain('first_name returned');
  });
});
