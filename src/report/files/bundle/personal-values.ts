/**
 * The personal values of a run: what exchanges.har's request and response bodies hold under the
 * fields that name a person or an institution, number an account, identify someone to a
 * government, reach someone, say when they were born or where they live (schemas/:
 * person_details, fiat_account_owner, wire, routing_details, tax_details, institution_details,
 * and every address object: the identity's, the fiat account owner's, the bank's; its country
 * code stays). Every string (and integer: a wrong-type case
 * sends `cip_id: 123456789`) anywhere under such a field counts, a list or an object of the wrong
 * type included. Bodies that are not JSON (malformed on purpose) are read field by field.
 */

/** Field names whose values are personal wherever they appear. */
export const PERSONAL_FIELDS: ReadonlySet<string> = new Set([
  'first_name',
  'middle_name',
  'last_name',
  'full_name',
  'legal_name',
  'bank_name',
  'account_number',
  'routing_number',
  'cip_id',
  'govt_id',
  'tax_payer_id',
  'email',
  'phone_number',
  // Sent as YYYY-MM-DD, returned as a timestamp at midnight UTC: both spellings are values here.
  'date_of_birth',
  // Every address object (2.4, 2.6): the lines, the city, the province, the postal code.
  'address1',
  'address2',
  'city',
  'province',
  'zip_code',
]);

/** `name` is personal only inside an institution's details or members. */
const INSTITUTION = /^institution/;

/** Every personal value under `value`, which sits at `key` below `ancestors`. */
function walk(value: unknown, key: string | undefined, personal: boolean, inInstitution: boolean, out: Set<string>, depth = 0): void {
  if (depth > 64) return;
  const here = personal || (key !== undefined && (PERSONAL_FIELDS.has(key) || (key === 'name' && inInstitution)));
  if (typeof value === 'string') {
    if (here) out.add(value);
  } else if (typeof value === 'number') {
    // A short integer under such a field is a wrong-type probe (`first_name: 42`), nobody's number.
    if (here && Number.isSafeInteger(value) && value >= 100_000) out.add(String(value));
  } else if (Array.isArray(value)) {
    for (const item of value) walk(item, key, here, inInstitution, out, depth + 1);
  } else if (value && typeof value === 'object') {
    const institution = inInstitution || (key !== undefined && INSTITUTION.test(key));
    for (const [k, v] of Object.entries(value)) walk(v, k, here, institution, out, depth + 1);
  }
}

/** `"first_name": "Ada"` and `"cip_id": 123` in a text that is not JSON. */
const FIELD_IN_TEXT = new RegExp(`"(${[...PERSONAL_FIELDS].join('|')})"\\s*:\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|(\\d+))`, 'g');

/** The personal values of one body text: walked when it is JSON, read field by field when not. */
export function personalValuesOfBody(text: string, out: Set<string>): void {
  try {
    walk(JSON.parse(text), undefined, false, false, out);
    return;
  } catch {
    // Malformed on purpose: read the fields one by one.
  }
  for (const match of text.matchAll(FIELD_IN_TEXT)) {
    if (match[3] !== undefined) {
      if (match[3].length >= 6) out.add(match[3]);
    } else {
      try {
        out.add(JSON.parse(`"${match[2]}"`) as string);
      } catch {
        out.add(match[2]);
      }
    }
  }
}

interface EntryLike {
  request?: { postData?: { text?: unknown } };
  response?: { content?: { text?: unknown } };
}

/** The personal values of one HAR entry's request and response bodies, added to `out`. */
export function personalValuesOfEntry(entry: unknown, out: Set<string>): void {
  const { request, response } = (entry ?? {}) as EntryLike;
  for (const text of [request?.postData?.text, response?.content?.text]) if (typeof text === 'string') personalValuesOfBody(text, out);
}

/** Every personal value of exchanges.har's request and response bodies. */
export function personalValuesOfHar(harText: string): Set<string> {
  const out = new Set<string>();
  const har = JSON.parse(harText) as { log?: { entries?: unknown[] } };
  for (const entry of har.log?.entries ?? []) personalValuesOfEntry(entry, out);
  return out;
}
