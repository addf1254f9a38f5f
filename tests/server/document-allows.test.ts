/**
 * The faithful server accepts everything the document allows and the generators send: long free
 * text, empty strings, kinds in any letter case, email and phone in any layout, calendar-edge
 * dates, optional members absent, tax_details entries missing a member; and it refuses wrong
 * types inside tax_details entries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReferenceServer, type ReferenceServer } from '../../src/server/server.ts';
import { create, identityBody, nested, update } from './http-client.ts';

const ADDRESS = { country: 'USA', address1: '1 Main St', address2: '', city: 'Austin', province: 'TX', zip_code: '73301' };
/** Every optional person_details field of the request, one value each. */
const FULL_PERSON: Record<string, unknown> = {
  verifier_type: 'PASSTHROUGH',
  passthrough_verifier_type: 'VENDOR',
  passthrough_verified_at: '2024-01-02T03:04:05Z',
  first_name: 'Ada',
  last_name: 'Lovelace',
  date_of_birth: '1990-01-01',
  phone_number: '+15551234567',
  email: 'ada@example.com',
  cip_id: '123-45-6789',
  cip_id_type: 'SSN',
  cip_id_country: 'USA',
  nationality: 'USA',
  address: ADDRESS,
  metadata: { source: 'test' },
};

describe.each([400, 422] as const)('what the document allows, rejections with %i', (rejectStatus) => {
  let server: ReferenceServer;
  beforeAll(async () => {
    server = await createReferenceServer({ reading: { rejectStatus } });
  });
  afterAll(() => server.close());

  const createPerson = (person: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
    const body = identityBody(extra);
    return create(server, { ...body, person_details: person });
  };

  it.each([
    ['300 ASCII letters', 'a'.repeat(300)],
    ['300 emoji', '😀'.repeat(300)],
    ['300 mixed characters', 'Zoë 中😀'.repeat(60)],
    ['an empty string', ''],
    ['only spaces', '   '],
  ])('names of %s are accepted and returned as sent', async (_name, text) => {
    const reply = await createPerson({ first_name: text, last_name: text });
    expect(reply.status).toBe(201);
    expect(reply.json.person_details).toMatchObject({ first_name: text, last_name: text });
    const updated = await update(server, { fiat_account_owner: { person_details: { first_name: text, last_name: text } } });
    expect(updated.status).toBe(200);
    expect(updated.json.fiat_account_owner.person_details).toEqual({ first_name: text, last_name: text });
  });

  it('empty strings in every free-text field and the address are accepted', async () => {
    const empty = {
      ...FULL_PERSON,
      first_name: '',
      last_name: '',
      phone_number: '',
      cip_id: '',
      cip_id_type: '',
      cip_id_country: '',
      nationality: '',
      verifier_type: '',
      passthrough_verifier_type: '',
    };
    const reply = await createPerson({ ...empty, address: Object.fromEntries(Object.keys(ADDRESS).map((k) => [k, ''])) });
    expect(reply.status).toBe(201);
    expect(reply.json.person_details).toMatchObject({ govt_id: '', govt_id_type: '' });
  });

  it.each(['ssn', 'Ssn', 'SSN', 'tin', 'passport'])('cip_id_type %s is accepted and mirrored as govt_id_type', async (kind) => {
    const reply = await createPerson({ ...FULL_PERSON, cip_id_type: kind });
    expect(reply.status).toBe(201);
    expect(reply.json.person_details.govt_id_type).toBe(kind);
  });

  // 2.6 states no format for email (only the placeholder <EMAIL>) or phone_number.
  it.each([
    ['not an address', { email: 'ada at example' }],
    ['upper case', { email: 'Ada@Example.COM' }],
    ['any phone layout', { phone_number: '(555) 123-4567 ext. 7' }],
  ])('email or phone_number in %s is accepted and returned as sent', async (_name, fields) => {
    const reply = await createPerson({ ...FULL_PERSON, ...fields });
    expect(reply.status).toBe(201);
    expect(reply.json.person_details).toMatchObject(fields);
  });

  it.each(['ABA', 'aba', 'Aba', 'SWIFT', 'iban', ''])('routing_number_type %j is accepted', async (kind) => {
    const reply = await update(server, {
      fiat_network_instructions: { wire: { routing_details: { routing_number_type: kind, routing_number: '021000021' } } },
    });
    expect(reply.status).toBe(200);
    expect(nested(reply.json).wire?.routing_details).toMatchObject({ routing_number_type: kind });
  });

  it.each(['1992-02-29', '2000-02-29', '2024-02-29', '1600-02-29', '1990-12-31', '1990-01-01', '0004-02-29'])(
    'date_of_birth %s is accepted as midnight UTC',
    async (dob) => {
      const reply = await createPerson({ first_name: 'Ada', date_of_birth: dob });
      expect(reply.status).toBe(201);
      expect(reply.json.person_details.date_of_birth).toBe(`${dob}T00:00:00Z`);
    },
  );

  it.each(['1900-02-29', '2100-02-29', '2023-02-29'])('date_of_birth %s (no leap day that year) is rejected', async (dob) => {
    expect((await createPerson({ date_of_birth: dob })).status).toBe(rejectStatus);
  });

  it.each(Object.keys(FULL_PERSON))('person_details without %s is accepted', async (key) => {
    const { [key]: _absent, ...person } = FULL_PERSON;
    const reply = await createPerson(person);
    expect(reply.status).toBe(201);
    expect(reply.json.person_details).not.toHaveProperty(key);
  });

  it.each([[{}], [{ last_name: 'Lovelace' }], [{ address: {} }], [{ address: { address2: '' } }], [{ metadata: {} }]])(
    'person_details %j is accepted',
    async (person) => {
      expect((await createPerson(person)).status).toBe(201);
    },
  );

  it.each([
    ['an entry without tax_payer_id', [{ tax_payer_country: 'USA' }]],
    ['an entry without tax_payer_country', [{ tax_payer_id: '123456789' }]],
    ['an empty entry', [{}]],
    ['an empty list', []],
    ['empty strings', [{ tax_payer_country: '', tax_payer_id: '' }]],
    ['two entries', [{ tax_payer_country: 'USA', tax_payer_id: '1' }, { tax_payer_country: 'CAN' }]],
  ])('tax_details with %s are accepted and echoed', async (_name, taxDetails) => {
    const reply = await create(server, identityBody({ tax_details_not_required: false, tax_details: taxDetails }));
    expect(reply.status).toBe(201);
    expect(reply.json.tax_details).toEqual(taxDetails);
  });

  it.each([
    ['tax_payer_id a number', [{ tax_payer_country: 'USA', tax_payer_id: 123 }]],
    ['tax_payer_country a number', [{ tax_payer_country: 840, tax_payer_id: '1' }]],
    ['tax_payer_id null', [{ tax_payer_country: 'USA', tax_payer_id: null }]],
    ['tax_payer_id an object', [{ tax_payer_country: 'USA', tax_payer_id: { v: '1' } }]],
    ['tax_payer_country an array', [{ tax_payer_country: ['USA'] }]],
    ['an entry that is a string', ['USA 1']],
    ['a second entry wrong', [{ tax_payer_country: 'USA', tax_payer_id: '1' }, { tax_payer_id: true }]],
  ])('tax_details with %s are rejected', async (_name, taxDetails) => {
    for (const flag of [false, true]) {
      const reply = await create(server, identityBody({ tax_details_not_required: flag, tax_details: taxDetails }));
      expect(reply.status).toBe(rejectStatus);
      expect(reply.json.errors.some((e: { instancePath: string }) => e.instancePath.startsWith('/tax_details'))).toBe(true);
    }
  });
});
