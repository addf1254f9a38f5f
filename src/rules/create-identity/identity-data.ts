/**
 * The data of an identity that a repeat of its ref_id must give back (4.2, 8: one identity per
 * ref_id, so a repeat is that identity, not an update of it): what the client sent and the first
 * answer showed. Fields that may move between two calls on their own are left out: the statuses
 * (a review goes on), updated_at, last_kyc_refresh_date, the disabled flags.
 */
import { isObject, isRfc3339 } from '../checks/exchange-facts.ts';

/** Top-level fields a repeat must show as the first answer did. */
const KEPT_FIELDS = ['type', 'ref_id', 'metadata', 'tax_details', 'tax_details_not_required', 'is_merchant', 'institution_details', 'institution_members'];

/** person_details fields the client sent (and govt_id, their mirror): a verification status is left out. */
const KEPT_PERSON_FIELDS = [
  'first_name',
  'last_name',
  'date_of_birth',
  'cip_id',
  'cip_id_type',
  'cip_id_country',
  'govt_id',
  'govt_id_type',
  'nationality',
  'email',
  'phone_number',
  'address',
  'metadata',
  'verifier_type',
  'passthrough_verifier_type',
  'passthrough_verified_at',
];

/** The data an answer showed, by JSON pointer: only the kept fields it carries. */
export function identityData(body: unknown): Record<string, unknown> {
  if (!isObject(body)) return {};
  const data: Record<string, unknown> = {};
  for (const field of KEPT_FIELDS) if (body[field] !== undefined) data[`/${field}`] = body[field];
  const person = body.person_details;
  if (isObject(person)) for (const field of KEPT_PERSON_FIELDS) if (person[field] !== undefined) data[`/person_details/${field}`] = person[field];
  return data;
}

/** A field whose value the repeat changed: where, the first value and the repeat's. */
export interface DataChange {
  field: string;
  first: unknown;
  received: unknown;
}

/**
 * The first kept field a repeat's answer shows otherwise than the first answer did. Two instants
 * are compared as instants (a date of birth at midnight written with or without fractions).
 */
export function changedData(first: Readonly<Record<string, unknown>>, again: unknown): DataChange | undefined {
  const now = identityData(again);
  // A field the repeat leaves out is not judged: a lean answer to a repeat changes nothing.
  for (const [field, value] of Object.entries(first)) if (field in now && !sameValue(value, now[field])) return { field, first: value, received: now[field] };
  return undefined;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string' && a !== b) {
    if (isRfc3339(a) && isRfc3339(b)) return Date.parse(a) === Date.parse(b);
    if (maskedFrom(b, a)) return true;
  }
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && sameValue(a[k], b[k]));
  }
  // Scalars as JSON: 1 is not "1".
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * A value shown in part later (`*****6789`, `••••6789`, `XXXXX6789`: a target may mask a tax or
 * government id once stored) whose visible end is the first value's end: the same value.
 */
function maskedFrom(shown: string, first: string): boolean {
  // ****6789: the end shows.
  const leading = /^(?:[*•●]{2,}|[xX#]{3,})([^*•●]*)$/.exec(shown);
  if (leading) return first.endsWith(leading[1]);
  // 12****: the start shows.
  const trailing = /^([^*•●]*)[*•●]{2,}$/.exec(shown);
  return trailing !== null && first.startsWith(trailing[1]);
}
