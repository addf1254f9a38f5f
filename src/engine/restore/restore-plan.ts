/**
 * What to write back to a fiat account so that it shows what the journal holds, decided from the
 * journal's state and a read of the account now: only the parts that differ, each value with its
 * JSON type, each metadata map from its own placement, and never a value that cannot go back (one
 * the target masked, the review status, a field the journal never showed). Every field it cannot
 * restore is named with why.
 */
import { cutText } from '../../core/cut-text.ts';
import { dig } from '../../rules/checks/exchange-facts.ts';
import type { MetadataSemantics } from '../../rules/update-fiat-account/metadata-state.ts';
import { METADATA_LIMITS } from '../../rules/update-fiat-account/metadata-cases.ts';
import { type AccountState, type ShownField, isMasked, metadataPlacement, sameValue, setPath } from './account-state.ts';

/** A field that is not as the journal holds it, and why. */
export interface FieldNote {
  field: string;
  reason: string;
  /** What the journal holds and what the account shows now (absent: the field is not there). */
  was?: unknown;
  now?: unknown;
  /** The API cannot undo it (a status moved by review, a masked value, a key a merging target keeps): trying again will not help. */
  final?: boolean;
}

/** A field the write-back sets, and the value it must show afterwards (undefined: absent). */
export interface Expected {
  field: string;
  value: unknown;
}

export interface WriteBack {
  /** The update body to send; undefined when nothing can or need be written. */
  body?: Record<string, unknown>;
  expected: Expected[];
  notRestored: FieldNote[];
  /** Metadata keys the run added that this write cannot remove (the target merges): the restore tries to delete them. */
  added: { field: string; writeAt: readonly string[] }[];
}

/** A value as a report shows it: JSON, cut. */
export const shownValue = (value: unknown): string => (value === undefined ? 'nothing' : cutText(JSON.stringify(value), 120));

/** Every field that differs between two states (by display name). */
export function differing(was: AccountState, now: AccountState): string[] {
  return [...new Set([...was.keys(), ...now.keys()])].filter((f) => !sameValue(was.get(f)?.value, now.get(f)?.value));
}

export function planWriteBack(journal: AccountState, now: AccountState, semantics: MetadataSemantics): WriteBack {
  const plan: WriteBack = { expected: [], notRestored: [], added: [] };
  const body: Record<string, unknown> = {};
  const writeAt = writePaths(journal);
  const note = (field: string, reason: string) =>
    plan.notRestored.push({
      field,
      reason,
      ...(journal.has(field) ? { was: journal.get(field)!.value } : {}),
      ...(now.has(field) ? { now: now.get(field)!.value } : {}),
      final: true,
    });
  const metadataMaps = new Set<string>();
  let wireDiffers = false;
  for (const field of differing(journal, now)) {
    const was = journal.get(field);
    const shown = was ?? now.get(field)!;
    if (shown.kind === 'status') note(field, 'the target moved the review status; no update sets it (the document names no transition)');
    else if (!was && shown.kind !== 'metadata') note(field, 'the journal did not show it, so there is no value to put back');
    else if (was && isMasked(was.value))
      note(field, `the target showed it masked (${shownValue(was.value)}) when journaled: its value is unknown, not written back`);
    else if (shown.kind === 'metadata') metadataMaps.add(metadataPlacement(shown));
    else {
      setPath(body, writeAt(shown), was!.value);
      plan.expected.push({ field, value: was!.value });
      wireDiffers ||= shown.kind === 'wire';
    }
  }
  // A target may replace the wire object whole: every journaled leaf goes with the ones that differ (a masked one cannot).
  if (wireDiffers) for (const f of journal.values()) if (f.kind === 'wire' && !isMasked(f.value)) setPath(body, writeAt(f), f.value);
  for (const placement of metadataMaps) planMetadata(placement, journal, now, semantics, writeAt, body, plan, note);
  return Object.keys(body).length ? { ...plan, body } : plan;
}

/**
 * One metadata map back as journaled. Under replace (or not yet known) the journaled pairs go back
 * whole, which drops the run's keys; under merge only the changed pairs (within 6 on the account),
 * and the keys the run added are left to the restore's deletion.
 */
function planMetadata(
  placement: string,
  journal: AccountState,
  now: AccountState,
  semantics: MetadataSemantics,
  writeAt: (f: ShownField) => readonly string[],
  body: Record<string, unknown>,
  plan: WriteBack,
  note: (field: string, reason: string) => void,
): void {
  const inMap = (state: AccountState) => [...state].filter(([, f]) => f.kind === 'metadata' && metadataPlacement(f) === placement);
  const was = inMap(journal);
  const shown = inMap(now);
  const changed = was.filter(([name, f]) => !sameValue(f.value, now.get(name)?.value));
  const added = shown.filter(([name]) => !journal.has(name));
  for (const [name, f] of changed.filter(([, f]) => isMasked(f.value)))
    note(name, `the target showed it masked (${shownValue(f.value)}) when journaled: its value is unknown, not written back`);
  const writable = (semantics === 'merge' ? changed : was).filter(([, f]) => !isMasked(f.value));
  const target = was[0]?.[1] ?? shown[0]![1];
  if (semantics === 'merge') {
    for (const [name, f] of added) plan.added.push({ field: name, writeAt: writeAt(f) });
    if (new Set([...shown.map(([n]) => n), ...writable.map(([n]) => n)]).size > METADATA_LIMITS.maxPairs && added.length) {
      // The added keys must go first, or the merge would pass 6 pairs and the write be refused.
      for (const [name] of changed) plan.added.push({ field: name, writeAt: writeAt(journal.get(name)!) });
      return;
    }
  } else for (const [name] of added) plan.expected.push({ field: name, value: undefined });
  if (!writable.length && semantics === 'merge') return;
  // An empty map goes as {}: under replace it drops the run's keys (a map placed twice is one map).
  const mapAt = writeAt(target).slice(0, -1);
  if (dig(body, ...mapAt) === undefined) setPath(body, mapAt, {});
  for (const [name, f] of writable) {
    setPath(body, writeAt(f), f.value);
    if (changed.some(([n]) => n === name)) plan.expected.push({ field: name, value: f.value });
  }
}

/**
 * Where an update writes a field the journal shows. The instructions' metadata is the client's
 * when the account shows no top-level metadata, or shows the same map at both places (one map
 * placed twice); otherwise it is the instructions' own, written inside fiat_network_instructions.
 */
export function writePaths(journal: AccountState): (f: ShownField) => readonly string[] {
  const mapOf = (placement: string) =>
    JSON.stringify(
      [...journal.values()]
        .filter((f) => f.kind === 'metadata' && metadataPlacement(f) === placement)
        .map((f) => [f.path.at(-1), f.value])
        .sort(),
    );
  const hasTop = [...journal.values()].some((f) => f.kind === 'metadata' && f.path.length === 2);
  return (f) => {
    if (f.kind === 'wire') return ['fiat_network_instructions', ...f.path.slice(f.path.indexOf('wire'))];
    if (f.kind !== 'metadata' || f.path.length === 2) return f.path;
    const placement = metadataPlacement(f);
    const own = hasTop && mapOf(placement) !== mapOf('metadata');
    return own ? ['fiat_network_instructions', 'metadata', f.path.at(-1)!] : ['metadata', f.path.at(-1)!];
  };
}
