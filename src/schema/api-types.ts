// generated from schemas/ by npm run generate-types; do not edit.
// The request and response bodies of the API document's two operations (see OperationBodies).

/**
 * FiatAccount (response of the update). Section 2.1 with its shape note: status and metadata may sit at the top level or inside fiat_network_instructions (top level or inside fiat_account_owner); fiat_network_instructions is required at the top level or inside fiat_account_owner; status must be present in at least one place and holds PENDING, APPROVED or REJECTED wherever it is. The object stays open: unlisted fields are tolerated and reported as undocumented. The placement conditions live in $defs, referenced by '#/$defs/...', so that they never read as the list of documented properties. x-rule names the rule of the catalogue that owns the errors of a subschema; the errors of untagged subschemas belong to fa.response.schema.
 */
export type FiatAccount = FiatAccountRequiredFields &
  (FiatAccountInstructionsAtTopLevel | FiatAccountInstructionsInOwner) &
  (FiatAccountStatusAtTopLevel | FiatAccountStatusInTopLevelInstructions | FiatAccountStatusInOwnerInstructions) &
  FiatAccountStatusValuesInInstructions &
  FiatAccount1;
export type FiatAccountStatus = "PENDING" | "APPROVED" | "REJECTED";
/**
 * Identity (response of the creation). Section 2.5. Only id is required. The sample's summary_status is deliberately not listed: it is tolerated and reported as undocumented. Contents of institution_details, institution_members and customer_due_diligence are not shown: any object. x-rule names the rule of the catalogue that owns the errors of a subschema (the required id sits in $defs so that its tag is its own); the errors of untagged subschemas belong to id.response.schema.
 */
export type Identity = IdentityIdRequired & Identity1;
export type IdentityStatus = "PENDING" | "ERROR" | "APPROVED" | "DENIED" | "DISABLED";

/**
 * The request and response body of each operation, by operationId (the OpenAPI export uses the same ids).
 */
export interface OperationBodies {
  updateFiatAccount: {
    request: UpdateFiatAccountRequest;
    response: FiatAccount;
  };
  createIdentity: {
    request: CreateIdentityRequest;
    response: Identity;
  };
}
/**
 * Update a fiat account: request body (PUT /v2/transfer/fiat-accounts/{id}). Section 4.1: every field optional. metadata: at most 6 pairs, keys and values at most 100 characters (section 8).
 */
export interface UpdateFiatAccountRequest {
  fiat_account_owner?: FiatAccountOwner;
  fiat_network_instructions?: FiatNetworkInstructions;
  metadata?: FiatAccountMetadata;
  [k: string]: unknown;
}
/**
 * fiat_account_owner. Section 2.3: person_details, and in responses fiat_network_instructions.
 */
export interface FiatAccountOwner {
  person_details?: FiatAccountPersonDetails;
  fiat_network_instructions?: FiatNetworkInstructions;
  [k: string]: unknown;
}
/**
 * fiat_account_owner.person_details. Section 2.3: first_name and last_name, strings.
 */
export interface FiatAccountPersonDetails {
  first_name?: string;
  last_name?: string;
  [k: string]: unknown;
}
/**
 * fiat_network_instructions. Section 2.2 (shape seen in the sample). status is a string here, as 2.2 lists it; the FiatAccount response adds the 2.1 enum wherever status sits, and a status that is not a string is that enum rule's finding (x-rule; the tag is inert where the update request carries fiat_network_instructions). metadata keeps the section 8 limits and also allows integers (the sample's attempt counter).
 */
export interface FiatNetworkInstructions {
  wire?: Wire;
  status?: string;
  metadata?: FiatAccountResponseMetadata;
  [k: string]: unknown;
}
/**
 * fiat_network_instructions.wire. Section 2.2: wire instructions, the only instruction kind the document shows.
 */
export interface Wire {
  account_number?: string;
  fiat_account_owner_address?: Address;
  routing_details?: RoutingDetails;
  [k: string]: unknown;
}
/**
 * Address (fiat account, also person_details.address). Section 2.4: all fields are strings; country is a three-letter code in the sample (not enforced: the text does not require it); address2 may be empty. No field is marked required.
 */
export interface Address {
  country?: string;
  address1?: string;
  address2?: string;
  city?: string;
  province?: string;
  zip_code?: string;
  [k: string]: unknown;
}
/**
 * wire.routing_details. Section 2.2. routing_number_type is a plain string: the sample uses ABA and the full list of values is not shown.
 */
export interface RoutingDetails {
  routing_number_type?: string;
  routing_number?: string;
  bank_name?: string;
  bank_address?: Address;
  [k: string]: unknown;
}
/**
 * Fiat account metadata as a response carries it. Sections 2.1, 2.2 and 8: the limits of the client pairs (at most 6, keys and values at most 100 characters), and integer values too: the sample's metadata holds an integer attempt counter, and the shape note lets metadata sit at the top level or inside fiat_network_instructions, so either place may carry it. The limits sit in allOf members of their own, tagged with the rule fa.response.metadata-limits (x-rule), so that a wrong type and an exceeded limit are told apart; the tag is inert where the update request carries fiat_network_instructions.
 */
export interface FiatAccountResponseMetadata {
  [k: string]: string | number;
}
/**
 * Fiat account metadata (client key/value pairs). Sections 2.1, 4.1 and 8: at most 6 pairs; each key and each value at most 100 characters. Characters are Unicode code points (Ajv's maxLength counts code points). Values are strings: the client-specified pairs of a request (a response may also carry integers: fiat-account-response-metadata).
 */
export interface FiatAccountMetadata {
  [k: string]: string;
}
export interface FiatAccountRequiredFields {
  id: unknown;
  created_at: unknown;
  [k: string]: unknown;
}
export interface FiatAccountInstructionsAtTopLevel {
  fiat_network_instructions: unknown;
  [k: string]: unknown;
}
export interface FiatAccountInstructionsInOwner {
  fiat_account_owner: {
    fiat_network_instructions: unknown;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
export interface FiatAccountStatusAtTopLevel {
  status: unknown;
  [k: string]: unknown;
}
export interface FiatAccountStatusInTopLevelInstructions {
  fiat_network_instructions: {
    status: unknown;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
export interface FiatAccountStatusInOwnerInstructions {
  fiat_account_owner: {
    fiat_network_instructions: {
      status: unknown;
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
export interface FiatAccountStatusValuesInInstructions {
  fiat_network_instructions?: {
    status?: FiatAccountStatus;
    [k: string]: unknown;
  };
  fiat_account_owner?: {
    fiat_network_instructions?: {
      status?: FiatAccountStatus;
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
export interface FiatAccount1 {
  id?: string;
  fiat_network_instructions?: FiatNetworkInstructions;
  status?: FiatAccountStatus;
  created_at?: string;
  ref_id?: string;
  identity_id?: string;
  account_id?: string;
  fiat_account_owner?: FiatAccountOwner;
  metadata?: FiatAccountResponseMetadata;
  updated_at?: string;
  [k: string]: unknown;
}
/**
 * Create an identity: request body (POST /v2/identity/identities). Section 4.2. The tax rule: tax_details must be set unless tax_details_not_required is true. Reading: 'set' means present; an empty array counts as set (the harness does not judge what an empty list means). Contents of institution_details, institution_members and customer_due_diligence are not shown: any object.
 */
export interface CreateIdentityRequest {
  person_details?: IdentityPersonDetailsRequest;
  metadata?: {
    [k: string]: unknown;
  };
  ref_id?: string;
  institution_details?: {
    [k: string]: unknown;
  };
  institution_members?: {
    [k: string]: unknown;
  }[];
  tax_details?: TaxDetail[];
  tax_details_not_required?: boolean;
  customer_due_diligence?: {
    [k: string]: unknown;
  };
  is_merchant?: boolean;
  [k: string]: unknown;
}
/**
 * person_details as sent on identity creation. Section 2.6, request side: date_of_birth is a date (YYYY-MM-DD). verifier_type, passthrough_verifier_type and cip_id_type are plain strings: their allowed values are not shown. email, phone_number and the country codes are plain strings too: the document states no format for them (email shows only the placeholder <EMAIL>). No field is marked required.
 */
export interface IdentityPersonDetailsRequest {
  verifier_type?: string;
  passthrough_verifier_type?: string;
  passthrough_verified_at?: string;
  first_name?: string;
  last_name?: string;
  date_of_birth?: string;
  phone_number?: string;
  email?: string;
  cip_id?: string;
  cip_id_type?: string;
  cip_id_country?: string;
  nationality?: string;
  address?: Address;
  metadata?: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * tax_details entry. Sections 2.5 and 4.2: each entry holds tax_payer_country and tax_payer_id, strings. Neither is marked required.
 */
export interface TaxDetail {
  tax_payer_country?: string;
  tax_payer_id?: string;
  [k: string]: unknown;
}
export interface IdentityIdRequired {
  id: unknown;
  [k: string]: unknown;
}
export interface Identity1 {
  id?: string;
  status?: IdentityStatus;
  status_details?: IdentityStatus;
  user_disabled?: boolean;
  admin_disabled?: boolean;
  type?: "PERSON" | "INSTITUTION";
  person_details?: IdentityPersonDetails;
  metadata?: {
    [k: string]: unknown;
  };
  ref_id?: string;
  institution_details?: {
    [k: string]: unknown;
  };
  institution_members?: {
    [k: string]: unknown;
  }[];
  created_at?: string;
  updated_at?: string;
  tax_details?: TaxDetail[];
  tax_details_not_required?: boolean;
  summary_tin_verification_status?: "TIN_VERIFICATION_PENDING" | "TIN_VERIFICATION_ERROR" | "TIN_VERIFICATION_VALID";
  customer_due_diligence?: {
    [k: string]: unknown;
  };
  is_merchant?: boolean;
  last_kyc_refresh_date?: string;
  [k: string]: unknown;
}
/**
 * person_details as returned in an Identity. Section 2.6, response side: the fields sent, date_of_birth as a timestamp at midnight UTC, and the returned-only screening statuses and govt_id/govt_id_type. The statuses are plain strings (their values are not shown); so are email, phone_number and the country codes (no format is stated: email shows only the placeholder <EMAIL>), judged against what was sent by id.person-details.returned. The sample's misspelled key passthrough_verifier_type' is deliberately not listed: it is tolerated and reported as undocumented.
 */
export interface IdentityPersonDetails {
  verifier_type?: string;
  passthrough_verifier_type?: string;
  passthrough_verified_at?: string;
  first_name?: string;
  last_name?: string;
  /**
   * Midnight UTC of the date sent: T00:00:00, an optional all-zero fraction, and a zero offset (Z or +00:00; -00:00 and lower case as RFC 3339 allows).
   */
  date_of_birth?: string;
  phone_number?: string;
  email?: string;
  cip_id?: string;
  cip_id_type?: string;
  cip_id_country?: string;
  nationality?: string;
  address?: Address;
  metadata?: {
    [k: string]: unknown;
  };
  additional_screening_status?: string;
  id_verification_status?: string;
  sanctions_verification_status?: string;
  govt_id?: string;
  govt_id_type?: string;
  [k: string]: unknown;
}
