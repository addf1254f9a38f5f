/**
 * What an answer about a fiat account shows of the fields a run changes: the owner names, the
 * client's metadata pairs and the wire instructions, each in any placement the document allows
 * (section 2.1 shape note), as flat fields named by their path in an update body.
 */
import { dig, isObject } from '../../rules/checks/exchange-facts.ts';
import { placed } from '../../rules/checks/fiat-account-response.ts';

/** The fields of an update body that name an owner name (fiat_account_owner.person_details). */
export const OWNER_NAME_FIELDS = ['first_name', 'last_name'].map((name) => `fiat_account_owner.person_details.${name}`);
const WIRE_PREFIX = 'fiat_network_instructions.wire';

export interface AccountState {
  /** Owner name field -> value, for the names the answer shows as text. */
  names: Map<string, string>;
  /** The client's metadata pairs (text values; a server's own counter is not the client's), or undefined when no placement shows metadata. */
  metadata?: Map<string, string>;
  /** Wire leaf field (`fiat_network_instructions.wire.routing_details.bank_name`) -> value, or undefined when no placement shows wire. */
  wire?: Map<string, unknown>;
}

/** The state a FiatAccount shows. */
export function accountState(body: Record<string, unknown>): AccountState {
  const names = new Map<string, string>();
  for (const field of OWNER_NAME_FIELDS) {
    const value = dig(body, ...field.split('.'));
    if (typeof value === 'string') names.set(field, value);
  }
  const shown = placed(body, 'metadata').filter((p) => isObject(p.value));
  const metadata = shown.length
    ? new Map(shown.flatMap((p) => Object.entries(p.value as Record<string, unknown>)).filter((e): e is [string, string] => typeof e[1] === 'string'))
    : undefined;
  const wireObject = [dig(body, 'fiat_network_instructions', 'wire'), dig(body, 'fiat_account_owner', 'fiat_network_instructions', 'wire')].find(isObject);
  return { names, ...(metadata ? { metadata } : {}), ...(wireObject ? { wire: leaves(wireObject, WIRE_PREFIX) } : {}) };
}

/** A metadata key as a field name: `metadata.channel`, or `metadata["a key"]` when the key is no plain word. */
export const metadataField = (key: string): string => (/^[A-Za-z0-9_-]+$/.test(key) ? `metadata.${key}` : `metadata[${JSON.stringify(key)}]`);

/** Every leaf of `value` (what is not a non-empty plain object) by its dotted path under `prefix`. */
export function leaves(value: Record<string, unknown>, prefix: string): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [key, child] of Object.entries(value)) {
    const field = `${prefix}.${key}`;
    if (isObject(child) && Object.keys(child).length) for (const [f, v] of leaves(child, field)) out.set(f, v);
    else out.set(field, child);
  }
  return out;
}

/** `fields` (leaf path -> value, all under `prefix`) as the nested object an update sends. */
export function nested(fields: ReadonlyMap<string, unknown>, prefix: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [field, value] of fields) {
    const keys = field.slice(prefix.length + 1).split('.');
    let at = root;
    for (const key of keys.slice(0, -1)) {
      if (!isObject(Object.hasOwn(at, key) ? at[key] : undefined)) setOwn(at, key, {});
      at = at[key] as Record<string, unknown>;
    }
    setOwn(at, keys.at(-1)!, value);
  }
  return root;
}

/** Sets a key as a plain own key, even "__proto__" (a target's key reaches no prototype). */
export function setOwn(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * A value the target shows only in part (an account number as `****1234`, `••••1234`,
 * `XXXXXX1234`): writing it back would store the mask.
 */
export function isMasked(value: unknown): boolean {
  return typeof value === 'string' && (/[*•●]{2,}/.test(value) || /^[xX#]{3,}[0-9]{2,}$/.test(value));
}

/** Two leaf values alike as JSON. */
export const sameValue = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

export { WIRE_PREFIX };
