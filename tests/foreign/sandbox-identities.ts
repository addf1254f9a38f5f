/**
 * The sandbox's identity create (section 4.2), minimal: enough for a run not to crash. A UUID id,
 * a ref_id unique per API user (a repeat is 409), status PENDING, the tax rule (tax_details must
 * be set unless tax_details_not_required is true, else 400), wrong JSON types and impossible
 * dates of birth refused with 400, so that a sandbox with strict blanks can come out conformant.
 */
import { randomUUID } from 'node:crypto';

export type Answer = { status: number; body: unknown };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const error = (status: number, message: string): Answer => ({ status, body: { error: status === 409 ? 'conflict' : 'bad_request', message } });

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** A real calendar date as YYYY-MM-DD. */
function isCalendarDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const d = new Date(0);
  d.setUTCFullYear(+m[1], +m[2] - 1, +m[3]); // not Date.UTC: it reads years 0-99 as 1900-1999
  return d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3];
}
const allStrings = (o: Record<string, unknown>) => Object.values(o).every((v) => typeof v === 'string');

/** Why a create body breaks the document's types (sections 2.5, 2.6, 4.2), or undefined. */
function typeProblem(body: Record<string, unknown>): string | undefined {
  for (const k of ['tax_details_not_required', 'is_merchant']) if (body[k] !== undefined && typeof body[k] !== 'boolean') return `${k} must be a boolean`;
  if (body.ref_id !== undefined && typeof body.ref_id !== 'string') return 'ref_id must be a string';
  for (const k of ['metadata', 'institution_details', 'customer_due_diligence', 'person_details'])
    if (body[k] !== undefined && !isObject(body[k])) return `${k} must be an object`;
  for (const k of ['tax_details', 'institution_members'])
    if (body[k] !== undefined && !(Array.isArray(body[k]) && (body[k] as unknown[]).every(isObject))) return `${k} must be an array of objects`;
  if (((body.tax_details ?? []) as Record<string, unknown>[]).some((t) => !allStrings(t))) return 'tax_details entries hold strings';
  for (const [k, v] of Object.entries((body.person_details ?? {}) as Record<string, unknown>)) {
    if (k === 'address' ? !(isObject(v) && allStrings(v)) : k === 'metadata' ? !isObject(v) : typeof v !== 'string')
      return `person_details.${k} has the wrong type`;
  }
  const dob = (body.person_details as Record<string, unknown> | undefined)?.date_of_birth;
  if (typeof dob === 'string' && !isCalendarDate(dob)) return 'person_details.date_of_birth must be a date YYYY-MM-DD';
  return undefined;
}

export class SandboxIdentities {
  /** API user (token) -> ref_id -> identity. */
  private readonly byUser = new Map<string, Map<string, Record<string, unknown>>>();
  private readonly all: Record<string, unknown>[] = [];

  /** Every identity created, oldest first (copies). */
  list(): Record<string, unknown>[] {
    return structuredClone(this.all);
  }

  create(user: string, body: unknown, now: string): Answer {
    if (!isObject(body)) return error(400, 'the body must be a JSON object');
    const problem = typeProblem(body);
    if (problem) return error(400, problem);
    if (body.tax_details === undefined && body.tax_details_not_required !== true)
      return error(400, 'tax_details is required unless tax_details_not_required is true');
    const refs = this.byUser.get(user) ?? new Map<string, Record<string, unknown>>();
    this.byUser.set(user, refs);
    const ref = body.ref_id as string | undefined;
    if (ref !== undefined && refs.has(ref)) return error(409, `ref_id ${JSON.stringify(ref)} is already used`);
    const person = body.person_details as Record<string, unknown> | undefined;
    const identity: Record<string, unknown> = {
      ...body,
      id: randomUUID(),
      type: body.institution_details ? 'INSTITUTION' : 'PERSON',
      status: 'PENDING',
      status_details: 'PENDING',
      user_disabled: false,
      admin_disabled: false,
      created_at: now,
      updated_at: now,
      ...(person
        ? {
            person_details: {
              ...person,
              ...(typeof person.date_of_birth === 'string' ? { date_of_birth: `${person.date_of_birth}T00:00:00Z` } : {}),
              ...(person.cip_id !== undefined ? { govt_id: person.cip_id } : {}),
              ...(person.cip_id_type !== undefined ? { govt_id_type: person.cip_id_type } : {}),
              id_verification_status: 'APPROVED',
              sanctions_verification_status: 'PENDING',
              additional_screening_status: 'PENDING',
            },
          }
        : {}),
    };
    if (ref !== undefined) refs.set(ref, identity);
    this.all.push(identity);
    return { status: 200, body: identity };
  }
}
