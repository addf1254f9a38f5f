/**
 * What the harness has seen of each fiat account's metadata, and whether the target replaces or
 * merges metadata on update (both are readings of section 4.1). Under merge, a request with 6
 * fresh keys to an account that already holds keys would exceed the 6-pair limit, so its
 * rejection is not a fault: checks ask `mergeMayExceedLimit` before calling it one.
 */
import type { Exchange } from '../core/exchange.ts';
import { dig, is2xx, isObject, unreadableBody } from '../rules/checks/exchange-facts.ts';
import { METADATA_LIMITS } from './generators/metadata.ts';
import { placed } from '../rules/checks/fiat-account-response.ts';

export type MetadataSemantics = 'unknown' | 'replace' | 'merge';

export class MetadataState {
  semantics: MetadataSemantics = 'unknown';
  private readonly keysByAccount = new Map<string, Set<string>>();

  /** Learns from a response: the keys the account now holds and, when it can tell, the semantics. */
  observe(e: Exchange): void {
    if (e.testCase.operation !== 'updateFiatAccount' || !is2xx(e)) return;
    const body = answeredBody(e);
    const id = e.testCase.fiatAccountId;
    if (!body || !id) return;
    const returned = new Set(placed(body, 'metadata').flatMap((p) => Object.keys(asObject(p.value))));
    const sent = sentKeys(e);
    const prior = this.keysByAccount.get(id);
    if (sent && prior && this.semantics === 'unknown') {
      const dropped = [...prior].filter((k) => !sent.has(k));
      if (dropped.length) this.semantics = dropped.every((k) => returned.has(k)) ? 'merge' : 'replace';
    }
    this.keysByAccount.set(id, returned);
  }

  mergeMayExceedLimit(e: Exchange): boolean {
    if (e.testCase.operation !== 'updateFiatAccount' || this.semantics === 'replace') return false;
    const sent = sentKeys(e);
    if (!sent) return false;
    const prior = this.keysByAccount.get(e.testCase.fiatAccountId ?? '');
    if (!prior) return this.semantics === 'merge';
    return new Set([...prior, ...sent]).size > METADATA_LIMITS.maxPairs;
  }

  /**
   * The account of the pool an update with this body should go to. Under merge (or before the
   * semantics are known) every key sent stays on the account, so pairs are a budget: send the
   * update where it adds the fewest new keys without passing the limit, so that it can still be
   * judged. Otherwise, and when it fits nowhere, the next account in turn.
   */
  accountFor(body: unknown, pool: readonly string[], inTurn: () => string): string {
    const metadata = dig(body, 'metadata');
    if (!isObject(metadata) || this.semantics === 'replace') return inTurn();
    const sent = Object.keys(metadata);
    let best: { id: string; added: number } | undefined;
    for (const id of pool) {
      const prior = this.keysByAccount.get(id);
      if (!prior) continue;
      const added = sent.filter((k) => !prior.has(k)).length;
      if (prior.size + added <= METADATA_LIMITS.maxPairs && (!best || added < best.added)) best = { id, added };
    }
    return best?.id ?? inTurn();
  }
}

/**
 * The JSON object a 2xx carries, whatever the case's mode: an invalid update the target accepted
 * changed the account too (the shape checks leave such a body to the rejection rule).
 */
function answeredBody(e: Exchange): Record<string, unknown> | undefined {
  const body = e.response?.body;
  return e.response?.json && !unreadableBody(e) && isObject(body) ? body : undefined;
}

function asObject(value: unknown): Record<string, unknown> {
  return isObject(value) ? value : {};
}

function sentKeys(e: Exchange): Set<string> | undefined {
  const metadata = dig(e.testCase.body, 'metadata');
  return isObject(metadata) ? new Set(Object.keys(metadata)) : undefined;
}
