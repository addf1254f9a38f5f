/**
 * Every identity the run created (docs/design.md section 2, "What a run leaves behind"): the
 * document has no delete operation, so whoever keeps the sandbox needs the list. Any 2xx to a
 * request that could create one (a POST, PUT or PATCH on the identities path, whatever the case
 * meant to test) whose body names an identity id counts; an identity answered twice (a repeated
 * ref_id given the same identity back) is one entry. Only a few short strings per identity are
 * kept, so a long run keeps every one.
 */
import type { Exchange } from '../core/exchange.ts';
import { createdId, idKey, sentRefId, shownId } from '../rules/created-identities.ts';
import { isObject } from '../rules/checks/exchange-facts.ts';

/** One identity the run created, as conformance.json `createdIdentities` and created-identities.json list it. */
export interface LedgerEntry {
  /** The identity id the target answered (cut when absurdly long). */
  id: string;
  /** The ref_id the create sent (or, failing that, the one the answer carries). */
  refId?: string;
  /** The run's tag: also in the identity's ref_id and its metadata (`conformance_run`). */
  runTag: string;
  /** created_at as the target answered it. */
  createdAt?: string;
}

/** Methods that may create on the identities path: a GET lists, OPTIONS and DELETE create nothing. */
const CREATING = new Set(['POST', 'PUT', 'PATCH']);

export class IdentityLedger {
  private readonly byId = new Map<string, LedgerEntry>();

  constructor(private readonly runTag: string) {}

  /** Notes the identity an exchange created, if it created one. */
  observe(e: Exchange): void {
    if (e.testCase.operation !== 'createIdentity' || !CREATING.has(e.request.method.toUpperCase())) return;
    const id = createdId(e);
    // A hostile target's huge id is kept as a digest.
    const key = id === undefined ? undefined : idKey(id);
    if (id === undefined || key === undefined || this.byId.has(key)) return;
    const body = e.response?.body as Record<string, unknown>;
    const refId = sentRefId(e) ?? (typeof body.ref_id === 'string' ? body.ref_id : undefined);
    const createdAt = isObject(body) && typeof body.created_at === 'string' ? body.created_at : undefined;
    this.byId.set(key, { id: shownId(id), ...(refId !== undefined ? { refId } : {}), runTag: this.runTag, ...(createdAt ? { createdAt } : {}) });
  }

  /** The identities created, in the order their answers came. */
  list(): LedgerEntry[] {
    return [...this.byId.values()];
  }
}
