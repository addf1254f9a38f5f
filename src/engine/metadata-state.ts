/**
 * What the harness has seen of each fiat account's metadata, and whether the target replaces or
 * merges metadata on update (both are readings of section 4.1). Under merge, a request with 6
 * fresh keys to an account that already holds keys would exceed the 6-pair limit, so its
 * rejection is not a fault: checks ask `mergeMayExceedLimit` before calling it one. Once the
 * target is known to merge, a case that needs room for its keys reuses the keys its account
 * holds (`fitToAccount`), so that it can still be judged.
 */
import { isAround, type TestCase } from '../core/case.ts';
import { getRule } from '../core/catalogue.ts';
import type { Exchange } from '../core/exchange.ts';
import { OPERATIONS } from '../core/operations.ts';
import { dig, is2xx, isObject, unreadableBody } from '../rules/checks/exchange-facts.ts';
import { METADATA_LIMITS } from './generators/metadata.ts';
import { placed } from '../rules/checks/fiat-account-response.ts';

export type MetadataSemantics = 'unknown' | 'replace' | 'merge';

export class MetadataState {
  semantics: MetadataSemantics = 'unknown';
  private readonly keysByAccount = new Map<string, Set<string>>();
  /** Keys whose value came back as no string (the sample's integer attempt counter): the server's own. */
  private readonly serverKeysByAccount = new Map<string, Set<string>>();

  /** Learns from a response: the keys the account now holds and, when it can tell, the semantics. */
  observe(e: Exchange): void {
    // Another method's answer (a GET) is no update: it tells nothing of the semantics.
    if (e.testCase.operation !== 'updateFiatAccount' || !is2xx(e) || isAround(e.testCase)) return;
    const body = answeredBody(e);
    const id = e.testCase.fiatAccountId;
    if (!body || !id) return;
    const pairs = placed(body, 'metadata').flatMap((p) => Object.entries(asObject(p.value)));
    const returned = new Set(pairs.map(([k]) => k));
    const sent = sentKeys(e);
    const prior = this.keysByAccount.get(id);
    if (sent && prior && this.semantics === 'unknown') {
      const dropped = [...prior].filter((k) => !sent.has(k));
      if (dropped.length) this.semantics = dropped.every((k) => returned.has(k)) ? 'merge' : 'replace';
    }
    this.keysByAccount.set(id, returned);
    this.serverKeysByAccount.set(id, new Set(pairs.filter(([, v]) => typeof v !== 'string').map(([k]) => k)));
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
   * The account of the pool an update should go to. Under merge (or before the semantics are
   * known) every key sent stays on the account, so pairs are a budget: send the update where it
   * adds the fewest new keys without passing the limit, so that it can still be judged. When it
   * fits nowhere as sent and the target is known to merge, the account where it fits once fitted
   * (fitToAccount) with the fewest new keys: the fullest, which leaves room elsewhere for keys
   * that cannot be swapped. Otherwise, and when it fits nowhere, the next account in turn.
   */
  accountFor(c: TestCase, pool: readonly string[], inTurn: () => string): string {
    const metadata = dig(c.body, 'metadata');
    if (!isObject(metadata) || this.semantics === 'replace') return inTurn();
    const fitted = this.fits(c) ? (id: string) => this.fitted(c, metadata, id) : () => undefined;
    return this.fewestAdded(pool, () => metadata) ?? this.fewestAdded(pool, fitted) ?? inTurn();
  }

  /**
   * `c` as it should be sent to `accountId`. Under merge the keys an account holds stay, so a case
   * whose request keys plus the held keys pass the limit would be refused for them and judge
   * nothing: its first new keys become held keys it does not send (the values stay). A case of
   * the length rule keeps its 100-character key. Unchanged when it fits, cannot fit, or is not a
   * case that needs room (needsFreshKeys; an invalid case is sent as generated).
   */
  fitToAccount(c: TestCase, accountId: string): TestCase {
    const metadata = dig(c.body, 'metadata');
    if (!isObject(metadata) || !this.fits(c)) return c;
    const fitted = this.fitted(c, metadata, accountId);
    return fitted && fitted !== metadata ? { ...c, body: { ...(c.body as Record<string, unknown>), metadata: fitted } } : c;
  }

  /**
   * `metadata` fitted to account `id` (fitKeys) with the client keys it holds: a server's own key
   * is never sent, it would overwrite the server's value. Undefined when the account is unknown.
   */
  private fitted(c: TestCase, metadata: Record<string, unknown>, id: string): Record<string, unknown> | undefined {
    const held = this.keysByAccount.get(id);
    if (!held) return undefined;
    const server = this.serverKeysByAccount.get(id);
    const spare = [...held].filter((k) => !server?.has(k) && !Object.hasOwn(metadata, k));
    return fitKeys(metadata, held, spare, keptKey(c));
  }

  /** Whether `c` is fitted to its account: the target merges and the case's rule needs room for keys. */
  private fits(c: TestCase): boolean {
    if (this.semantics !== 'merge' || c.operation !== 'updateFiatAccount' || c.mode === 'invalid') return false;
    return getRule(c.exercises ?? OPERATIONS[c.operation].validAcceptedRule).coverage?.needsFreshKeys === true;
  }

  /** The account where `metadataFor(account)` stays within the limit with the keys it holds, and adds the fewest. */
  private fewestAdded(pool: readonly string[], metadataFor: (id: string) => Record<string, unknown> | undefined): string | undefined {
    let best: { id: string; added: number } | undefined;
    for (const id of pool) {
      const held = this.keysByAccount.get(id);
      const metadata = held && metadataFor(id);
      if (!held || !metadata) continue;
      const added = Object.keys(metadata).filter((k) => !held.has(k)).length;
      if (held.size + added <= METADATA_LIMITS.maxPairs && (!best || added < best.added)) best = { id, added };
    }
    return best?.id;
  }
}

/** The keys a fitted case must send as generated: the long key of a case on the length limit. */
function keptKey(c: TestCase): (key: string) => boolean {
  return c.exercises === 'fa.metadata.max-length-accepted' ? (key) => [...key].length === METADATA_LIMITS.maxLength : () => false;
}

/**
 * `metadata` within the limit once merged into `held`: itself when it fits; else its first new
 * keys (not kept) swapped for `spare` held keys it does not send, values unchanged; undefined
 * when too few can be swapped.
 */
function fitKeys(
  metadata: Record<string, unknown>,
  held: ReadonlySet<string>,
  spare: readonly string[],
  kept: (key: string) => boolean,
): Record<string, unknown> | undefined {
  const fresh = Object.keys(metadata).filter((k) => !held.has(k));
  const excess = held.size + fresh.length - METADATA_LIMITS.maxPairs;
  if (excess <= 0) return metadata;
  const swapped = fresh.filter((k) => !kept(k)).slice(0, excess);
  if (swapped.length < excess || spare.length < excess) return undefined;
  const swap = new Map(swapped.map((k, i) => [k, spare[i]]));
  // Object.fromEntries keeps a "__proto__" key a plain key.
  return Object.fromEntries(Object.entries(metadata).map(([k, v]) => [swap.get(k) ?? k, v]));
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
