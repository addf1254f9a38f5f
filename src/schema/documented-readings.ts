/**
 * The deliberate readings of the API document (docs/design.md section 2), as data: where the document
 * is silent or loose, what the harness takes it to mean, and the section the reading rests on.
 * The OpenAPI export attaches each one, as an `x-readings` note, to the parts of the document it
 * concerns, so that a reader of the OpenAPI file knows what the harness judges and what it does not.
 */
import type { Operation } from '../core/operations.ts';

/** Where a reading applies: a component (a schema of schemas/, by registry name), an operation, or the security scheme. */
export type ReadingTarget = { schema: string } | { operation: Operation } | { security: true } | { servers: true };

export interface DocumentedReading {
  /** Stable name of the reading. */
  id: string;
  /** The sections of the API document it rests on. */
  sections: string[];
  /** What the harness takes the document to mean, in one or two sentences. */
  reading: string;
  appliesTo: ReadingTarget[];
}

export const DOCUMENTED_READINGS: readonly DocumentedReading[] = [
  {
    id: 'characters-are-code-points',
    sections: ['2.1', '4.1', '8'],
    reading:
      '"At most 100 characters" counts Unicode code points, not bytes and not UTF-16 code units (JSON Schema maxLength counts code points too): 100 emoji or 100 multi-byte letters are within the limit; a server that counts bytes or UTF-16 units rejects valid input.',
    appliesTo: [{ schema: 'fiat-account-metadata' }, { schema: 'fiat-account-response-metadata' }],
  },
  {
    id: 'metadata-limits-both-ways',
    sections: ['8'],
    reading:
      'The limits of fiat account metadata (at most 6 pairs, keys and values of at most 100 characters) hold for requests and responses alike: 6 pairs and 100 characters are accepted, 7 pairs or 101 characters are rejected.',
    appliesTo: [{ schema: 'fiat-account-metadata' }, { schema: 'fiat-account-response-metadata' }, { operation: 'updateFiatAccount' }],
  },
  {
    id: 'response-metadata-integers',
    sections: ['2.2'],
    reading:
      'Metadata in a response may hold integer values besides strings: the sample carries an integer attempt counter inside fiat_network_instructions.metadata.',
    appliesTo: [{ schema: 'fiat-account-response-metadata' }],
  },
  {
    id: 'status-and-metadata-placements',
    sections: ['2.1'],
    reading:
      'status and metadata may sit at the top level of a FiatAccount or inside fiat_network_instructions, itself at the top level or inside fiat_account_owner (the shape note); both placements are accepted (anyOf). status must be present in at least one place and holds PENDING, APPROVED or REJECTED wherever it is; fiat_network_instructions must be present at the top level or inside fiat_account_owner.',
    appliesTo: [{ schema: 'fiat-account' }],
  },
  {
    id: 'tax-details-empty-array',
    sections: ['4.2'],
    reading:
      'tax_details "must be set" unless tax_details_not_required is true: set means present, so an empty array counts as set and is not judged; tax_details absent while tax_details_not_required is false or absent must be rejected.',
    appliesTo: [{ schema: 'create-identity-request' }, { operation: 'createIdentity' }],
  },
  {
    id: 'ref-id-duplicates',
    sections: ['2.5', '4.2', '8'],
    reading:
      'A second create with a ref_id already used by the same API user must not yield a second identity: a rejection (4xx) and the same identity returned are both conformant. Concurrent duplicates count too.',
    appliesTo: [{ operation: 'createIdentity' }],
  },
  {
    id: 'undocumented-fields-tolerated',
    sections: ['2.5', '2.6'],
    reading:
      "Objects are open: fields the document does not list are tolerated, not failures, and the harness reports them as undocumented. The Identity sample's summary_status and the misspelled key passthrough_verifier_type' (which clients should ignore) are such fields.",
    appliesTo: [{ schema: 'identity' }, { schema: 'identity-person-details' }, { schema: 'fiat-account' }],
  },
  {
    id: 'date-of-birth-midnight-utc',
    sections: ['2.6'],
    reading:
      'date_of_birth is sent as a date (YYYY-MM-DD) and returned as a timestamp at midnight UTC of the same day (any zero offset and an all-zero fraction allowed).',
    appliesTo: [{ schema: 'identity-person-details-request' }, { schema: 'identity-person-details' }],
  },
  {
    id: 'success-status-not-shown',
    sections: ['4', '7'],
    reading: 'Success status codes are not shown: any 2xx is a success (2XX here).',
    appliesTo: [{ operation: 'updateFiatAccount' }, { operation: 'createIdentity' }],
  },
  {
    id: 'errors-not-shown',
    sections: ['7'],
    reading:
      'Error status codes and bodies are not shown: an invalid request must not be accepted (not 2xx) and must not cause a 5xx; a 4xx is expected by convention, and the exact code is reported, not judged.',
    appliesTo: [{ operation: 'updateFiatAccount' }, { operation: 'createIdentity' }],
  },
  {
    id: 'wrong-types-by-convention',
    sections: ['2', '7'],
    reading:
      'The fields are typed but no error is shown: a wrong JSON type is refused by convention, not by the document; the documented rejections are the metadata limits (8) and the tax rule (4.2).',
    appliesTo: [{ operation: 'updateFiatAccount' }, { operation: 'createIdentity' }],
  },
  {
    id: 'update-nulls-open',
    sections: ['4.1', '7'],
    reading:
      "A null or an empty string in an update may be refused or ignored (the field keeps its value; the vendor's OpenAPI ignores both), and an empty string may be stored as text; a null written back is a wrong type in the answer, which the response schema refuses.",
    appliesTo: [{ operation: 'updateFiatAccount' }],
  },
  {
    id: 'fiat-account-ids-from-elsewhere',
    sections: ['4.1'],
    reading:
      'The fiat account id comes from the create operation of fiat accounts, which the document does not cover: the harness updates accounts whose ids the user gives (the embedded server seeds its own). An unknown id giving 404 is a convention.',
    appliesTo: [{ operation: 'updateFiatAccount' }],
  },
  {
    id: 'token-endpoint-not-shown',
    sections: ['5'],
    reading:
      'The service uses OAuth 2 client credentials, but the token endpoint ({auth_url}) and the scopes are not shown: tokenUrl is a placeholder unless the export was given --auth-url, and no scope is listed.',
    appliesTo: [{ security: true }],
  },
  {
    id: 'base-url-not-shown',
    sections: ['4'],
    reading:
      'Paths are appended to {base_url}, which the document does not give: servers is left out (so it defaults to /) unless the export was given --base-url.',
    appliesTo: [{ servers: true }],
  },
];
