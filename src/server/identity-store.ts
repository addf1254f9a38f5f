/**
 * Identities by ref_id, unique per API user (2.5, section 8). Uniqueness holds under concurrent
 * duplicates because the faithful path checks and inserts with no await in between.
 */
import type { ServerBehaviour } from './behaviour.ts';

type Identity = Record<string, unknown>;
type Uniqueness = ServerBehaviour['refIdUniqueness'];

/** How long the racy fault waits between its check and its insert: enough for concurrent duplicates to pass the check. */
export const RACE_WINDOW_MS = 25;

export type CreateOutcome =
  | { created: true; identity: Identity }
  | { created: false; identity: Identity }
  /** The strict variant: the government id is another create's (the id of its identity). */
  | { created: false; govtIdHolder: unknown }
  /** A fault's: the ref_id was kept by a refused create, and no identity holds it. */
  | { created: false; reserved: true };

export class IdentityStore {
  /**
   * Kept as JSON text, parsed again when a ref_id repeats: a long run creates tens of thousands of
   * identities. Only a server that answers a repeat with the first identity keeps it whole; one
   * that refuses the repeat (409) keeps its id, all the refusal names. By owner, then by ref_id:
   * no key string is built per identity.
   */
  private readonly byOwner = new Map<string, Map<string, string>>();
  /** 'last-only': the one ref_id each owner is remembered by. */
  private readonly lastKey = new Map<string, string>();
  /** 'single': the first identity, given to every later create. */
  private first: Identity | undefined;
  /** The strict variant: each government id, the create that holds it (owner and ref_id) and its identity's id. */
  private readonly govtIds = new Map<string, { holder: string | undefined; id: unknown }>();
  private count = 0;
  /** A fault's: ref_ids of refused creates, by owner and ref_id, kept as used. */
  private readonly reserved = new Set<string>();

  /** When each owner's ref_id was stored, for an index that forgets (a fault's `forgetsAfterMs`). */
  private readonly storedAt = new Map<string, number>();

  /**
   * `keepsWhole`: a repeat gets the first identity back (the "same" reading, or a fault that
   * answers with it). The faults' ways of remembering: `forgetsAfterMs`, how long a ref_id stays
   * in the index (forever in the document); `upserts`, a repeat writes its body over the identity.
   */
  constructor(
    private readonly keepsWhole = true,
    private readonly memory: { forgetsAfterMs?: number; upserts?: boolean; now?: () => number } = {},
  ) {}

  /** Number of identities created (repeats that returned an existing one not counted). */
  get size(): number {
    return this.count;
  }

  /** Keeps the ref_id of a refused create as used (a fault: the document's refusal creates nothing). */
  reserve(owner: string, refId: string): void {
    this.reserved.add(`${owner}\u0000${refId}`);
  }

  /**
   * Creates with `build` unless `owner` already used `refId`: then the first identity comes back.
   * `uniqueness` is the server's behaviour: atomic (the document), or a fault's (behaviour.ts).
   * `govtId` (the strict variant) must not be another create's; a repeat of the holder's ref_id
   * is not another create, so the ref_id behaviour decides it.
   */
  async create(owner: string, refId: unknown, build: () => Identity, uniqueness: Uniqueness, govtId?: string): Promise<CreateOutcome> {
    const key = refId === undefined ? undefined : typeof refId === 'string' ? refId : JSON.stringify(refId);
    if (key !== undefined && this.reserved.has(`${owner}\u0000${key}`)) return { created: false, reserved: true };
    const claim = { govtId, holder: key === undefined ? undefined : `${owner}\u0000${key}` };
    if (uniqueness === 'single') {
      // Answered as a create, whatever the ref_id: the client cannot tell it got someone else.
      const taken = this.govtIdTaken(claim);
      if (taken) return taken;
      if (this.first) return { created: true, identity: this.first };
      this.first = build();
      return this.insert(undefined, undefined, this.first, claim);
    }
    if (key === undefined || uniqueness === 'none') return this.govtIdTaken(claim) ?? this.insert(undefined, undefined, build(), claim);
    const identities = this.byOwner.get(owner) ?? new Map<string, string>();
    this.byOwner.set(owner, identities);
    if (uniqueness === 'last-only') {
      const existing = this.lastKey.get(owner) === key ? identities.get(key) : undefined;
      if (existing) return { created: false, identity: JSON.parse(existing) as Identity };
      const taken = this.govtIdTaken(claim);
      if (taken) return taken;
      this.lastKey.set(owner, key);
      return this.insert(identities, key, build(), claim);
    }
    const existing = this.remembered(identities, owner, key);
    if (existing && uniqueness === 'repeat-folds-case') return { created: false, identity: JSON.parse(oldestOfAnyCase(identities, key)) as Identity };
    if (existing)
      return {
        created: false,
        identity: this.memory.upserts ? this.upsert(identities, key, JSON.parse(existing) as Identity, build) : (JSON.parse(existing) as Identity),
      };
    const taken = this.govtIdTaken(claim);
    if (taken) return taken;
    if (uniqueness === 'racy') await new Promise((resolve) => setTimeout(resolve, RACE_WINDOW_MS));
    return this.insert(identities, key, build(), claim);
  }

  /** The identity stored under a ref_id, unless the index forgot it (a fault: it is then stored anew). */
  private remembered(identities: Map<string, string>, owner: string, key: string): string | undefined {
    const { forgetsAfterMs, now = Date.now } = this.memory;
    const at = forgetsAfterMs === undefined ? undefined : this.storedAt.get(`${owner}\u0000${key}`);
    if (at !== undefined && now() - at >= forgetsAfterMs!) return undefined;
    return identities.get(key);
  }

  /** A fault's upsert: the repeat's body over the identity, its id and created_at kept. */
  private upsert(identities: Map<string, string>, key: string, existing: Identity, build: () => Identity): Identity {
    const updated = { ...build(), id: existing.id, created_at: existing.created_at };
    identities.set(key, JSON.stringify(updated));
    return updated;
  }

  /** The refusal when another create holds the government id. */
  private govtIdTaken({ govtId, holder }: Claim): CreateOutcome | undefined {
    const held = govtId === undefined ? undefined : this.govtIds.get(govtId);
    return held && (holder === undefined || held.holder !== holder) ? { created: false, govtIdHolder: held.id } : undefined;
  }

  private insert(identities: Map<string, string> | undefined, key: string | undefined, identity: Identity, claim: Claim): CreateOutcome {
    if (identities && key !== undefined) identities.set(key, JSON.stringify(this.keepsWhole ? identity : { id: identity.id }));
    if (this.memory.forgetsAfterMs !== undefined && claim.holder !== undefined) this.storedAt.set(claim.holder, (this.memory.now ?? Date.now)());
    if (claim.govtId !== undefined && !this.govtIds.has(claim.govtId)) this.govtIds.set(claim.govtId, { holder: claim.holder, id: identity.id });
    this.count += 1;
    return { created: true, identity };
  }
}

/** The fault 'id-ref-id-case-insensitive-repeat': the first identity (in creation order) whose ref_id is `key` in any letter case. */
function oldestOfAnyCase(identities: Map<string, string>, key: string): string {
  const folded = key.toLowerCase();
  for (const [other, identity] of identities) if (other.toLowerCase() === folded) return identity;
  return identities.get(key) as string;
}

/** A create's government id (strict variant only) and who claims it: owner and ref_id, or nobody in particular. */
interface Claim {
  govtId: string | undefined;
  holder: string | undefined;
}
