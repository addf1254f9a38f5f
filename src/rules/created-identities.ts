/**
 * The identities a run created, by ref_id: the memory behind two judgements that no single
 * exchange can make. Different ref_ids must give different identities (id.distinct-identities),
 * and the ref_id scenarios repeat ref_ids sent earlier in the run, not only the last one.
 */
import type { Exchange } from '../core/exchange.ts';
import type { Problem } from './check.ts';
import { is2xx, isObject } from './checks/exchange-facts.ts';

export interface CreatedIdentity {
  refId: string;
  id: string;
  exchange: Exchange;
}

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

export class CreatedIdentities {
  private readonly byRefId = new Map<string, CreatedIdentity>();
  private readonly byId = new Map<string, CreatedIdentity>();

  /**
   * Notes a create and judges id.distinct-identities on it: null when it created nothing with
   * a readable id under a ref_id of its own (a repeat of a used ref_id is its scenario's business).
   */
  observe(e: Exchange): Problem[] | null {
    const c = e.testCase;
    if (c.operation !== 'createIdentity' || c.auth || c.mode === 'invalid' || c.mode === 'duplicate') return null;
    const refId = sentRefId(e);
    const id = createdId(e);
    if (refId === undefined || id === undefined || this.byRefId.has(refId)) return null;
    const created = { refId, id, exchange: e };
    this.byRefId.set(refId, created);
    const earlier = this.byId.get(id);
    if (earlier) return [{ message: `ref_id ${refId} got identity ${id}, already created for ref_id ${earlier.refId}`, instancePath: '/id' }];
    this.byId.set(id, created);
    return [];
  }

  /** The identity created for a ref_id, if any. */
  get(refId: string): CreatedIdentity | undefined {
    return this.byRefId.get(refId);
  }

  /** Every identity created so far, oldest first. */
  list(): CreatedIdentity[] {
    return [...this.byRefId.values()];
  }
}
