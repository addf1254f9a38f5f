/** The fiat accounts the embedded server holds: seeded at start, changed only by updates (4.1). */
import { randomUUID } from 'node:crypto';
import { isPlainObject } from './json-body.ts';

type Json = Record<string, unknown>;

export interface FiatAccountRecord {
  id: string;
  ref_id: string;
  identity_id: string;
  /** RFC 3339 UTC timestamps. */
  created_at: string;
  updated_at: string;
  /** Owner names; null only when a fault wrote a null the update sent. */
  owner: { first_name: string | null; last_name: string | null };
  /** fiat_network_instructions.wire (2.2). */
  wire: Json;
  /** The client's metadata pairs, exactly as stored. */
  metadata: Json;
}

/** Seeded accounts were created this long before the server started (so any clock skew keeps updates after creation). */
const SEED_AGE_MS = 30 * 24 * 60 * 60 * 1000;
const OWNERS = [
  { first_name: 'Ada', last_name: 'Lovelace' },
  { first_name: 'Grace', last_name: 'Hopper' },
  { first_name: 'Alan', last_name: 'Turing' },
  { first_name: 'Emmy', last_name: 'Noether' },
];

/** A US wire account shaped like the document's sample (2.2, 2.4). */
function sampleWire(index: number): Json {
  return {
    account_number: String(1000000000 + index * 7919),
    fiat_account_owner_address: {
      country: 'USA',
      address1: `${100 + index} Main Street`,
      address2: '',
      city: 'Springfield',
      province: 'IL',
      zip_code: '62701',
    },
    routing_details: {
      routing_number_type: 'ABA',
      routing_number: '021000021',
      bank_name: 'Example National Bank',
      bank_address: { country: 'USA', address1: '1 Bank Plaza', address2: '', city: 'New York', province: 'NY', zip_code: '10001' },
    },
  };
}

/** The accounts the server starts with: made a month ago a minute apart, or `atStart` all at `now` (a sandbox made fresh). */
export function seedFiatAccounts(count: number, now: number = Date.now(), atStart = false): FiatAccountRecord[] {
  return Array.from({ length: count }, (_, i) => {
    const created = new Date(atStart ? now : now - SEED_AGE_MS + i * 60_000).toISOString();
    return {
      id: randomUUID(),
      ref_id: `seed-account-${i + 1}`,
      identity_id: randomUUID(),
      created_at: created,
      updated_at: created,
      owner: { ...OWNERS[i % OWNERS.length] },
      wire: sampleWire(i),
      metadata: {},
    };
  });
}

/**
 * `patch` laid over `base`, objects merged key by key. Built with Object.fromEntries so a
 * "__proto__" key in a request stays a plain key and never reaches a prototype.
 */
export function mergeObjects(base: Json, patch: Json): Json {
  const merge = (prior: unknown, value: unknown) => (isPlainObject(prior) && isPlainObject(value) ? mergeObjects(prior, value) : value);
  return Object.fromEntries([
    ...Object.entries(base).map(([key, prior]) => [key, Object.hasOwn(patch, key) ? merge(prior, patch[key]) : prior]),
    ...Object.entries(patch).filter(([key]) => !Object.hasOwn(base, key)),
  ]);
}
