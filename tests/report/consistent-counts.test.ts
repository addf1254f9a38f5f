/**
 * One set of figures everywhere (issue 11: id.valid-accepted showed 54 cases in a progress line
 * and 55 in the table, because a rule's line was printed at its rule-end while later exchanges,
 * the valid twins of other families, still counted for it). Now every figure comes from the
 * finished report: a real run with a fault, through the console, compared with the report, its
 * rule-end events, the rules announced failing while it went, and summary.md.
 */
import { describe, expect, it } from 'vitest';
import { runEmbedded } from '../../src/run/embedded-run.ts';
import { createConsoleReporter } from '../../src/report/terminal/console.ts';
import { renderMarkdownSummary } from '../../src/report/files/markdown-summary.ts';
import type { ReportEvent } from '../../src/report/model/report-events.ts';
import type { ReportRule } from '../../src/report/model/model.ts';

describe('counts agree everywhere', () => {
  it.each([['id-astral-name-500'], ['fa-status-lowercase']] as const)(
    'under the fault %s: table, rule-end, failing-so-far, summary line and summary.md',
    async (fault) => {
      const lines: string[] = [];
      const ends = new Map<string, ReportRule>();
      const failing = new Set<string>();
      const console = createConsoleReporter({ out: (l) => lines.push(l), isTTY: false });
      const { report } = await runEmbedded({
        fault,
        seed: 5,
        runs: 20,
        listeners: [
          console,
          (e: ReportEvent) => {
            if (e.type === 'rule-end') ends.set(e.rule.id, e.rule);
            if (e.type === 'rule-failing') failing.add(e.rule.id);
          },
        ],
      });
      for (const rule of report.rules) {
        const row = lines.find((l) => l.startsWith(`${rule.id} `))!;
        expect(row, rule.id).toMatch(new RegExp(`\\s${rule.status}\\s+${rule.cases}$`));
        expect(ends.get(rule.id)?.cases, rule.id).toBe(rule.cases);
        expect(ends.get(rule.id)?.status, rule.id).toBe(rule.status);
        if (rule.coverage) expect(rule.coverage.fixed + rule.coverage.random, rule.id).toBe(rule.cases);
      }
      // The rules announced failing while the run went are the rules that end failed or error.
      expect([...failing].sort()).toEqual(
        report.rules
          .filter((r) => r.status === 'failed' || r.status === 'error')
          .map((r) => r.id)
          .sort(),
      );
      expect(failing.size).toBeGreaterThan(0);
      const s = report.summary;
      expect(lines.at(-1)).toMatch(new RegExp(`^${s.passed} passed, ${s.failed} failed${s.inconclusive ? `, ${s.inconclusive} inconclusive` : ''}`));
      expect(lines).toContain(`verdict: ${s.verdict} (${s.requests} requests in ${(report.durationMs / 1000).toFixed(1)} s)`);
      expect(renderMarkdownSummary(report)).toContain(`**${s.passed} passed**, **${s.failed} failed**`);
    },
  );
});
