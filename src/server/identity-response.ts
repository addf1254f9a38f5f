/** The Identity a create answers with (2.5, 2.6), built from the request as the sample shows it. */
import { randomUUID } from 'node:crypto';
import { isPlainObject } from './json-body.ts';

type Json = Record<string, unknown>;

/** Request fields that come back as sent (2.5). */
const ECHOED = ['tax_details', 'tax_details_not_required', 'metadata', 'ref_id', 'customer_due_diligence', 'institution_details', 'institution_members'];

/** A fresh Identity for a valid create request. */
export function identityResponse(request: Json, now: Date = new Date()): Json {
  const timestamp = now.toISOString();
  const person = request.person_details;
  return {
    id: randomUUID(),
    type: person !== undefined && request.institution_details === undefined ? 'PERSON' : 'INSTITUTION',
    status: 'PENDING',
    status_details: 'PENDING',
    summary_status: 'PENDING',
    user_disabled: false,
    admin_disabled: false,
    is_merchant: request.is_merchant ?? false,
    ...Object.fromEntries(ECHOED.filter((key) => request[key] !== undefined).map((key) => [key, structuredClone(request[key])])),
    summary_tin_verification_status: 'TIN_VERIFICATION_PENDING',
    created_at: timestamp,
    updated_at: timestamp,
    ...(person !== undefined ? { person_details: isPlainObject(person) ? personDetailsResponse(person) : structuredClone(person) } : {}),
  };
}

/**
 * Everything sent, with date_of_birth as midnight UTC, govt_id/govt_id_type mirroring
 * cip_id/cip_id_type, the sample's verification statuses, and the sample's misspelled key.
 */
function personDetailsResponse(sent: Json): Json {
  const dateOfBirth = sent.date_of_birth;
  return {
    ...structuredClone(sent),
    ...(typeof dateOfBirth === 'string' ? { date_of_birth: `${dateOfBirth}T00:00:00Z` } : {}),
    ...(sent.cip_id !== undefined ? { govt_id: sent.cip_id } : {}),
    ...(sent.cip_id_type !== undefined ? { govt_id_type: sent.cip_id_type } : {}),
    id_verification_status: 'APPROVED',
    sanctions_verification_status: 'PENDING',
    additional_screening_status: 'PENDING',
    // The sample response carries this key, trailing apostrophe included (2.6); clients ignore it.
    ...(sent.passthrough_verifier_type !== undefined ? { "passthrough_verifier_type'": sent.passthrough_verifier_type } : {}),
  };
}
