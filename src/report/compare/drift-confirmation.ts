/**
 * Whether a run saw the target enforce what an OpenAPI document tightens: each tightening of
 * `conformance drift` against the observed contract of a conformance.json (the open points the
 * run tried, what the target accepted and refused). Confirmed: the target refused a value of the
 * kinds the tightening refuses at that field, and accepted none that it refuses; not enforced by
 * the target: it accepted one; not observed: the run tried no such value there.
 */
import type { ObservedContract, ObservedLimit } from '../../core/open-point.ts';
import type { DriftFinding, DriftObservation } from '../../schema/drift/drift-finding.ts';
import { accepts } from '../../schema/drift/constraint-check.ts';

/** A limit's values as the tightening judges them: true refused by it, false accepted, undefined cannot tell (a description such as "cjk"). */
function refusedByTightening(finding: DriftFinding, limit: ObservedLimit, value: string): boolean | undefined {
  const literal = limit.kind === 'code' || limit.kind === 'letter-case';
  if (!literal || !finding.constraint) return undefined;
  const verdict = accepts(finding.keyword, finding.constraint, value);
  return verdict === undefined ? undefined : !verdict;
}

/** What one limit of the observed contract says of a tightening. */
function observationOf(finding: DriftFinding, limit: ObservedLimit): DriftObservation {
  const bound = finding.keyword === 'maxLength' && typeof finding.constraint === 'number' ? finding.constraint : undefined;
  if (bound !== undefined && limit.kind === 'length') {
    if ((limit.longestAccepted ?? 0) > bound) return 'not enforced by the target';
    return limit.shortestRefused !== undefined && limit.shortestRefused > bound ? 'confirmed' : 'not observed';
  }
  if (limit.accepted.some((v) => refusedByTightening(finding, limit, v) === true)) return 'not enforced by the target';
  if (limit.refused.some((r) => refusedByTightening(finding, limit, r.value) !== false)) return 'confirmed';
  // Values described, not quoted (an alphabet, a format): accepted ones of the kind are read as the tightening not kept.
  if (limit.accepted.length && limit.accepted.every((v) => refusedByTightening(finding, limit, v) === undefined)) return 'not enforced by the target';
  return 'not observed';
}

const RANK: Record<DriftObservation, number> = { 'not observed': 0, confirmed: 1, 'not enforced by the target': 2 };

/** The findings with `observed` set on each tightening (the others unchanged). */
export function confirmDrift(findings: readonly DriftFinding[], contract: ObservedContract | undefined): DriftFinding[] {
  return findings.map((finding) => {
    if (finding.kind !== 'tightening') return finding;
    const limits = (contract?.limits ?? []).filter(
      (l) => l.operation === finding.operation && l.field === finding.field && (finding.openKinds ?? []).includes(l.kind),
    );
    // One limit the target does not keep outweighs another it keeps: the tightening is not enforced.
    const observed = limits.map((l) => observationOf(finding, l)).reduce<DriftObservation>((a, b) => (RANK[b] > RANK[a] ? b : a), 'not observed');
    return { ...finding, observed };
  });
}
