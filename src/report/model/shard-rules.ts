/**
 * The report of one shard (`conformance run --shard i/n`): it judged only its share of the cases,
 * so a rule it does not own must not look passed, and its verdict is not the API's. Like a rule
 * outside a --rule filter, such a rule is not judged here: it is `skipped`, with the shard that
 * judges it, and keeps its cases and coverage for `conformance merge`, which sums every shard's.
 */
import { shardName, type Shard } from '../../engine/shard.ts';
import type { ConformanceReport, ReportRule } from './model.ts';
import { coverageFigures } from './rule-text.ts';

/** summary.reason of a shard's report: every renderer shows it beside the verdict. */
export function shardReason(shard: Shard): string {
  return `${shardName(shard)}: this report judges one share of the cases; merge the shard reports (conformance merge) for the verdict`;
}

/**
 * What a shard's report says in place of a verdict: nothing it did not see failing tells whether
 * the API conforms (another shard may fail), so `conformant` and `inconclusive` are not claimed;
 * a failure is one whichever shard saw it, and an error or interruption is this run's own. Undefined
 * for a report that is not a shard's or whose verdict stands.
 */
export function shardNoVerdict(report: Pick<ConformanceReport, 'shard' | 'summary'>): string | undefined {
  const { shard, summary } = report;
  if (!shard || (summary.verdict !== 'conformant' && summary.verdict !== 'inconclusive')) return undefined;
  return `none from ${shardName(shard)} alone (its share: ${summary.verdict}); merge the shard reports (conformance merge) for the verdict`;
}

/**
 * A rule as one shard reports it. `owner`: the shard that sends the rule's own cases, undefined
 * for a rule judged on every exchange. A failure or a crashed check stays what it is (the merged
 * report keeps it); a rule of this shard keeps its status, and a rule judged on every exchange
 * its pass when this shard alone gave it enough cases. Any other rule is skipped here.
 */
export function shardRule(rule: ReportRule, shard: Shard, owner: number | undefined): ReportRule {
  if (rule.status === 'failed' || rule.status === 'error' || owner === shard.index) return rule;
  if (owner === undefined && rule.status === 'passed') return rule;
  const where =
    owner === undefined
      ? `judged on every exchange, in every shard (${rule.coverage ? coverageFigures(rule.coverage) : `${rule.cases} cases`} in this one)`
      : `judged by ${shardName({ index: owner, count: shard.count })}`;
  return { ...rule, status: 'skipped', blocking: false, reason: `${where}: merge the shard reports (conformance merge) for its status` };
}
