/**
 * What the harness has seen of each fiat account's metadata, and whether the target replaces or
 * merges metadata on update (both are readings of section 4.1). Under merge every key sent stays
 * on the account, and no update can take a key away: an account that already holds keys refuses
 * a case with fresh keys for them, and whatever the run adds is still there for the next run. So
 * the harness learns each account's keys before its first write (`heldAtStart`, or the probe's
 * reads), builds the cases that need room on the keys an account holds (metadata-fit.ts), never
 * sends what would take an account past 6 pairs (a case that fits nowhere is not sent, and its
 * rule says why), and remembers the keys it added (`addedKeys`) for the restore. Under replace
 * nothing of this applies. Checks ask `mergeMayExceedLimit` before calling a refusal a fault.
 */
import { isAround, type TestCase } from '../../core/case.ts';
import { getRule } from '../../core/catalogue.ts';
import type { Exchange } from '../../core/exchange.ts';
import { OPERATIONS } from '../../core/operations.ts';
import { dig, is2xx, isObject, unreadableBody } from '../checks/exchange-facts.ts';
import { METADATA_LIMITS } from './metadata-cases.ts';
import { clientMetadata } from './checks.ts';
import { asSent, type Fitted, fitKeys, type HeldKeys, shownKey, subjectKey } from './metadata-fit.ts';

export type MetadataSemantics = 'unknown' | 'replace' | 'merge';

/** Where an update goes: the case on its account (its metadata fitted), or why it is not sent. */
export type Placement = { testCase: TestCase } | { unsent: string };

export class MetadataState {
  semantics: MetadataSemantics = 'unknown';
  private readonly keysByAccount = new Map<string, Set<string>>();
  /** Keys whose value came back as no string (the sample's integer attempt counter): the server's own. */
  private readonly serverKeysByAccount = new Map<string, Set<string>>();
  /** The client keys each account held before the run wrote to it. */
  private readonly startKeys = new Map<string, ReadonlySet<string>>();
  /** The keys of every update the target did not refuse (a 4xx stores nothing), by account. */
  private readonly sentKeys = new Map<string, Set<string>>();

  /**
   * The client metadata keys `accountId` holds before the run's first write to it (the restore's
   * start read). What the run adds is counted from here, and the cases are built on these keys.
   */
  heldAtStart(accountId: string, keys: readonly string[]): void {
    this.startKeys.set(accountId, new Set(keys));
    this.keysByAccount.set(accountId, new Set(keys));
  }

  /**
   * The keys the run may have added to `accountId`: sent in an update the target did not refuse,
   * and not held at the start. Under replace the last update's keys are the only ones left; the
   * restore reads the account to know which it holds. Empty when the start is unknown.
   */
  addedKeys(accountId: string): string[] {
    const start = this.startKeys.get(accountId);
    if (!start) return [];
    return [...(this.sentKeys.get(accountId) ?? [])].filter((k) => !start.has(k));
  }

  /** Learns from a response: the keys the account now holds and, when it can tell, the semantics. */
  observe(e: Exchange): void {
    // Another method's answer (a GET) is no update: it tells nothing of the semantics.
    if (e.testCase.operation !== 'updateFiatAccount' || isAround(e.testCase)) return;
    const id = e.testCase.fiatAccountId;
    const sent = sentKeysOf(e);
    if (id && sent && !refused(e)) this.sentKeys.set(id, new Set([...(this.sentKeys.get(id) ?? []), ...sent]));
    const body = is2xx(e) ? answeredBody(e) : undefined;
    if (!body || !id) return;
    // The client's map only: the instructions' own metadata (the sample's, beside a top-level map) is not the client's to fill.
    const pairs = Object.entries(clientMetadata(body) ?? {});
    const returned = new Set(pairs.map(([k]) => k));
    // Without a start read, the first answer to an update that sent no metadata shows the start.
    if (!this.startKeys.has(id) && !sent) this.startKeys.set(id, returned);
    const prior = this.keysByAccount.get(id);
    if (sent && prior && this.semantics === 'unknown') {
      // A server's own key (a counter) comes back whatever was sent: only the client's keys tell.
      const serverKeys = this.serverKeysByAccount.get(id);
      const dropped = [...prior].filter((k) => !sent.has(k) && !serverKeys?.has(k));
      if (dropped.length) this.semantics = dropped.every((k) => returned.has(k)) ? 'merge' : 'replace';
    }
    this.keysByAccount.set(id, returned);
    this.serverKeysByAccount.set(id, new Set(pairs.filter(([, v]) => typeof v !== 'string').map(([k]) => k)));
  }

  /**
   * The account and the two keys of the probe that tells replace from merge (one one-pair update
   * each): the second update drops the first key, which a merging target keeps. Keys the account
   * holds go first, then k1 and k2, so the probe adds no key to an account holding two; the
   * account is the one where it adds the fewest within the limit (else the first).
   */
  semanticsProbe(pool: readonly string[]): { accountId: string; keys: string[] } {
    const best = this.fewestAdded(pool, (held) => asSent(Object.fromEntries(probeKeys(held).map((k) => [k, ''])), held));
    const accountId = best?.id ?? pool[0];
    return { accountId, keys: probeKeys(this.heldBy(accountId)) };
  }

  mergeMayExceedLimit(e: Exchange): boolean {
    if (e.testCase.operation !== 'updateFiatAccount' || this.semantics === 'replace') return false;
    const sent = sentKeysOf(e);
    if (!sent) return false;
    const prior = this.keysByAccount.get(e.testCase.fiatAccountId ?? '');
    if (!prior) return this.semantics === 'merge';
    return new Set([...prior, ...sent]).size > METADATA_LIMITS.maxPairs;
  }

  /**
   * Where an update of the pool goes. Under replace, the next account in turn, as generated. Under
   * merge or while unknown every key sent stays: a case that needs room (needsFreshKeys) goes
   * fitted to the account where it adds the fewest keys, and among those the one with the most
   * room left (cases that add a key spread over the accounts); when it fits nowhere and every
   * account's keys are known, it is not sent. Any other case with metadata (an invalid one, sent
   * as generated) goes where it adds the fewest keys within the limit; else the next in turn.
   */
  place(c: TestCase, pool: readonly string[], inTurn: () => string): Placement {
    const metadata = dig(c.body, 'metadata');
    const on = (id: string, fitted?: Fitted): Placement => ({ testCase: withMetadata({ ...c, fiatAccountId: id }, fitted?.metadata) });
    if (!isObject(metadata) || this.semantics === 'replace') return on(inTurn());
    const fitTo = this.fits(c) ? (held: HeldKeys) => fitKeys(metadata, held, subjectKey(c)) : (held: HeldKeys) => asSent(metadata, held);
    const best = this.fewestAdded(pool, fitTo);
    if (best) return on(best.id, best.fitted);
    if (this.fits(c) && pool.length && pool.every((id) => this.keysByAccount.has(id))) return { unsent: this.noRoom(pool) };
    return on(inTurn());
  }

  /**
   * `c` as it should be sent to `accountId` (a case that names its account: a sequence step). Under
   * merge or while unknown, a case that needs room is fitted to the keys the account holds;
   * unchanged when it fits as sent, cannot fit, or is not such a case.
   */
  fitToAccount(c: TestCase, accountId: string): TestCase {
    const metadata = dig(c.body, 'metadata');
    const held = this.heldBy(accountId);
    if (!isObject(metadata) || !held || !this.fits(c)) return c;
    return withMetadata(c, fitKeys(metadata, held, subjectKey(c))?.metadata);
  }

  /** Whether `c` is built on its account's keys: the target may merge and the case's rule needs room for keys. */
  private fits(c: TestCase): boolean {
    if (this.semantics === 'replace' || c.operation !== 'updateFiatAccount' || c.mode === 'invalid') return false;
    return getRule(c.exercises ?? OPERATIONS[c.operation].validAcceptedRule).coverage?.needsFreshKeys === true;
  }

  private heldBy(id: string): HeldKeys | undefined {
    const keys = this.keysByAccount.get(id);
    const serverKeys = this.serverKeysByAccount.get(id);
    return keys && { keys, ...(serverKeys ? { serverKeys } : {}) };
  }

  /** The account where `fitTo` adds the fewest keys within the limit; a tie goes to the one with the most room, then to pool order. */
  private fewestAdded(pool: readonly string[], fitTo: (held: HeldKeys) => Fitted | undefined): { id: string; fitted: Fitted } | undefined {
    let best: { id: string; fitted: Fitted; room: number } | undefined;
    for (const id of pool) {
      const held = this.heldBy(id);
      const fitted = held && fitTo(held);
      if (!held || !fitted) continue;
      const room = METADATA_LIMITS.maxPairs - held.keys.size;
      if (!best || fitted.added < best.fitted.added || (fitted.added === best.fitted.added && room > best.room)) best = { id, fitted, room };
    }
    return best;
  }

  /** Why a case that needs a new key is not sent: every account's keys, which leave it no room. */
  private noRoom(pool: readonly string[]): string {
    const holds = pool.map((id) => `${id} holds ${[...(this.keysByAccount.get(id) ?? [])].map(shownKey).join(', ') || 'no key'}`);
    const how = this.semantics === 'merge' ? 'the target merges metadata' : 'the target may merge metadata (not known yet)';
    return `not sent: no fiat account has room for the new metadata key it needs within ${METADATA_LIMITS.maxPairs} pairs (${how}, so every key sent stays; ${holds.join('; ')})`;
  }
}

/** The probe's two keys on an account: client keys it holds first, then k1 and k2. */
function probeKeys(held: HeldKeys | undefined): string[] {
  const own = [...(held?.keys ?? [])].filter((k) => !held?.serverKeys?.has(k));
  return [...own, ...['k1', 'k2'].filter((k) => !own.includes(k))].slice(0, 2);
}

/** `c` with `metadata` in its body instead of its own; `c` itself when there is none or it is the same. */
function withMetadata(c: TestCase, metadata: Record<string, unknown> | undefined): TestCase {
  if (!metadata || metadata === dig(c.body, 'metadata')) return c;
  return { ...c, body: { ...(c.body as Record<string, unknown>), metadata } };
}

/** A 4xx: the target did not do what was asked, so nothing of the request was stored. */
const refused = (e: Exchange): boolean => e.response !== undefined && e.response.status >= 400 && e.response.status < 500;

function sentKeysOf(e: Exchange): Set<string> | undefined {
  const metadata = dig(e.testCase.body, 'metadata');
  return isObject(metadata) ? new Set(Object.keys(metadata)) : undefined;
}

/**
 * The JSON object a 2xx carries, whatever the case's mode: an invalid update the target accepted
 * changed the account too (the shape checks leave such a body to the rule of rejections).
 */
function answeredBody(e: Exchange): Record<string, unknown> | undefined {
  const body = e.response?.body;
  return e.response?.json && !unreadableBody(e) && isObject(body) ? body : undefined;
}
