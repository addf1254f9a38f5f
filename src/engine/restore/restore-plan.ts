/**
 * What to write back to a fiat account so that it shows what it showed before the run, decided
 * from the start read and the end read: only the fields that differ, and never a value that
 * cannot go back (one the target masked, one it never showed, a key that a merging target
 * cannot drop). Each field it cannot restore is named with why.
 */
import { cutText } from '../../core/cut-text.ts';
import type { MetadataSemantics } from '../metadata-state.ts';
import { METADATA_LIMITS } from '../generators/metadata.ts';
import { type AccountState, OWNER_NAME_FIELDS, WIRE_PREFIX, isMasked, metadataField, nested, sameValue, setOwn } from './account-state.ts';

/** A field that could not be put back, and why. */
export interface FieldNote {
  field: string;
  reason: string;
}

/** A field the write-back sets, the value it must show afterwards (undefined: absent) and where to find it in a state. */
export interface Expected {
  field: string;
  value: unknown;
  read(state: AccountState): unknown;
}

export interface WriteBack {
  /** The update body to send; undefined when nothing can or need be written. */
  body?: Record<string, unknown>;
  expected: Expected[];
  notRestored: FieldNote[];
}

/** A value as a report shows it: JSON, cut. */
export const shownValue = (value: unknown): string => (value === undefined ? 'nothing' : cutText(JSON.stringify(value), 120));

const masked = (field: string, value: unknown): FieldNote => ({
  field,
  reason: `the target showed it masked (${shownValue(value)}) at the start: not written back, its value is unknown`,
});
const neverShown = (field: string, now: unknown): FieldNote => ({
  field,
  reason: `the start read did not show it, so there is no value to write back (it now shows ${shownValue(now)})`,
});

export function planWriteBack(start: AccountState, end: AccountState, semantics: MetadataSemantics): WriteBack {
  const plan: WriteBack = { expected: [], notRestored: [] };
  const body: Record<string, unknown> = {};
  const names = planNames(start, end, plan);
  if (names.size) body.fiat_account_owner = { person_details: Object.fromEntries([...names].map(([f, v]) => [f.split('.').at(-1)!, v])) };
  const metadata = planMetadata(start, end, semantics, plan);
  if (metadata) body.metadata = metadata;
  const wire = planWire(start, end, plan);
  if (wire) body.fiat_network_instructions = { wire };
  return Object.keys(body).length ? { ...plan, body } : plan;
}

function planNames(start: AccountState, end: AccountState, plan: WriteBack): Map<string, string> {
  const write = new Map<string, string>();
  for (const field of OWNER_NAME_FIELDS) {
    const [before, now] = [start.names.get(field), end.names.get(field)];
    if (before === now) continue;
    if (before === undefined) plan.notRestored.push(neverShown(field, now));
    else if (isMasked(before)) plan.notRestored.push(masked(field, before));
    else {
      write.set(field, before);
      plan.expected.push({ field, value: before, read: (s) => s.names.get(field) });
    }
  }
  return write;
}

/**
 * Under replace the start's pairs go back whole (which drops the run's keys); under merge only the
 * pairs whose value differs, and the keys the run added stay: no update can remove them.
 */
function planMetadata(start: AccountState, end: AccountState, semantics: MetadataSemantics, plan: WriteBack): Record<string, unknown> | undefined {
  const now = end.metadata ?? new Map<string, string>();
  const before = start.metadata;
  const added = [...now.keys()].filter((k) => !before?.has(k));
  if (!before) {
    for (const key of added) plan.notRestored.push(neverShown(metadataField(key), now.get(key)));
    return undefined;
  }
  const changed = [...before.keys()].filter((k) => before.get(k) !== now.get(k));
  if (!changed.length && !added.length) return undefined;
  for (const key of changed.filter((k) => isMasked(before.get(k)))) plan.notRestored.push(masked(metadataField(key), before.get(key)));
  const writable = changed.filter((k) => !isMasked(before.get(k)));
  const expect = (key: string, value: string | undefined) => plan.expected.push({ field: metadataField(key), value, read: (s) => s.metadata?.get(key) });
  if (semantics === 'merge') {
    for (const key of added)
      plan.notRestored.push({
        field: metadataField(key),
        reason: 'added by the run; the target merges metadata, so no update can remove a key',
      });
    if (!writable.length) return undefined;
    // Merged into what the account holds, the pairs must stay within the limit, or the whole write is refused.
    if (new Set([...now.keys(), ...writable]).size > METADATA_LIMITS.maxPairs) {
      for (const key of writable)
        plan.notRestored.push({
          field: metadataField(key),
          reason: `writing it back would leave more than ${METADATA_LIMITS.maxPairs} pairs on the account (the target merges metadata)`,
        });
      return undefined;
    }
    for (const key of writable) expect(key, before.get(key));
    return pairs(writable, before);
  }
  const kept = [...before.keys()].filter((k) => !isMasked(before.get(k)));
  for (const key of writable) expect(key, before.get(key));
  for (const key of added) expect(key, undefined);
  return pairs(kept, before);
}

/** The wire instructions as the start read showed them (its masked values left out), when any leaf differs. */
function planWire(start: AccountState, end: AccountState, plan: WriteBack): Record<string, unknown> | undefined {
  const now = end.wire ?? new Map<string, unknown>();
  const before = start.wire;
  const added = [...now.keys()].filter((f) => !before?.has(f));
  if (!before) {
    for (const field of added) plan.notRestored.push(neverShown(field, now.get(field)));
    return undefined;
  }
  const changed = [...before.keys()].filter((f) => !sameValue(before.get(f), now.get(f)));
  if (!changed.length && !added.length) return undefined;
  for (const field of changed.filter((f) => isMasked(before.get(f)))) plan.notRestored.push(masked(field, before.get(field)));
  const sendable = new Map([...before].filter(([, v]) => !isMasked(v)));
  const restorable = [...changed.filter((f) => !isMasked(before.get(f))), ...added];
  if (!sendable.size) {
    for (const field of restorable) plan.notRestored.push({ field, reason: 'every wire value the start read showed was masked: nothing to write back' });
    return undefined;
  }
  for (const field of restorable) plan.expected.push({ field, value: before.get(field), read: (s) => s.wire?.get(field) });
  return nested(sendable, WIRE_PREFIX);
}

function pairs(keys: readonly string[], from: ReadonlyMap<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) setOwn(out, key, from.get(key));
  return out;
}
