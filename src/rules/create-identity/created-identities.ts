/**
 * The identities a run created, by ref_id: the memory behind two judgements that no single
 * exchange can make. Different ref_ids must give different identities (id.distinct-identities),
 * and the ref_id scenarios repeat ref_ids sent earlier in the run, not only the last one.
 *
 * A long run creates tens of thousands of identities: every identity id is kept (as a digest,
 * src/core/digest-table.ts) to tell them apart, but what a create sent is kept only for the
 * first and the latest few, enough for the scenarios to repeat an old create and their own.
 */
import { createHash } from 'node:crypto';
import type { Exchange } from '../../core/exchange.ts';
import { DigestTable } from '../../core/digest-table.ts';
import { cutText } from '../../core/cut-text.ts';
import type { Problem } from '../check.ts';
import { is2xx, isObject } from '../checks/exchange-facts.ts';
import { identityData } from './identity-data.ts';

export interface CreatedIdentity {
  refId: string;
  /** The identity id the target answered (cut for display when it is absurdly long). */
  id: string;
  /** The id as compared: see idKey. */
  key: string;
  /** The body the create sent, so that it can be sent again. */
  body: unknown;
  /** The created_at the create answered, when it answered one as text. */
  createdAt?: string;
  /** What the first answer showed of the identity's data (identity-data.ts): a repeat must show the same. */
  data: Record<string, unknown>;
  /** When the create was sent (ms since the epoch), when known: --lifetime repeats it that long after. */
  seenAt?: number;
}

/** Identities kept whole from the start of the run, and the latest ones. */
const KEEP_FIRST = 16;
const KEEP_LATEST = 16;
/** Longer ids (a hostile target's) are kept as a digest and shown cut. */
const LONG_ID = 100;

/** The ref_id a create sent, when it sent one as a string. */
export const sentRefId = (e: Exchange): string | undefined => {
  const body = e.testCase.body;
  return isObject(body) && typeof body.ref_id === 'string' ? body.ref_id : undefined;
};

/** The id of the identity a create answered with, when a 2xx carried one. */
export const createdId = (e: Exchange): string | undefined => {
  const body = is2xx(e) && e.response?.json ? e.response.body : undefined;
  return isObject(body) && typeof body.id === 'string' && body.id !== '' ? body.id : undefined;
};

/** An id as compared and kept: itself, or a digest when it is long. */
export const idKey = (id: string): string => (id.length <= LONG_ID ? id : `sha1:${createHash('sha1').update(id).digest('base64')}`);
/** An id as shown in a message. */
export const shownId = (id: string): string => (id.length <= LONG_ID ? id : `${cutText(id, LONG_ID)}… (${id.length} characters)`);

export class CreatedIdentities {
  /** Every identity id seen, numbered; the ref_id that created each, by that number. */
  private readonly ids = new DigestTable();
  private readonly firstRefIds: string[] = [];
  /** ref_ids that created an identity: how many, and the ones kept whole. */
  private created = 0;
  private readonly first: CreatedIdentity[] = [];
  private readonly latest: CreatedIdentity[] = [];

  /**
   * Notes a create and judges id.distinct-identities on it: null when it created nothing with
   * a readable id under a ref_id of its own (a repeat of a used ref_id is its scenario's business).
   */
  observe(e: Exchange): Problem[] | null {
    const c = e.testCase;
    if (c.operation !== 'createIdentity' || c.auth || c.mode === 'invalid' || c.mode === 'duplicate') return null;
    const refId = sentRefId(e);
    const id = createdId(e);
    if (refId === undefined || id === undefined || this.get(refId)) return null;
    this.created += 1;
    const createdAt = isObject(e.response?.body) ? e.response.body.created_at : undefined;
    const data = identityData(e.response?.body);
    const seenAt = Date.parse(e.startedAt);
    this.keep({
      refId,
      id: shownId(id),
      key: idKey(id),
      body: c.body,
      data,
      ...(typeof createdAt === 'string' ? { createdAt } : {}),
      ...(Number.isFinite(seenAt) ? { seenAt } : {}),
    });
    const { id: number, added } = this.ids.add(id);
    if (!added)
      return [
        {
          message: `ref_id ${refId} got identity ${shownId(id)}, already created for ref_id ${this.firstRefIds[number]}`,
          instancePath: '/id',
          kind: 'identity-shared',
          params: { field: '/id', refId, id: shownId(id), firstRefId: this.firstRefIds[number] },
        },
      ];
    this.firstRefIds.push(refId);
    return [];
  }

  /** The identity created for a ref_id, if it is one of those kept whole (the latest always are). */
  get(refId: string): CreatedIdentity | undefined {
    return this.latest.find((c) => c.refId === refId) ?? this.first.find((c) => c.refId === refId);
  }

  /** The identities kept whole, oldest first: the first and the latest of the run. */
  list(): CreatedIdentity[] {
    return [...this.first, ...this.latest];
  }

  /** ref_ids that created an identity with a readable id. */
  get size(): number {
    return this.created;
  }

  /** Different identity ids among them: fewer than `size` when two ref_ids got one identity. */
  get distinctIds(): number {
    return this.ids.size;
  }

  private keep(identity: CreatedIdentity): void {
    if (this.first.length < KEEP_FIRST) this.first.push(identity);
    else {
      this.latest.push(identity);
      if (this.latest.length > KEEP_LATEST) this.latest.shift();
    }
  }
}
