/**
 * Recomputes what a report decided from what it recorded, with the report builder's own functions
 * (ruleStatus, countRules, runVerdict): each rule's status and `blocking` from its failures, its
 * coverage against its minimum and the catalogue's basis; the summary's counts; the verdict. A
 * report whose verdict or a rule's status was edited disagrees with itself, and the first
 * disagreement is one line (`conformance verify`).
 */
import { isRuleId, getRule } from '../../core/catalogue.ts';
import { mergedShortfall } from '../../engine/coverage.ts';
import type { ConformanceReport, ReportRule } from './model.ts';
import { countRules, ruleStatus, runVerdict } from './report-builder.ts';

/** What a rule's status should be from what the report holds of it; undefined when the report cannot say (a skipped rule). */
function expectedRule(rule: ReportRule, strict: boolean): { status: string; blocking: boolean } | undefined {
  const basis = getRule(rule.id).basis;
  // Skipped: a shard's rule judged elsewhere, a run that never started; nothing recorded decides it, but it never blocks.
  if (rule.status === 'skipped') return { status: 'skipped', blocking: false };
  const shortfall = rule.coverage
    ? mergedShortfall(rule.coverage, rule.coverage.minimum, [rule.reason ?? ''])
    : rule.status === 'inconclusive'
      ? rule.reason
      : undefined;
  return ruleStatus(
    { basis },
    { crashed: rule.status === 'error', failed: rule.failures.length > 0, shortfall, ruledOut: rule.ruledOutBy !== undefined },
    strict,
  );
}

/** Why a rule's recorded status disagrees with its evidence, or undefined. */
function ruleDisagreement(rule: ReportRule, strict: boolean): string | undefined {
  if (!isRuleId(rule.id)) return `rules: ${rule.id} is no rule of this tool's catalogue`;
  const catalogued = getRule(rule.id);
  if (rule.basis !== catalogued.basis) return `rules: ${rule.id} says basis ${rule.basis}, the catalogue says ${catalogued.basis}`;
  const expected = expectedRule(rule, strict);
  if (!expected) return undefined;
  const evidence = rule.failures.length ? `${rule.failures.length} failures recorded` : rule.coverage ? coverageText(rule) : 'no failure recorded';
  if (rule.status !== expected.status) return `rules: ${rule.id} is ${rule.status}, its evidence says ${expected.status} (${evidence})`;
  if (rule.blocking !== expected.blocking) return `rules: ${rule.id} has blocking ${rule.blocking}, its status and basis say ${expected.blocking}`;
  return undefined;
}

const coverageText = (rule: ReportRule): string => {
  const c = rule.coverage!;
  return `${c.fixed} fixed and ${c.random} random cases, minimum ${c.minimum.fixed} and ${c.minimum.random}`;
};

/** The rules that decide a verdict, for the line that names them: `fa.x failed, id.y inconclusive`. */
function deciding(rules: readonly ReportRule[]): string {
  const blocking = rules.filter((r) => r.blocking);
  if (!blocking.length) return 'no rule blocks';
  const shown = blocking.slice(0, 3).map((r) => `${r.id} ${r.status}`);
  return shown.join(', ') + (blocking.length > 3 ? `, +${blocking.length - 3} more` : '');
}

/**
 * The first place where `report` disagrees with itself, as one line naming the field, or undefined
 * when its statuses, counts and verdict follow from its rules. A recorded verdict `error` with a
 * reason and skipped rules (a run or a shard that could not judge the target) is taken as it is:
 * it is what the builder writes then, and it is never a pass.
 */
export function reportDisagreement(report: ConformanceReport): string | undefined {
  for (const rule of report.rules) {
    const line = ruleDisagreement(rule, report.strict);
    if (line) return line;
  }
  const counts = countRules(report.rules);
  for (const [name, value] of Object.entries(counts)) {
    const recorded = (report.summary as Record<string, unknown>)[name] ?? (name === 'inconclusive' ? 0 : undefined);
    if (recorded !== value) return `summary.${name} is ${String(recorded)}, its rules count ${value}`;
  }
  const verdict = runVerdict(report.rules, {
    ...(report.stopped ? { stopped: report.stopped } : {}),
    ...(report.transport ? { transport: report.transport } : {}),
  });
  const couldNotJudge = report.summary.verdict === 'error' && report.summary.reason !== undefined && report.rules.some((r) => r.status === 'skipped');
  if (verdict !== report.summary.verdict && !couldNotJudge) {
    return `summary.verdict is ${report.summary.verdict}, its rules say ${verdict} (${deciding(report.rules)})`;
  }
  return undefined;
}
