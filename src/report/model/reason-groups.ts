/**
 * Rules that share one reason, listed once: a target that refuses every create makes fifteen
 * rules inconclusive for the same words, and a report that repeats them fifteen times hides the
 * rest. Every renderer that lists reasons (console, summary.md, report.html) groups them here.
 */
import { splitShortfall } from '../../engine/coverage.ts';
import type { ReportRule } from './model.ts';

export interface ReasonGroup {
  /** The reason the rules share; for a rule alone, its whole reason. */
  reason: string;
  /** Each rule with what its reason says beyond the shared one (its own causes; its figures are shown apart). */
  rules: { rule: ReportRule; own: string[] }[];
}

/** Rules by identical `keyOf`, in the order each key is first seen. */
function groupBy(rules: readonly ReportRule[], keyOf: (rule: ReportRule) => string): Map<string, ReportRule[]> {
  const groups = new Map<string, ReportRule[]>();
  for (const rule of rules) {
    const key = keyOf(rule);
    const group = groups.get(key);
    if (group) group.push(rule);
    else groups.set(key, [rule]);
  }
  return groups;
}

/** Rules (skipped, errored) by identical reason; a rule without one goes under `fallback`. */
export function groupByReason(rules: readonly ReportRule[], fallback: string): ReasonGroup[] {
  return [...groupBy(rules, (r) => r.reason ?? fallback)].map(([reason, members]) => ({ reason, rules: members.map((rule) => ({ rule, own: [] })) }));
}

/**
 * Inconclusive rules by the cause of their shortfall (engine/coverage.ts splitShortfall): the
 * figures and the causes that are each rule's own stay with the rule, the cause they share (the
 * target refused the valid requests, in its words) is said once.
 */
export function groupShortfalls(rules: readonly ReportRule[], fallback: string): ReasonGroup[] {
  const reasonOf = (r: ReportRule) => r.reason ?? fallback;
  return [...groupBy(rules, (r) => splitShortfall(reasonOf(r)).shared)].map(([shared, members]) =>
    members.length === 1
      ? { reason: reasonOf(members[0]), rules: [{ rule: members[0], own: [] }] }
      : { reason: shared, rules: members.map((rule) => ({ rule, own: splitShortfall(reasonOf(rule)).own })) },
  );
}

/** `15 rules: <reason>` for a shared reason, the reason alone for one rule. */
export function reasonGroupText(group: ReasonGroup): string {
  return group.rules.length > 1 ? `${group.rules.length} rules: ${group.reason}` : group.reason;
}
