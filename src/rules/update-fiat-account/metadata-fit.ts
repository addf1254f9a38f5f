/**
 * Fitting a case's metadata to the keys an account holds, for a target that merges metadata (or
 * may: section 4.1 does not say). Every key sent then stays on the account, and a key the run
 * cannot delete stays for the next run too. So a key that is not the case's subject is swapped for
 * a key the account already holds (the value stays: what the case is about is its pairs and
 * values); a new key is added only when the account holds too few keys to swap, or when the key
 * is the case's subject (the 100-character key of the length rule), and only within the limit.
 */
import type { TestCase } from '../../core/case.ts';
import { METADATA_LIMITS } from './metadata-cases.ts';

/** What an account holds: its client keys and, among them, the server's own (never sent: a value of the server's). */
export interface HeldKeys {
  keys: ReadonlySet<string>;
  serverKeys?: ReadonlySet<string>;
}

/** `metadata` fitted to an account, and how many keys it adds to it. */
export interface Fitted {
  metadata: Record<string, unknown>;
  added: number;
}

/** Whether `key` is what a case is about, so it is sent as generated: the long key of a case on the length limit. */
export function subjectKey(c: TestCase): (key: string) => boolean {
  return c.exercises === 'fa.metadata.max-length-accepted' ? (key) => [...key].length === METADATA_LIMITS.maxLength : () => false;
}

/**
 * `metadata` with as many of its new keys (not subjects) as possible swapped for held keys it does
 * not send, values unchanged; undefined when the keys it still adds would take the account past
 * the limit.
 */
export function fitKeys(metadata: Record<string, unknown>, held: HeldKeys, isSubject: (key: string) => boolean): Fitted | undefined {
  const fresh = Object.keys(metadata).filter((k) => !held.keys.has(k));
  const spare = [...held.keys].filter((k) => !held.serverKeys?.has(k) && !Object.hasOwn(metadata, k));
  const swapped = fresh.filter((k) => !isSubject(k)).slice(0, spare.length);
  const added = fresh.length - swapped.length;
  if (held.keys.size + added > METADATA_LIMITS.maxPairs) return undefined;
  if (!swapped.length) return { metadata, added };
  const swap = new Map(swapped.map((k, i) => [k, spare[i]]));
  // Object.fromEntries keeps a "__proto__" key a plain key.
  return { metadata: Object.fromEntries(Object.entries(metadata).map(([k, v]) => [swap.get(k) ?? k, v])), added };
}

/** `metadata` as sent, and how many keys it adds: undefined when that takes the account past the limit. */
export function asSent(metadata: Record<string, unknown>, held: HeldKeys): Fitted | undefined {
  const added = Object.keys(metadata).filter((k) => !held.keys.has(k)).length;
  return held.keys.size + added > METADATA_LIMITS.maxPairs ? undefined : { metadata, added };
}

/** A key as a reason shows it: a long key shortened, so that a line naming six of them stays readable. */
export function shownKey(key: string): string {
  const points = [...key];
  return JSON.stringify(points.length > 16 ? `${points.slice(0, 12).join('')}…(${points.length})` : key);
}
