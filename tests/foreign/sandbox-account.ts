/**
 * A fiat account as a vendor's sandbox keeps it, and what one PUT does to it. Written apart from
 * src/server: the sandbox target (sandbox-target.ts) models the ways real sandboxes read the
 * document where it is silent (section 2.1 shape note, 4.1, 8): where status and the two metadata
 * maps sit, whether a PUT patches or replaces the record, whether metadata merges, how a key is
 * deleted, blanks ignored, a masked account number, a review that moves the status.
 */

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
/** Metadata values: text, or integers (the sample's instruction metadata holds an attempt counter). */
export type Metadata = Record<string, string | number>;
export type FiatStatus = 'PENDING' | 'APPROVED' | 'REJECTED';
export const FIAT_STATUSES: readonly FiatStatus[] = ['PENDING', 'APPROVED', 'REJECTED'];

/** The stored record, flat and placement-free; `snapshot()` answers a deep copy of it. */
export interface SandboxAccount {
  id: string;
  created_at: string;
  updated_at: string;
  /** Review status of the instructions. */
  status: FiatStatus;
  /** Owner names; absent once a replacing PUT cleared them. */
  first_name?: string;
  last_name?: string;
  /** The client's metadata (top-level `metadata`); {} when none. */
  metadata: Metadata;
  /** The instructions' own metadata (`fiat_network_instructions.metadata`), the server's: a text entry and an integer counter. */
  instruction_metadata: Metadata;
  /** Wire instructions (account_number, fiat_account_owner_address, routing_details); absent once a replacing PUT cleared them. */
  wire?: JsonObject;
}

/** How the sandbox reads an update; every choice is one a real sandbox makes. */
export interface UpdateRules {
  /** patch: fields absent from the body are kept; replace: the PUT is the whole record (owner names, client metadata, wire absent are cleared). */
  update: 'patch' | 'replace';
  /** replace: the sent map is the new map; merge: sent pairs are merged into the stored ones. */
  metadata: 'replace' | 'merge';
  /** Under merge: none (no key can go), null-value (`{"k": null}` removes k), empty-object (`metadata: {}` clears all). */
  metadataDelete: 'none' | 'null-value' | 'empty-object';
  /** ignore: nulls and empty strings in the body count as absent (the vendor's documented behaviour); strict: a null is a wrong type (400), '' is a value. */
  blanks: 'ignore' | 'strict';
  /** Integer client metadata values accepted and stored as integers (else 400). */
  integerMetadata: boolean;
  /** account_number answered as `****1234`. */
  mask: boolean;
  /** A masked account_number sent back: refused (400) or stored as sent. */
  maskWriteBack: 'refuse' | 'store';
  /** A change of the wire moves the status to PENDING; the client cannot set the status. */
  review: boolean;
  /** The instructions' metadata in a body: ignored (the server's) or applied as the client metadata is (but integers always allowed, never cleared by replace). */
  instructionMetadata: 'ignore' | 'store';
}

export const DEFAULT_RULES: UpdateRules = {
  update: 'patch',
  metadata: 'replace',
  metadataDelete: 'none',
  blanks: 'ignore',
  integerMetadata: false,
  mask: false,
  maskWriteBack: 'refuse',
  review: false,
  instructionMetadata: 'ignore',
};

export const METADATA_MAX_PAIRS = 6;
export const METADATA_MAX_LENGTH = 100;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Characters as the document counts them: code points. */
const codePoints = (s: string) => [...s].length;

/** The wire instructions of the sample (section 2.2), with an account number of the caller's. */
export function sampleWire(accountNumber = '000123456789'): JsonObject {
  const address = (address1: string, city: string, province: string, zip: string) => ({
    country: 'USA',
    address1,
    address2: '',
    city,
    province,
    zip_code: zip,
  });
  return {
    account_number: accountNumber,
    fiat_account_owner_address: address('1 Main Street', 'Springfield', 'IL', '62701'),
    routing_details: {
      routing_number_type: 'ABA',
      routing_number: '021000021',
      bank_name: 'Example Bank',
      bank_address: address('100 Bank Plaza', 'New York', 'NY', '10001'),
    },
  };
}

/** `****` and the last four digits, as sandboxes that hide account numbers answer them. */
export const masked = (accountNumber: string): string => `****${accountNumber.slice(-4)}`;
const looksMasked = (value: string) => value.includes('*');

/** Two JSON values alike whatever the order of their keys. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && sameJson(a[k], b[k]));
  }
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => sameJson(v, b[i]));
  return a === b;
}

/** The account as the sandbox answers it: `sample` places status and instructions as the document's sample does, `top` at the top level. */
export function render(account: SandboxAccount, placement: 'sample' | 'top', mask: boolean): JsonObject {
  const wire = account.wire && structuredClone(account.wire);
  if (wire && mask && typeof wire.account_number === 'string') wire.account_number = masked(wire.account_number);
  const names: JsonObject = {};
  if (account.first_name !== undefined) names.first_name = account.first_name;
  if (account.last_name !== undefined) names.last_name = account.last_name;
  const person: JsonObject = Object.keys(names).length ? { person_details: names } : {};
  const instructions: JsonObject = { ...(wire ? { wire } : {}) };
  const head = { id: account.id, created_at: account.created_at, updated_at: account.updated_at };
  if (placement === 'sample')
    return {
      ...head,
      metadata: { ...account.metadata },
      fiat_account_owner: { ...person, fiat_network_instructions: { ...instructions, status: account.status, metadata: { ...account.instruction_metadata } } },
    };
  return {
    ...head,
    status: account.status,
    metadata: { ...account.metadata },
    fiat_network_instructions: { ...instructions, metadata: { ...account.instruction_metadata } },
    fiat_account_owner: person,
  };
}

export type UpdateOutcome = { account: SandboxAccount } | { refused: string };

/** A refusal carried out of the checks below. */
class Refusal extends Error {}
const refuse = (message: string): never => {
  throw new Refusal(message);
};

/** What one PUT body does to `stored` under `rules`: the new record (updated_at = `now`), or why it is refused (400). Never changes `stored`. */
export function applyUpdate(stored: SandboxAccount, body: unknown, rules: UpdateRules, now: string): UpdateOutcome {
  try {
    return { account: updated(stored, body, rules, now) };
  } catch (error) {
    if (error instanceof Refusal) return { refused: error.message };
    throw error;
  }
}

function updated(stored: SandboxAccount, body: unknown, rules: UpdateRules, now: string): SandboxAccount {
  if (!isObject(body)) refuse('the body must be a JSON object');
  const b = body as Record<string, unknown>;
  const owner = optionalObject(b.fiat_account_owner, 'fiat_account_owner', rules);
  const person = optionalObject(owner?.person_details, 'fiat_account_owner.person_details', rules);
  // Instructions as section 4.1 sends them, or where the sample's answer places them (a write-back of a read).
  const instructions = [b.fiat_network_instructions, owner?.fiat_network_instructions]
    .map((v, i) => optionalObject(v, i ? 'fiat_account_owner.fiat_network_instructions' : 'fiat_network_instructions', rules))
    .filter((v) => v !== undefined);
  const next: SandboxAccount = structuredClone(stored);
  next.updated_at = now;

  for (const name of ['first_name', 'last_name'] as const) {
    const sent = text(person?.[name], `fiat_account_owner.person_details.${name}`, rules);
    if (sent !== undefined) next[name] = sent;
    else if (rules.update === 'replace') delete next[name];
  }

  const sentWires = instructions.map((i) => i.wire).filter((w) => w !== undefined && !(w === null && rules.blanks === 'ignore'));
  for (const wire of sentWires) checkWire(wire, rules);
  const wire = sentWires.map((w) => withoutBlanks(w as JsonObject, rules)).reduce<JsonObject | undefined>((a, w) => deepMerge(a ?? {}, w), undefined);
  if (rules.update === 'replace') next.wire = wire && Object.keys(wire).length ? wire : undefined;
  else if (wire) next.wire = deepMerge(next.wire ?? {}, wire);
  if (next.wire === undefined) delete next.wire;

  const sentStatus = [b.status, ...instructions.map((i) => i.status)]
    .map((s, i) => text(s, i ? 'fiat_network_instructions.status' : 'status', rules))
    .find(Boolean);
  if (sentStatus !== undefined && !FIAT_STATUSES.includes(sentStatus as FiatStatus)) refuse(`status must be one of ${FIAT_STATUSES.join(', ')}`);
  if (!rules.review && sentStatus) next.status = sentStatus as FiatStatus;
  if (rules.review && !sameJson(stored.wire, next.wire)) next.status = 'PENDING';

  next.metadata = nextMetadata(stored.metadata, b.metadata, 'metadata', rules, rules.integerMetadata, rules.update === 'replace');
  if (rules.instructionMetadata === 'store')
    for (const i of instructions)
      next.instruction_metadata = nextMetadata(next.instruction_metadata, i.metadata, 'fiat_network_instructions.metadata', rules, true, false);
  return next;
}

/** An object, or undefined when absent (or null, with blanks ignored); anything else is refused. */
function optionalObject(value: unknown, field: string, rules: UpdateRules): Record<string, unknown> | undefined {
  if (value === undefined || (value === null && rules.blanks === 'ignore')) return undefined;
  if (!isObject(value)) refuse(`${field} must be an object`);
  return value as Record<string, unknown>;
}

/** A text field: its value, or undefined when absent or blank (with blanks ignored); anything else is refused. */
function text(value: unknown, field: string, rules: UpdateRules): string | undefined {
  if (value === undefined) return undefined;
  if (rules.blanks === 'ignore' && (value === null || value === '')) return undefined;
  if (typeof value !== 'string') return refuse(`${field} must be a string`);
  return value;
}

/** Wire instructions: an object whose leaves are strings (nulls too, with blanks ignored); a masked account number as the rules say. */
function checkWire(wire: unknown, rules: UpdateRules): void {
  const tree = (v: unknown, at: string): void => {
    if (typeof v === 'string' || (v === null && rules.blanks === 'ignore')) return;
    if (!isObject(v)) refuse(`${at} must be ${at.endsWith('wire') || at.endsWith('_details') || at.endsWith('address') ? 'an object' : 'a string'}`);
    for (const [k, child] of Object.entries(v as Record<string, unknown>)) tree(child, `${at}.${k}`);
  };
  if (!isObject(wire)) refuse('fiat_network_instructions.wire must be an object');
  tree(wire, 'fiat_network_instructions.wire');
  const number = (wire as Record<string, unknown>).account_number;
  if (typeof number === 'string' && looksMasked(number) && rules.maskWriteBack === 'refuse')
    refuse('fiat_network_instructions.wire.account_number must hold the full account number, not a masked one');
}

/** `value` without null or empty-string leaves (with blanks ignored), and without objects left empty by that. */
function withoutBlanks(value: JsonObject, rules: UpdateRules): JsonObject {
  if (rules.blanks === 'strict') return structuredClone(value);
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === null || v === '') continue;
    if (isObject(v)) {
      const inner = withoutBlanks(v as JsonObject, rules);
      if (Object.keys(inner).length) out[k] = inner;
    } else out[k] = v;
  }
  return out;
}

/** `patch` laid over `base`, object by object. */
function deepMerge(base: JsonObject, patch: JsonObject): JsonObject {
  const out: JsonObject = structuredClone(base);
  for (const [k, v] of Object.entries(patch)) out[k] = isObject(v) && isObject(out[k]) ? deepMerge(out[k] as JsonObject, v as JsonObject) : structuredClone(v);
  return out;
}

/**
 * The metadata after an update sent `value` at `field`: limits of section 8 on what was sent (6
 * pairs, keys and values of 100 code points), then replace or merge, deletes as the rules allow,
 * and the merged result again within 6 pairs.
 */
function nextMetadata(stored: Metadata, value: unknown, field: string, rules: UpdateRules, integers: boolean, clearWhenAbsent: boolean): Metadata {
  if (value === undefined || (value === null && rules.blanks === 'ignore')) return clearWhenAbsent ? {} : { ...stored };
  if (!isObject(value)) return refuse(`${field} must be an object`);
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > METADATA_MAX_PAIRS) refuse(`${field} holds ${entries.length} pairs; at most ${METADATA_MAX_PAIRS}`);
  const nullDeletes = rules.metadata === 'merge' && rules.metadataDelete === 'null-value';
  const sent: Metadata = {};
  const deleted: string[] = [];
  for (const [k, v] of entries) {
    if (codePoints(k) > METADATA_MAX_LENGTH) refuse(`${field} key of ${codePoints(k)} characters; at most ${METADATA_MAX_LENGTH}`);
    if (v === null && nullDeletes) deleted.push(k);
    else if (rules.blanks === 'ignore' && (v === null || v === '')) continue;
    else if (typeof v === 'string') {
      if (codePoints(v) > METADATA_MAX_LENGTH) refuse(`${field} value of ${codePoints(v)} characters; at most ${METADATA_MAX_LENGTH}`);
      sent[k] = v;
    } else if (typeof v === 'number' && Number.isInteger(v) && integers) sent[k] = v;
    else refuse(`${field} values must be strings${integers ? ' or integers' : ''}`);
  }
  if (rules.metadata === 'replace') return sent;
  if (rules.metadataDelete === 'empty-object' && entries.length === 0) return {};
  const merged: Metadata = { ...stored, ...sent };
  for (const k of deleted) delete merged[k];
  if (Object.keys(merged).length > METADATA_MAX_PAIRS) refuse(`metadata would exceed ${METADATA_MAX_PAIRS} pairs`);
  return merged;
}
