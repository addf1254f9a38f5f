/**
 * Every identity the run may have left on the target (docs/design.md section 2, "What a run
 * leaves behind"): the document has no delete operation, so whoever keeps the sandbox needs the
 * list. Any 2xx to a request that could create one (a POST, PUT or PATCH on the identities path,
 * whatever the case meant to test) whose body names an identity id is a created entry; an
 * identity answered twice (a repeated ref_id given the same identity back) is one entry.
 *
 * A create whose answer was lost (a timeout, a reset, a 5xx that may have come after storing, an
 * answer over the body cap, one given up after an interrupt, a 2xx naming no id) may have created
 * one too: it is an unknown entry under the ref_id it sent, until a later answer for that ref_id
 * names the identity (the scenarios repeat ref_ids). A refusal (4xx, a 429 waited out in vain)
 * created nothing: the document's reading of a refused request. Only a few short strings per
 * identity are kept, so a long run keeps every one.
 */
import type { Exchange } from '../core/exchange.ts';
import { createdId, idKey, sentRefId, shownId } from '../rules/create-identity/created-identities.ts';
import { isObject } from '../rules/checks/exchange-facts.ts';

/** An identity the run created: the target answered its id. */
export interface CreatedLedgerEntry {
  /** Always written since report 1.10.0; a report before it lists created identities only. */
  outcome?: 'created';
  /** The identity id the target answered (cut when absurdly long). */
  id: string;
  /** The ref_id the create sent (or, failing that, the one the answer carries). */
  refId?: string;
  /** The run's tag: also in the identity's ref_id and its metadata (`conformance_run`). */
  runTag: string;
  /** created_at as the target answered it. */
  createdAt?: string;
}

/** Why a create's answer does not say whether it created an identity. */
export type LostAnswer = 'timeout' | 'connection' | 'server-error' | 'too-large' | 'no-id' | 'interrupted' | 'other';

/** A create that may have created an identity: its answer was lost, so no id is known (since report 1.10.0). */
export interface UnknownLedgerEntry {
  outcome: 'unknown';
  /** The ref_id the create sent: a sandbox search by it finds the identity, if there is one. */
  refId?: string;
  runTag: string;
  why: LostAnswer;
  /** When the create was sent. */
  sentAt: string;
}

/** One entry of conformance.json `createdIdentities` and created-identities.json. */
export type LedgerEntry = CreatedLedgerEntry | UnknownLedgerEntry;

/** Methods that may create on the identities path: a GET lists, OPTIONS and DELETE create nothing. */
const CREATING = new Set(['POST', 'PUT', 'PATCH']);

/** Why an exchange that named no identity may still have created one; undefined when it created nothing. */
export function lostAnswer(e: Exchange): LostAnswer | undefined {
  if (e.error) {
    if (e.error.kind === 'rate-limited') return undefined;
    if (e.error.kind === 'timeout' || e.error.kind === 'connection') return e.error.kind;
    return /interrupted/.test(e.error.message) ? 'interrupted' : 'other';
  }
  const status = e.response?.status;
  if (status === undefined) return 'other';
  if (e.response?.truncated) return 'too-large';
  if (status >= 500) return 'server-error';
  return status >= 200 && status < 300 ? 'no-id' : undefined;
}

export class IdentityLedger {
  /** Entries in the order their answers came: created ones by `id:` + id key, unknown ones by `ref:` + ref_id (or `sent:` + a number). */
  private readonly entries = new Map<string, LedgerEntry>();
  /** ref_ids an answer named an identity for: a lost answer to a repeat of one adds nothing. */
  private readonly createdRefIds = new Set<string>();
  private unknownWithoutRefId = 0;

  constructor(private readonly runTag: string) {}

  /** Notes the identity an exchange created, or may have created. */
  observe(e: Exchange): void {
    if (e.testCase.operation !== 'createIdentity' || !CREATING.has(e.request.method.toUpperCase())) return;
    const id = createdId(e);
    if (id === undefined) {
      this.observeLost(e);
      return;
    }
    const body = e.response?.body as Record<string, unknown>;
    const refId = sentRefId(e) ?? (typeof body.ref_id === 'string' ? body.ref_id : undefined);
    if (refId !== undefined) {
      this.createdRefIds.add(refId);
      // The identity a lost answer left unknown, named at last.
      this.entries.delete(`ref:${refId}`);
    }
    // A hostile target's huge id is kept as a digest.
    const key = `id:${idKey(id)}`;
    if (this.entries.has(key)) return;
    const createdAt = isObject(body) && typeof body.created_at === 'string' ? body.created_at : undefined;
    this.entries.set(key, {
      outcome: 'created',
      id: shownId(id),
      ...(refId !== undefined ? { refId } : {}),
      runTag: this.runTag,
      ...(createdAt ? { createdAt } : {}),
    });
  }

  /** Every identity that may exist, in the order the answers came: the created ones and the unknown ones. */
  list(): LedgerEntry[] {
    return [...this.entries.values()];
  }

  private observeLost(e: Exchange): void {
    const why = lostAnswer(e);
    const refId = sentRefId(e);
    if (why === undefined || (refId !== undefined && this.createdRefIds.has(refId))) return;
    const key = refId !== undefined ? `ref:${refId}` : `sent:${++this.unknownWithoutRefId}`;
    if (this.entries.has(key)) return;
    this.entries.set(key, { outcome: 'unknown', ...(refId !== undefined ? { refId } : {}), runTag: this.runTag, why, sentAt: e.startedAt });
  }
}
