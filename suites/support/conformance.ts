/**
 * Support for vitest conformance suites: one harness run per suite file against the target of
 * `.env` (CONFORMANCE_BASE_URL and friends; the embedded server when none is set), then one
 * test per rule. A QA engineer's own suite imports the same two functions.
 */
import { randomInt } from 'node:crypto';
import { config as loadDotenv } from 'dotenv';
import { beforeAll, describe, expect, it } from 'vitest';
import { RULES } from '../../src/core/catalogue.ts';
import { OPERATIONS, describeOperation, type Operation } from '../../src/core/operations.ts';
import { resolveRunConfig } from '../../src/run/run-config.ts';
import { runOnce } from '../../src/run/prepare-run.ts';
import type { ConformanceReport, ReportRule } from '../../src/report/model.ts';

/** Runs the rules whose ids start with one of `prefixes` and returns the report. */
export async function runRules(prefixes: string[]): Promise<ConformanceReport> {
  loadDotenv({ quiet: true });
  const config = resolveRunConfig([], process.env, () => randomInt(1, 2 ** 31 - 1))!;
  const { report } = await runOnce({ ...config, ruleFilter: prefixes });
  return report;
}

/** Asserts that a rule passed; the failure message carries the evidence and the curl line. */
export function expectRulePassed(rule: ReportRule | undefined): void {
  expect(rule, 'rule not in the report').toBeDefined();
  const evidence = rule!.failures.map((f) => `${f.message}\n  reproduce: ${f.curl}`).join('\n');
  expect(rule!.status, `${rule!.id} ${rule!.title}\n${evidence}`).not.toBe('failed');
  expect(rule!.status, `${rule!.id}: ${rule!.reason ?? ''}`).not.toBe('error');
}

/**
 * Declares one vitest test per catalogue rule of an operation, all judged by one harness run. A
 * failed rule that does not block the verdict (a convention rule outside --strict) is annotated,
 * and fails the test only when it blocks.
 */
export function defineOperationSuite(operation: Operation): void {
  const { rulePrefix } = OPERATIONS[operation];
  let report: ConformanceReport;
  beforeAll(async () => {
    report = await runRules([rulePrefix]);
  });
  describe(describeOperation(operation), () => {
    for (const rule of RULES.filter((r) => r.operation === operation)) {
      it(`${rule.id} (§${rule.section}, ${rule.basis}) ${rule.title}`, async (context) => {
        const result = report.rules.find((r) => r.id === rule.id);
        if (result?.status === 'skipped') context.skip(result.reason);
        if (result?.status === 'failed' && !result.blocking) {
          await context.annotate(`convention rule failed (fatal only with --strict): ${result.failures[0]?.message ?? ''}`);
          return;
        }
        expectRulePassed(result);
      });
    }
  });
}
