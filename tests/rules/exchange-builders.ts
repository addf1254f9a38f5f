/** Builders of recorded exchanges for the check tests: a faithful exchange, then one change. */
import type { Exchange } from '../../src/core/exchange.ts';
import type { TestCase } from '../../src/core/case.ts';

export const ACCOUNT_ID = '6f1c2b1e-8a3d-4c5e-9f70-1a2b3c4d5e6f';

export function fiatAccountBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: ACCOUNT_ID,
    created_at: '2024-01-02T03:04:05.678Z',
    updated_at: '2024-02-02T03:04:05Z',
    fiat_account_owner: {
      person_details: { first_name: 'Ada', last_name: 'Lovelace' },
      fiat_network_instructions: {
        wire: {
          account_number: '123456789',
          fiat_account_owner_address: { country: 'USA', address1: '1 Main St', address2: '', city: 'Austin', province: 'TX', zip_code: '78701' },
          routing_details: {
            routing_number_type: 'ABA',
            routing_number: '021000021',
            bank_name: 'Bank',
            bank_address: { country: 'USA', address1: '2 Bank St', address2: '', city: 'NYC', province: 'NY', zip_code: '10001' },
          },
        },
        status: 'PENDING',
        metadata: { note: 'x' },
      },
    },
    ...overrides,
  };
}

export function identityBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: '0b8e7c52-44c1-4d4b-9b0a-2f3e4d5c6b7a',
    status: 'PENDING',
    status_details: 'PENDING',
    summary_status: 'PENDING',
    type: 'PERSON',
    user_disabled: false,
    admin_disabled: false,
    is_merchant: false,
    tax_details_not_required: true,
    summary_tin_verification_status: 'TIN_VERIFICATION_PENDING',
    created_at: '2024-01-02T03:04:05.123456Z',
    updated_at: '2024-01-02T03:04:05.123456+00:00',
    person_details: {
      first_name: 'Ada',
      last_name: 'Lovelace',
      date_of_birth: '1990-01-01T00:00:00Z',
      cip_id: '123-45-6789',
      cip_id_type: 'SSN',
      govt_id: '123-45-6789',
      govt_id_type: 'SSN',
      id_verification_status: 'APPROVED',
      sanctions_verification_status: 'PENDING',
      additional_screening_status: 'PENDING',
      "passthrough_verifier_type'": 'X',
    },
    ...overrides,
  };
}

export const identityRequest = (overrides: Record<string, unknown> = {}) => ({
  person_details: { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1990-01-01', cip_id: '123-45-6789', cip_id_type: 'SSN' },
  tax_details_not_required: true,
  ...overrides,
});

export function exchange(
  testCase: Partial<TestCase> & Pick<TestCase, 'operation'>,
  status: number,
  body: unknown,
  headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' },
): Exchange {
  const c: TestCase = { mode: 'valid', label: 'test case', ...testCase };
  if (c.operation === 'updateFiatAccount') c.fiatAccountId ??= ACCOUNT_ID;
  const rawBody = typeof body === 'string' ? body : JSON.stringify(body);
  let parsed: unknown;
  let json = true;
  try {
    parsed = JSON.parse(rawBody);
  } catch {
    json = false;
  }
  return {
    testCase: c,
    request: { method: c.operation === 'updateFiatAccount' ? 'PUT' : 'POST', url: 'http://127.0.0.1:1/v2/x', headers: {}, body: c.body },
    response: { status, headers, rawBody, json, ...(json ? { body: parsed } : {}) },
    startedAt: '2024-01-01T00:00:00Z',
    durationMs: 1,
  };
}
