/**
 * How the observed contracts of two reports differ: open points that appear, disappear or change
 * (a bound moves, a value switches between accepted and refused, a value is refused that was not
 * tried before). The document leaves these points to the target, so a change is information for
 * whoever compares releases or vendors, never a regression: a guaranteed input now refused is a
 * rule failure, which the rules' diff already shows.
 */
import { compareLimits, limitKey } from '../../core/observed-contract.ts';
import type { ObservedAnswer, ObservedLimit, OpenKind } from '../../core/open-point.ts';
import type { Operation } from '../../core/operations.ts';
import type { ConformanceReport } from '../model/model.ts';
import { contractOf } from '../model/report-contract.ts';

export interface ContractChange {
  operation: Operation;
  field: string;
  kind: OpenKind;
  /** `appeared`: tried only by the newer run; `disappeared`: only by the older one. */
  change: 'appeared' | 'disappeared' | 'changed';
  /** The limit's summary in the older report, and in the newer one. */
  before?: string;
  after?: string;
  /** What changed, one phrase each: `longest accepted 35 → 200`, `XKX now refused (was accepted)`. */
  details: string[];
}

export interface ContractDiff {
  /** Whether each report records a contract (reports before 1.7.0 do not: theirs reads as empty). */
  recorded: { old: boolean; new: boolean };
  /** Set when a report records none: what that means for the changes listed. */
  note?: string;
  changes: ContractChange[];
}

const BOUNDS: { key: 'longestAccepted' | 'shortestRefused' | 'earliestAccepted' | 'latestAccepted'; label: string }[] = [
  { key: 'longestAccepted', label: 'longest accepted' },
  { key: 'shortestRefused', label: 'shortest refused' },
  { key: 'earliestAccepted', label: 'earliest accepted' },
  { key: 'latestAccepted', label: 'latest accepted' },
];

const refusal = (r: ObservedAnswer): string => `${r.status}${r.said ? `: ${r.said}` : ''}`;

/** The phrases of what changed between two limits of one point; none when the target answered alike. */
function details(before: ObservedLimit, after: ObservedLimit): string[] {
  const out: string[] = [];
  for (const { key, label } of BOUNDS) {
    if (before[key] !== after[key]) out.push(`${label} ${before[key] ?? 'none'} → ${after[key] ?? 'none'}`);
  }
  const refusedBefore = new Map(before.refused.map((r) => [r.value, r]));
  const refusedAfter = new Map(after.refused.map((r) => [r.value, r]));
  for (const r of after.refused) {
    const was = refusedBefore.get(r.value);
    if (before.accepted.includes(r.value)) out.push(`${r.value} now refused (was accepted; ${refusal(r)})`);
    else if (!was) out.push(`${r.value} refused (not tried before; ${refusal(r)})`);
    else if (was.status !== r.status) out.push(`${r.value} refused with ${r.status} (was ${was.status})`);
  }
  for (const r of before.refused) {
    if (after.accepted.includes(r.value)) out.push(`${r.value} now accepted (was refused)`);
    else if (!refusedAfter.has(r.value)) out.push(`${r.value} not tried now (was refused)`);
  }
  return out;
}

function noteOf(older: ConformanceReport, newer: ConformanceReport, recorded: ContractDiff['recorded']): string | undefined {
  if (!recorded.old && !recorded.new) return 'neither report records an observed contract (both predate report version 1.7.0)';
  if (!recorded.old)
    return `the old report (version ${older.reportVersion}) records no observed contract: its run tried no open point, so every point of the new one shows as appeared`;
  if (!recorded.new)
    return `the new report (version ${newer.reportVersion}) records no observed contract: its run tried no open point, so every point of the old one shows as disappeared`;
  return undefined;
}

/** The open points whose observed limits differ between an older and a newer report, in the contract's order. */
export function diffContracts(older: ConformanceReport, newer: ConformanceReport): ContractDiff {
  const a = contractOf(older);
  const b = contractOf(newer);
  const recorded = { old: a.recorded, new: b.recorded };
  const before = new Map(a.contract.limits.map((l) => [limitKey(l), l]));
  const after = new Map(b.contract.limits.map((l) => [limitKey(l), l]));
  const points = [...new Map([...before, ...after]).values()].sort(compareLimits);
  const changes: ContractChange[] = [];
  for (const point of points) {
    const was = before.get(limitKey(point));
    const now = after.get(limitKey(point));
    const where = { operation: point.operation, field: point.field, kind: point.kind };
    if (!was) changes.push({ ...where, change: 'appeared', after: now!.summary, details: [] });
    else if (!now) changes.push({ ...where, change: 'disappeared', before: was.summary, details: [] });
    else {
      const what = details(was, now);
      if (what.length) changes.push({ ...where, change: 'changed', before: was.summary, after: now.summary, details: what });
    }
  }
  const note = noteOf(older, newer, recorded);
  return { recorded, ...(note ? { note } : {}), changes };
}
