import { describe, expect, it } from 'vitest';
import type { RecordedResponse } from '../../src/core/exchange.ts';
import { Redactor } from '../../src/report/model/redact.ts';
import { jsonErrorDetail, targetSaidSuffix, targetWords, TARGET_WORDS_WIDTH } from '../../src/report/model/target-words.ts';

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
