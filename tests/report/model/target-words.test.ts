import { describe, expect, it } from 'vitest';
import type { RecordedResponse } from '../../../src/core/exchange.ts';
import { Redactor } from '../../../src/report/model/redact.ts';
import { failureWords, jsonErrorDetail, targetSaidSuffix, targetWords, TARGET_WORDS_WIDTH } from '../../../src/report/model/target-words.ts';
import type { ReportFailure } from '../../../src/report/model/model.ts';
import { ruleFields } from '../../../src/report/model/rule-fields.ts';

const json = (status: number, body: unknown, headers: Record<string, string> = {}): RecordedResponse => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  rawBody: JSON.stringify(body),
  json: true,
  body,
});
const textResponse = (status: number, rawBody: string, headers: Record<string, string> = {}): RecordedResponse => ({ status, headers, rawBody, json: false });

describe('targetWords', () => {
  it('takes the usual fields of a JSON error body, in order', () => {
    expect(targetWords(json(422, { message: 'first_name must be ASCII', title: 'Unprocessable' }))).toBe('first_name must be ASCII');
    expect(targetWords(json(400, { type: 'about:blank', title: 'Bad Request', detail: 'ref_id is required' }))).toBe('ref_id is required');
    expect(targetWords(json(401, { error: 'invalid_token', error_description: 'The access token expired' }))).toBe('invalid_token: The access token expired');
    expect(targetWords(json(400, { error: 'bad_request' }))).toBe('bad_request');
    expect(targetWords(json(500, { error: { code: 17, message: 'database is locked' } }))).toBe('database is locked');
    expect(targetWords(json(409, { title: 'Conflict' }))).toBe('Conflict');
  });

  it('takes an entry of errors[] with where it points over a generic message, or takes it alone', () => {
    const problem = {
      title: 'Unprocessable Entity',
      detail: 'the request body is invalid (1 error)',
      errors: [{ instancePath: '/person_details/first_name', message: 'must be ASCII' }],
    };
    expect(targetWords(json(422, problem))).toBe('must be ASCII (at /person_details/first_name)');
    // A long path is cut, not the words.
    const longPath = { detail: 'invalid', errors: [{ instancePath: `/metadata/${'é'.repeat(100)}`, message: 'must NOT have more than 100 characters' }] };
    expect(targetWords(json(400, longPath))).toMatch(/^must NOT have more than 100 characters \(at \/metadata\/é+…$/);
    expect(targetWords(json(422, { errors: [{ detail: 'tax_id is too long' }, { detail: 'second' }] }))).toBe('tax_id is too long');
    expect(targetWords(json(422, { errors: ['metadata has 7 pairs'] }))).toBe('metadata has 7 pairs');
    expect(jsonErrorDetail({ id: 'x', status: 'PENDING' })).toBeUndefined();
  });

  it('reads a violations header when the body has no error detail; a JSON list gives its first message', () => {
    const violations = JSON.stringify([
      { location: ['request', 'body'], severity: 'Error', code: 'required', message: "must have required property 'ref_id'" },
    ]);
    expect(targetWords(json(422, { ok: false }, { 'SL-Violations': violations }))).toBe("must have required property 'ref_id'");
    expect(targetWords(textResponse(400, '', { 'x-violations': 'metadata: too many pairs' }))).toBe('metadata: too many pairs');
    // A body detail comes first.
    expect(targetWords(json(422, { message: 'from the body' }, { 'sl-violations': violations }))).toBe('from the body');
  });

  it('falls back to the compact JSON, then the text body; an HTML page gives its title', () => {
    expect(targetWords(json(200, { id: 'idt_1', status: 'PENDING' }))).toBe('{"id":"idt_1","status":"PENDING"}');
    expect(targetWords(textResponse(502, 'upstream   timed\nout'))).toBe('upstream timed out');
    expect(targetWords(textResponse(503, '<!DOCTYPE html><html><head><title>503 Service Unavailable</title></head><body><h1>x</h1></body></html>'))).toBe(
      '503 Service Unavailable',
    );
    expect(targetWords(textResponse(404, '<html><body><p>No such <b>account</b></p></body></html>'))).toBe('No such account');
    // Bodies that claim JSON but are not, parse from rawBody when possible.
    expect(targetWords({ status: 400, headers: {}, rawBody: '{"detail":"raw"}', json: false })).toBe('raw');
  });

  it('says nothing for no response or an empty answer', () => {
    expect(targetWords(undefined)).toBeUndefined();
    expect(targetWords(textResponse(204, ''))).toBeUndefined();
    expect(targetWords(textResponse(400, '   \n '))).toBeUndefined();
  });

  it('is one line of at most 120 characters, with control characters flattened', () => {
    const long = 'x'.repeat(500);
    const words = targetWords(json(422, { message: `line one\nline\u0007two ${long}` }))!;
    expect([...words].length).toBe(TARGET_WORDS_WIDTH);
    expect(words.endsWith('…')).toBe(true);
    expect(words).not.toMatch(/[\n\r\u0007]/);
    expect(words.startsWith('line one line two x')).toBe(true);
  });

  it('never shows a secret: known secrets, token fields and credential headers, even where the cut would halve them', () => {
    const token = 'tok_live_5f2a9c7e1b3d9a8b7c6d';
    const redactor = new Redactor([token]);
    expect(targetWords(json(401, { message: `token ${token} is revoked` }), redactor)).toBe('token [REDACTED] is revoked');
    // The secret straddles the 120th character: it is redacted before the cut.
    const padded = `${'p'.repeat(110)} ${token}`;
    const cut = targetWords(json(401, { message: padded }), redactor)!;
    expect(cut).not.toContain('tok_');
    expect(cut).toContain('[REDACT');
    expect(targetWords(json(200, { access_token: 'eyJhbGciOi.abc.def', token_type: 'bearer' }))).toBe('{"access_token":"[REDACTED]","token_type":"bearer"}');
    expect(targetWords(textResponse(400, 'you sent Authorization: Bearer abc.def.ghi which is wrong'))).not.toContain('abc.def.ghi');
    expect(targetWords(textResponse(400, '', { 'x-violations': `bad token ${token}` }), redactor)).toBe('bad token [REDACTED]');
  });
});

describe('targetSaidSuffix', () => {
  it('quotes the words after a dash, and stays empty when there are none or the message already quotes them', () => {
    const response = json(422, { message: 'first_name must be ASCII' });
    expect(targetSaidSuffix({ message: 'a valid request was not accepted (HTTP 422)', response })).toBe(' — target said: "first_name must be ASCII"');
    expect(targetSaidSuffix({ message: 'refused: first_name must be ASCII', response })).toBe('');
    expect(targetSaidSuffix({ message: 'no answer within 10000 ms (timeout)' })).toBe('');
    expect(targetSaidSuffix(undefined)).toBe('');
  });
});

/** A refused case as a report records it, with the request it sent. */
const refusedCase = (response: RecordedResponse, c: Partial<ReportFailure['case']> = {}, body: unknown = {}): ReportFailure => ({
  message: `${c.label ?? 'a case'}: a valid request was not accepted (HTTP ${response.status})`,
  case: { operation: 'createIdentity', label: 'a case', mode: 'valid', intent: 'guaranteed', ...c },
  request: { method: 'POST', url: 'http://127.0.0.1:1/v2/identity/identities', headers: {}, body },
  response,
  curl: 'curl',
  seed: 1,
});
/** The canned refusal of a mock made from the vendor's examples: it has nothing to do with the request. */
const CANNED = { code: 'BadRequest', message: 'fiat_account_owner cannot be changed from person to institution' };

describe('choosing the words that concern the failure', () => {
  it('takes the real reason of a validation list over a canned message, whatever the list is called', () => {
    const shapes: [string, unknown, string][] = [
      ['validation', { validation: [{ field: 'person_details.address.country', message: 'is required' }] }, 'is required (at person_details.address.country)'],
      [
        'errors with a pointer',
        { errors: [{ pointer: '/tax_details/0/tax_payer_id', detail: 'is too long' }] },
        'is too long (at /tax_details/0/tax_payer_id)',
      ],
      ['violations', { violations: [{ path: 'metadata', msg: 'has too many pairs' }] }, 'has too many pairs (at metadata)'],
      ['details', { details: [{ location: 'person_details.email', description: 'is not an email' }] }, 'is not an email (at person_details.email)'],
      [
        'invalid_params',
        { invalid_params: [{ name: 'person_details.phone_number', reason: 'must be E.164' }] },
        'must be E.164 (at person_details.phone_number)',
      ],
      ['RFC 9457 invalid-params', { 'invalid-params': [{ name: 'ref_id', reason: 'must be unique' }] }, 'must be unique (at ref_id)'],
      [
        "FastAPI's detail list",
        { detail: [{ loc: ['body', 'person_details', 'cip_id_type'], msg: 'value is not a valid enumeration member', type: 'type_error.enum' }] },
        'value is not a valid enumeration member (at person_details.cip_id_type)',
      ],
      [
        "Google's field violations",
        {
          error: {
            code: 400,
            status: 'INVALID_ARGUMENT',
            details: [{ fieldViolations: [{ field: 'person_details.nationality', description: 'unknown country' }] }],
          },
        },
        'unknown country (at person_details.nationality)',
      ],
      [
        'errors with instancePath',
        { errors: [{ instancePath: '/person_details/first_name', message: 'must match pattern' }] },
        'must match pattern (at /person_details/first_name)',
      ],
    ];
    for (const [shape, list, expected] of shapes) {
      const words = failureWords(refusedCase(json(400, { ...CANNED, ...(list as object) })), 'id.valid-accepted');
      expect(words, shape).toBe(expected);
      expect(words, shape).not.toContain('fiat_account_owner');
    }
  });

  it('reads every entry, not only the first: the one naming the case\u2019s field wins', () => {
    const body = {
      ...CANNED,
      errors: [
        { field: 'person_details.email', message: 'is not an email' },
        { field: 'person_details.address.address1', message: 'is longer than 35 characters' },
        { field: 'person_details.first_name', message: 'must be Latin letters' },
      ],
    };
    const open = { field: 'person_details.first_name', kind: 'alphabet' as const, value: 'cjk' };
    expect(failureWords(refusedCase(json(422, body), { open, intent: 'open' }), 'id.valid-accepted')).toBe(
      'must be Latin letters (at person_details.first_name)',
    );
    // The field a label names is a weaker hint that still chooses.
    const labelled = refusedCase(json(422, body), { label: 'person_details.address.address1 60 characters' });
    expect(failureWords(labelled, 'id.valid-accepted')).toBe('is longer than 35 characters (at person_details.address.address1)');
    // A twin's label names the field its case varied, not one the twin sent otherwise: no hint.
    const twin = refusedCase(json(422, body), { label: 'person_details.address.address1 60 characters (valid twin)' });
    expect(failureWords(twin, 'id.valid-accepted')).toBe('is not an email (at person_details.email)');
    // A field the rule that failed names.
    const metadata = {
      errors: [
        { field: 'ref_id', message: 'is taken' },
        { field: 'metadata', message: 'has 7 pairs' },
      ],
    };
    expect(failureWords(refusedCase(json(422, metadata), { mode: 'boundary' }), 'fa.metadata.max-pairs-accepted')).toBe('has 7 pairs (at metadata)');
  });

  it('takes the entry that quotes the value the case sent', () => {
    const open = { field: 'person_details.first_name', kind: 'alphabet' as const, value: 'cjk' };
    const body = { errors: ['unsupported characters in 山田太郎', 'request rejected by policy'] };
    const failure = refusedCase(json(422, body), { open, intent: 'open' }, { person_details: { first_name: '山田太郎' } });
    expect(failureWords(failure, 'id.valid-accepted')).toBe('unsupported characters in 山田太郎');
  });

  it('reads a validating proxy\u2019s sl-violations header, each entry with where it points', () => {
    const violations = JSON.stringify([
      { location: ['request', 'body', 'person_details', 'address'], severity: 'Error', code: 'required', message: "must have required property 'country'" },
    ]);
    const words = failureWords(refusedCase(json(400, CANNED, { 'sl-violations': violations }), { label: 'address with address1 only' }), 'id.valid-accepted');
    expect(words).toBe("must have required property 'country' (at person_details.address)");
  });

  it('quotes a canned or generic text only when nothing specific was said', () => {
    expect(failureWords(refusedCase(json(400, CANNED)), 'id.valid-accepted')).toBe(CANNED.message);
    const generic = { message: 'Bad Request', errors: ['tax_details is required'] };
    expect(failureWords(refusedCase(json(400, generic), {}, { tax_details_not_required: false }), 'id.valid-accepted')).toBe('tax_details is required');
  });

  it('on a success that failed a rule, quotes only words on the rule\u2019s fields, else what the answer holds there, else nothing', () => {
    const unrelated = JSON.stringify([{ location: ['response', 'body'], message: "must have required property 'summary_status'" }]);
    const success = (body: unknown, headers: Record<string, string> = {}): ReportFailure => ({
      ...refusedCase(json(200, body, headers)),
      message: 'date_of_birth came back as 1990-05-17, not midnight UTC',
      instancePath: '/person_details/date_of_birth',
    });
    // The proxy's complaint is about another field: not quoted; the answer's own date_of_birth is.
    const answer = { id: 'idt_1', person_details: { date_of_birth: '1990-05-17' } };
    expect(failureWords(success(answer, { 'sl-violations': unrelated }), 'id.dob.midnight-utc')).toBe('person_details.date_of_birth: "1990-05-17"');
    // Words on the rule's field are quoted.
    const related = JSON.stringify([{ location: ['response', 'body', 'person_details', 'date_of_birth'], message: 'must match format "date-time"' }]);
    expect(failureWords(success(answer, { 'sl-violations': related }), 'id.dob.midnight-utc')).toBe(
      'must match format "date-time" (at person_details.date_of_birth)',
    );
    // Nothing on the rule's fields: nothing, not the body.
    expect(failureWords(success({ id: 'idt_1' }, { 'sl-violations': unrelated }), 'id.dob.midnight-utc')).toBeUndefined();
    const status: ReportFailure = { ...success({ id: 'x', status: 'pending' }), instancePath: undefined, message: 'status is not one of the allowed values' };
    expect(failureWords(status, 'fa.status.enum')).toBe('status: "pending"');
    // Not twice: the harness's message quotes that value already.
    expect(failureWords({ ...status, message: 'got "pending", allowed PENDING, APPROVED, REJECTED' }, 'fa.status.enum')).toBeUndefined();
    // An invalid request accepted: the rule names no field of the answer, so nothing of it is quoted.
    const accepted: ReportFailure = {
      ...success({ id: 'x', type: 'PERSON' }),
      instancePath: undefined,
      message: 'wrong type: an invalid request was accepted (HTTP 200)',
    };
    expect(failureWords(accepted, 'id.wrong-types-rejected')).toBeUndefined();
  });
});

describe('the fields of a rule', () => {
  it('are the fields its id and title name, never a prose word of its title', () => {
    expect(ruleFields('id.dob.midnight-utc')).toEqual(['date_of_birth']);
    expect(ruleFields('id.govt-id.mirrors-cip')).toEqual(['govt_id', 'govt_id_type', 'cip_id', 'cip_id_type']);
    expect(ruleFields('fa.metadata.over-pairs-rejected')).toEqual(['metadata']);
    expect(ruleFields('id.wrong-types-rejected')).toEqual([]);
    expect(ruleFields('id.valid-accepted')).toEqual([]);
  });
});
