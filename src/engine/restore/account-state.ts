/**
 * What a read of a fiat account shows of what a run can change, field by field and placement by
 * placement (section 2.1 shape note: status and metadata inside
 * fiat_account_owner.fiat_network_instructions as the sample, or at the top level, or both),
 * each value with its JSON type: the owner's person_details, every metadata map (the client's
 * top-level `metadata` and the instructions' `metadata`, whose sample holds an integer counter),
 * every leaf of the wire instructions, and the review status (no update sets it back).
 */
import { isObject } from '../../rules/checks/exchange-facts.ts';

/** What part of an account a field belongs to: it decides how (and whether) an update writes it. */
export type FieldKind = 'owner' | 'metadata' | 'wire' | 'status';

/** One field as a read shows it. */
export interface ShownField {
  kind: FieldKind;
  /** Where it sits in the answer: `['fiat_account_owner', 'fiat_network_instructions', 'metadata', 'k1']`. */
  path: readonly string[];
  value: unknown;
}

/** Every field a run can change, by its display name (`metadata.k1`, `fiat_account_owner.person_details.first_name`). */
export type AccountState = ReadonlyMap<string, ShownField>;

/** Where the instructions may sit (2.1 shape note): nested as the sample, or at the top level. */
const INSTRUCTIONS = [['fiat_account_owner', 'fiat_network_instructions'], ['fiat_network_instructions']] as const;

/** The state a FiatAccount shows. */
export function accountState(body: Record<string, unknown>): AccountState {
  const state = new Map<string, ShownField>();
  const add = (kind: FieldKind, path: readonly string[], value: unknown) => state.set(fieldName(path), { kind, path, value });
  const owner = at(body, ['fiat_account_owner', 'person_details']);
  if (isObject(owner)) for (const [path, value] of leaves(owner, ['fiat_account_owner', 'person_details'])) add('owner', path, value);
  for (const placement of [[], ...INSTRUCTIONS]) {
    const metadata = at(body, [...placement, 'metadata']);
    if (isObject(metadata)) for (const [key, value] of Object.entries(metadata)) add('metadata', [...placement, 'metadata', key], value);
  }
  for (const placement of INSTRUCTIONS) {
    const wire = at(body, [...placement, 'wire']);
    if (isObject(wire)) for (const [path, value] of leaves(wire, [...placement, 'wire'])) add('wire', path, value);
    const status = at(body, [...placement, 'status']);
    if (status !== undefined) add('status', [...placement, 'status'], status);
  }
  const status = body.status;
  if (status !== undefined) add('status', ['status'], status);
  return state;
}

/** The metadata map a metadata field belongs to (its path without the key), as a display name. */
export const metadataPlacement = (field: ShownField): string => field.path.slice(0, -1).join('.');

/** A field's display name: dotted path, a key that is no plain word quoted (`metadata["a key"]`). */
export function fieldName(path: readonly string[]): string {
  return path.map((key, i) => (/^[A-Za-z0-9_-]+$/.test(key) ? `${i ? '.' : ''}${key}` : `[${JSON.stringify(key)}]`)).join('');
}

function at(body: unknown, path: readonly string[]): unknown {
  let value = body;
  for (const key of path) {
    if (!isObject(value) || !Object.hasOwn(value, key)) return undefined;
    value = value[key];
  }
  return value;
}

/** Every leaf of `value` (what is not a non-empty plain object) with its path. */
function leaves(value: Record<string, unknown>, prefix: readonly string[]): [string[], unknown][] {
  return Object.entries(value).flatMap(([key, child]): [string[], unknown][] =>
    isObject(child) && Object.keys(child).length ? leaves(child, [...prefix, key]) : [[[...prefix, key], child]],
  );
}

/** Sets `path` in `root` as plain own keys (a target's key "__proto__" reaches no prototype), creating objects on the way. */
export function setPath(root: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let at = root;
  for (const key of path.slice(0, -1)) {
    if (!isObject(Object.hasOwn(at, key) ? at[key] : undefined)) setOwn(at, key, {});
    at = at[key] as Record<string, unknown>;
  }
  setOwn(at, path.at(-1)!, value);
}

function setOwn(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * A value the target shows only in part (an account number as `****1234`, `••••1234`,
 * `XXXXXX1234`): writing it back would store the mask.
 */
export function isMasked(value: unknown): boolean {
  return typeof value === 'string' && (/[*•●]{2,}/.test(value) || /^[xX#]{3,}[0-9]{2,}$/.test(value));
}

/** Two values alike as JSON, types included (1 is not "1"). */
export const sameValue = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
