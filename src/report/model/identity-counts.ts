/**
 * The ledger's counts as every renderer says them (docs/design.md section 5.8): identities the
 * run created, and creates whose answer was lost, which may have created one more each. An entry
 * of a report before 1.10.0 has no outcome: it was created.
 */
import type { LedgerEntry } from '../../engine/identity-ledger.ts';

export interface IdentityCounts {
  created: number;
  /** Creates whose answer was lost: the identity may exist. */
  unknown: number;
}

export function identityCounts(entries: readonly LedgerEntry[]): IdentityCounts {
  const unknown = entries.filter((e) => e.outcome === 'unknown').length;
  return { created: entries.length - unknown, unknown };
}

/** `created 37 identities, 2 more may exist (answer lost)`. */
export function identitiesSentence({ created, unknown }: IdentityCounts): string {
  const made = `created ${created} ${created === 1 ? 'identity' : 'identities'}`;
  return unknown ? `${made}, ${unknown} more may exist (answer lost)` : made;
}
