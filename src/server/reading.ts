/**
 * Readings of the API document: where the document allows more than one behaviour, the embedded
 * server can take each of them, so the harness can prove it accepts every one (no false alarms).
 */
import { UsageError } from '../core/errors.ts';

/** One choice per point the document leaves open (docs/design.md section 2). */
export interface Reading {
  /** Where FiatAccount status and metadata sit (2.1 shape note): nested as the sample, top level, or both. */
  placement: 'nested' | 'top' | 'both';
  /** Status of every validation rejection (section 7 shows no error codes). */
  rejectStatus: 400 | 422;
  /** A used ref_id: 409, or the first identity back with the status of a create (4.2, section 8). */
  duplicateRefId: 'conflict' | 'same';
  /** Status of a created identity (no success code is shown). */
  createdStatus: 200 | 201;
  /** Whether an update's metadata replaces the stored object or is merged into it (4.1). */
  metadataUpdate: 'replace' | 'merge';
  /**
   * Whether a tax_details entry may lack one of its two members (2.5, 4.2 do not mark them
   * required): taken as it is, or refused.
   */
  taxEntryMembers: 'optional' | 'required';
  /**
   * Whether ref_ids differing in letter case only are two ref_ids (their exact text) or one
   * (uniqueness without regard to case): then a used ref_id in another case is refused with 409,
   * under either duplicateRefId, never answered with the other ref_id's identity.
   */
  refIdCase: 'exact' | 'insensitive';
  /**
   * An empty or missing request body (the document says bodies are JSON, section 4): refused as
   * no JSON (400), or taken as {} (an empty update; a create that then lacks tax_details).
   */
  emptyBody: 'refused' | 'empty-object';
  /**
   * A null or an empty string in an update (the document types the fields but never says how a
   * null is answered, section 7): taken as typed (a null is a wrong type, refused; an empty string
   * is text, stored), or ignored, the field left as it was (the vendor's own OpenAPI: "Empty
   * strings or null values are ignored").
   */
  updateNulls: 'as-typed' | 'ignored';
}

/** The sample's shape and the most common HTTP practice. */
export const DEFAULT_READING: Reading = {
  placement: 'nested',
  rejectStatus: 400,
  duplicateRefId: 'conflict',
  createdStatus: 201,
  metadataUpdate: 'replace',
  taxEntryMembers: 'optional',
  refIdCase: 'exact',
  emptyBody: 'refused',
  updateNulls: 'as-typed',
};

/** The default, one reading per single alternative value, and one with every alternative at once. */
export const READINGS: Reading[] = [
  DEFAULT_READING,
  { ...DEFAULT_READING, placement: 'top' },
  { ...DEFAULT_READING, placement: 'both' },
  { ...DEFAULT_READING, rejectStatus: 422 },
  { ...DEFAULT_READING, duplicateRefId: 'same' },
  { ...DEFAULT_READING, createdStatus: 200 },
  { ...DEFAULT_READING, metadataUpdate: 'merge' },
  { ...DEFAULT_READING, taxEntryMembers: 'required' },
  { ...DEFAULT_READING, refIdCase: 'insensitive' },
  { ...DEFAULT_READING, emptyBody: 'empty-object' },
  { ...DEFAULT_READING, updateNulls: 'ignored' },
  {
    placement: 'top',
    rejectStatus: 422,
    duplicateRefId: 'same',
    createdStatus: 200,
    metadataUpdate: 'merge',
    taxEntryMembers: 'required',
    refIdCase: 'insensitive',
    emptyBody: 'empty-object',
    updateNulls: 'ignored',
  },
];

/** Readings as `key=value` with the serve command's flag names (placement=top, reject-status=422 ...). */
export const READING_KEYS: Record<string, keyof Reading> = {
  placement: 'placement',
  'reject-status': 'rejectStatus',
  'duplicate-ref-id': 'duplicateRefId',
  'created-status': 'createdStatus',
  'metadata-update': 'metadataUpdate',
  'tax-entry-members': 'taxEntryMembers',
  'ref-id-case': 'refIdCase',
  'empty-body': 'emptyBody',
  'update-nulls': 'updateNulls',
};

export function parseReading(pairs: Record<string, string>): Partial<Reading> {
  const reading: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(pairs)) {
    const field = READING_KEYS[key];
    if (!field) throw new UsageError(`unknown reading "${key}"; known: ${Object.keys(READING_KEYS).join(', ')}`);
    const allowed = [...new Set([DEFAULT_READING[field], ...readingValues(field)])].map(String);
    if (!allowed.includes(value)) throw new UsageError(`reading ${key} must be one of ${allowed.join(', ')}, got "${value}"`);
    reading[field] = typeof DEFAULT_READING[field] === 'number' ? Number(value) : value;
  }
  return reading as Partial<Reading>;
}

function readingValues(field: keyof Reading): (string | number)[] {
  const values: Record<keyof Reading, (string | number)[]> = {
    placement: ['nested', 'top', 'both'],
    rejectStatus: [400, 422],
    duplicateRefId: ['conflict', 'same'],
    createdStatus: [200, 201],
    metadataUpdate: ['replace', 'merge'],
    taxEntryMembers: ['optional', 'required'],
    refIdCase: ['exact', 'insensitive'],
    emptyBody: ['refused', 'empty-object'],
    updateNulls: ['as-typed', 'ignored'],
  };
  return values[field];
}
