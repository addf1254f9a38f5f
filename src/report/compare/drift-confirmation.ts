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
import { ALPHABETS, type Alphabet } from '../../rules/open-points/open-values.ts';

/**
 * A value of a limit as the tightening judges it: true when the tightening refuses it, false when
 * it passes, undefined when the contract describes rather than quotes it ("upper case", "no
 * dashes"). Codes are quoted; an alphabet is named, and judged by the text the run sends in it.
 */
function refusedByTightening(finding: DriftFinding, limit: ObservedLimit, value: string): boolean | undefined {
  const text = limit.kind === 'code' || limit.kind === 'letter-case' ? value : limit.kind === 'alphabet' ? ALPHABETS[value as Alphabet] : undefined;
  if (text === undefined || finding.constraint === undefined) return undefined;
  const verdict = accepts(finding.keyword, finding.constraint, text);
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
  if (limit.refused.some((r) => refusedByTightening(finding, limit, r.value) === true)) return 'confirmed';
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
