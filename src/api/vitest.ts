/**
 * vitest helpers (`fiat-identity-conformance/vitest`): one test per rule of an operation, judged
 * by one harness run against the target of `.env` (the embedded server when none is set), and an
 * assertion whose failure reads as the evidence: the rule, the case, the curl line that
 * reproduces it, the seed and the command that runs the same cases again. Each export carries
 * its stability as the library entry's do: `@public` stable, `@beta` may change in a minor version.
 */
import { reproduceSetup, setupText } from '../report/model/reproduce-setup.ts';
import path from 'node:path';
import { config as loadDotenv } from 'dotenv';
import { assert, beforeAll, describe, it } from 'vitest';
import { RULES } from '../core/catalogue.ts';
import { OPERATIONS, describeOperation, type Operation } from '../core/operations.ts';
import type { ConformanceReport, ReportRule } from '../report/model/model.ts';
import { rerunCommand } from '../report/model/rerun-command.ts';
import { resolveOptions, runConformance, type ConformanceOptions, type ConformanceResult } from './run-conformance.ts';

/** `process.env` after `.env` of the working directory is read (variables already set win). */
function environment(): Record<string, string | undefined> {
  loadDotenv({ quiet: true });
  return process.env;
}

/**
 * Runs the rules whose ids start with one of `prefixes` against the target of `.env` and the
 * environment (CONFORMANCE_BASE_URL and friends; the embedded server when none is set). `options`
 * win over the environment.
 * @public
 */
export function runRules(prefixes: string[], options: ConformanceOptions = {}): Promise<ConformanceResult> {
  return runConformance({ env: environment(), ...options, rules: prefixes });
}

/**
 * Why a rule did not pass, as a reader of a test log needs it: the evidence and how to run it again.
 * @beta (the wording of the text may change)
 */
export function describeRuleResult(report: ConformanceReport, rule: ReportRule): string {
  const lines = [`${rule.id} (§${rule.section}, ${rule.basis}) ${rule.status}: ${rule.title}`];
  if (rule.reason) lines.push(`  ${rule.reason}`);
  for (const failure of rule.failures.slice(0, 3)) {
    lines.push(`  - ${failure.message}`, `    case: ${failure.case.label} (${failure.case.mode})`, `    reproduce: ${failure.curl}`);
    lines.push(`    seed ${failure.seed}${failure.path ? `, fast-check path "${failure.path}"` : ''}`);
  }
  if (rule.failures.length > 3) lines.push(`  ... and ${rule.failures.length - 3} more failures in the report`);
  const setup = rule.failures.length ? reproduceSetup(report) : undefined;
  if (setup) lines.push(`  ${setupText(setup).replace(/\n/g, '\n  ')}`);
  lines.push(`  run the same cases again: npx ${rerunCommand(report)}`);
  return lines.join('\n');
}

/**
 * Fails (an AssertionError with the evidence) unless the rule passed. A rule that was not judged
 * enough (inconclusive), errored or was skipped is no pass either. `allowNonBlocking`: a failed
 * convention rule outside --strict passes (it does not change the verdict).
 * @public
 */
export function expectRulePassed(result: ConformanceResult | ConformanceReport, ruleId: string, options: { allowNonBlocking?: boolean } = {}): void {
  const report = 'report' in result ? result.report : result;
  const rule = report.rules.find((r) => r.id === ruleId);
  if (!rule) assert.fail(`rule ${ruleId} is not in the report (rules run: ${report.ruleFilter?.join(', ') || 'all'}); known ids: conformance run --list-rules`);
  if (rule.status === 'passed') return;
  if (options.allowNonBlocking && rule.status === 'failed' && !rule.blocking) return;
  assert.fail(describeRuleResult(report, rule));
}

/**
 * The options of `defineOperationSuite`: those of `runConformance` but the rules (the operation's) and `env` (`.env` and the environment).
 * @public
 */
export interface OperationSuiteOptions extends Omit<ConformanceOptions, 'rules' | 'env'> {
  /** Default: `$CONFORMANCE_REPORT_DIR/suites/<operation>`, or `reports/suites/<operation>`. */
  reportDir?: string;
}

/**
 * Declares one vitest test per rule of an operation, all judged by one harness run that writes
 * the run's reports. The seed is in the suite's name, so a failing run can be repeated with
 * CONFORMANCE_SEED. A failed convention rule that does not block the verdict (outside --strict) is
 * annotated; it fails its test only when it blocks.
 * @public
 */
export function defineOperationSuite(operation: Operation, options: OperationSuiteOptions = {}): void {
  const env = environment();
  const { rulePrefix } = OPERATIONS[operation];
  // Resolved now, so that the seed can be named before the run: vitest prints it with every result.
  const { seed } = resolveOptions({ env, ...options, rules: [rulePrefix] });
  const reportDir = options.reportDir ?? path.join(env.CONFORMANCE_REPORT_DIR?.trim() || 'reports', 'suites', operation);
  let result: ConformanceResult;
  describe(`${describeOperation(operation)} (seed ${seed})`, () => {
    beforeAll(async () => {
      result = await runConformance({ env, ...options, seed, reportDir, rules: [rulePrefix] });
    });
    for (const rule of RULES.filter((r) => r.operation === operation)) {
      it(`${rule.id} (§${rule.section}, ${rule.basis}) ${rule.title}`, async (context) => {
        const judged = result.rule(rule.id);
        if (judged?.status === 'skipped') context.skip(judged.reason);
        if (judged?.status === 'failed' && !judged.blocking) {
          await context.annotate(`convention rule failed (fatal only with --strict): ${judged.failures[0]?.message ?? ''}`);
          return;
        }
        expectRulePassed(result, rule.id);
      });
    }
  });
}
