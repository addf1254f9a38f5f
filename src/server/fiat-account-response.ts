/** The FiatAccount an update answers with (2.1), with status and metadata placed per the reading. */
import type { FiatAccountRecord } from './fiat-account-store.ts';
import type { Reading } from './reading.ts';

/** Review status of an account's instructions; transitions are not shown, so it stays PENDING. */
const REVIEW_STATUS = 'PENDING';

/**
 * A fresh object (callers may change it). `nested` is the sample's shape: status and metadata
 * inside fiat_account_owner.fiat_network_instructions next to the wire object, nothing at the top
 * level. `top` puts them at the top level beside a top-level fiat_network_instructions; `both` does both.
 */
export function fiatAccountResponse(record: FiatAccountRecord, placement: Reading['placement']): Record<string, unknown> {
  const nested = placement !== 'top';
  const top = placement !== 'nested';
  return {
    id: record.id,
    ...(top ? { fiat_network_instructions: { wire: structuredClone(record.wire) }, status: REVIEW_STATUS, metadata: { ...record.metadata } } : {}),
    created_at: record.created_at,
    updated_at: record.updated_at,
    ref_id: record.ref_id,
    identity_id: record.identity_id,
    fiat_account_owner: {
      person_details: { ...record.owner },
      ...(nested ? { fiat_network_instructions: { wire: structuredClone(record.wire), status: REVIEW_STATUS, metadata: { ...record.metadata } } } : {}),
    },
  };
}
