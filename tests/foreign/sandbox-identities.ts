/**
 * The sandbox's identity create (section 4.2), minimal: enough for a run not to crash. A UUID id,
 * a ref_id unique per API user (a repeat is 409), status PENDING, the tax rule (tax_details must
 * be set unless tax_details_not_required is true, else 400).
 */
import { randomUUID } from 'node:crypto';

export type Answer = { status: number; body: unknown };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const error = (status: number, message: string): Answer => ({ status, body: { error: status === 409 ? 'conflict' : 'bad_request', message } });

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
    if (body.tax_details_not_required !== undefined && typeof body.tax_details_not_required !== 'boolean')
      return error(400, 'tax_details_not_required must be a boolean');
    if (body.tax_details !== undefined && !Array.isArray(body.tax_details)) return error(400, 'tax_details must be an array');
    if (body.tax_details === undefined && body.tax_details_not_required !== true)
      return error(400, 'tax_details is required unless tax_details_not_required is true');
    if (body.ref_id !== undefined && typeof body.ref_id !== 'string') return error(400, 'ref_id must be a string');
    if (body.person_details !== undefined && !isObject(body.person_details)) return error(400, 'person_details must be an object');
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
