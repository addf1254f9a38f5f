/**
 * Bodies the harness cannot read as JSON text: not UTF-8 (RFC 8259 8.1), or too large to keep.
 * In a success they are one finding of the content-type rule, and no other rule reads them; in an
 * error answer, invalid UTF-8 is a finding of the `.answers` convention.
 */
import { describe, expect, it } from 'vitest';
import { judge } from '../../src/rules/judge.ts';
import type { Exchange, RecordedResponse } from '../../src/core/exchange.ts';
import { ACCOUNT_ID, exchange, fiatAccountBody, identityBody, identityRequest } from './exchange-builders.ts';

const context = { fiatAccountIds: [ACCOUNT_ID], mergeMayExceedLimit: () => false };
const findings = (e: Exchange) => judge(e, context).filter((j) => j.problems.length);
const failing = (e: Exchange) =>
  findings(e)
    .map((j) => j.rule)
    .sort();
const messages = (e: Exchange) => findings(e).flatMap((j) => j.problems.map((p) => p.message));
/** The findings as data: each problem's kind and params. */
const data = (e: Exchange) => findings(e).flatMap((j) => j.problems.map(({ kind, params }) => ({ kind, params })));

const update = { operation: 'updateFiatAccount' as const, body: {} };
const create = { operation: 'createIdentity' as const, body: identityRequest() };
/** A recorded exchange whose response carries `changes` (what http-call.ts sets). */
const spoiled = (e: Exchange, changes: Partial<RecordedResponse>): Exchange => ({ ...e, response: { ...e.response!, ...changes } });
/** What a Latin-1 "José" looks like once decoded as UTF-8. */
const latin1Name = (body: Record<string, unknown>) => JSON.stringify(body).replace('Ada', 'Jos\uFFFD');
const MiB = 1024 * 1024;

describe('a success whose body is not UTF-8', () => {
  it('fails fa.content-type once, saying so, and no rule judges the decoded text', () => {
    const e = spoiled(exchange(update, 200, latin1Name(fiatAccountBody())), { invalidUtf8: true });
    expect(failing(e)).toEqual(['fa.content-type']);
    expect(messages(e)).toEqual([expect.stringMatching(/^the body is not valid UTF-8 \(RFC 8259 8\.1\): ….*"first_name":"Jos\uFFFD".*…$/)]);
    expect(judge(e, context).map((j) => j.rule)).not.toContain('fa.response.schema');
  });

  it('fails id.content-type, not the rules that compare the identity with the request', () => {
    const e = spoiled(exchange(create, 201, latin1Name(identityBody())), { invalidUtf8: true });
    expect(failing(e)).toEqual(['id.content-type']);
    expect(messages(e)[0]).toContain('Jos\uFFFD');
  });

  it('also reports a wrong Content-Type under the same rule', () => {
    const e = spoiled(exchange(update, 200, fiatAccountBody(), { 'content-type': 'text/plain' }), { invalidUtf8: true });
    expect(failing(e)).toEqual(['fa.content-type']);
    expect(messages(e)).toHaveLength(2);
    expect(data(e)).toEqual([
      { kind: 'unreadable-body', params: { reason: 'not-utf8', status: 200 } },
      { kind: 'header', params: { field: 'content-type', expected: 'application/json', received: 'text/plain' } },
    ]);
  });
});

describe('a success too large to keep', () => {
  it('is one clear finding of the content-type rule, not a vague "not JSON" of the schema rule', () => {
    const kept = JSON.stringify(fiatAccountBody()).slice(0, 40);
    const e = spoiled(exchange(update, 200, kept), { truncated: { keptBytes: MiB, receivedBytes: 100 * MiB } });
    expect(failing(e)).toEqual(['fa.content-type']);
    expect(messages(e)).toEqual(['the body is 104857600 bytes; the harness keeps 1 MiB: too large to judge']);
    expect(data(e)).toEqual([{ kind: 'unreadable-body', params: { reason: 'too-large', status: 200, receivedBytes: 100 * MiB, keptBytes: MiB } }]);
  });

  it('silences the shape rules even when what was kept parses', () => {
    const e = spoiled(exchange(create, 200, identityBody()), { truncated: { keptBytes: 64 * 1024, receivedBytes: 70_000 } });
    expect(failing(e)).toEqual(['id.content-type']);
    expect(messages(e)).toEqual(['the body is 70000 bytes; the harness keeps 64 KiB: too large to judge']);
    expect(judge(e, context).map((j) => j.rule)).not.toContain('id.response.schema');
  });
});

describe('an error answer whose body is not UTF-8', () => {
  const invalid = { ...update, body: { metadata: 'x' }, mode: 'invalid' as const, violates: 'fa.wrong-types-rejected' as const, label: 'metadata a string' };

  it('is a finding of fa.answers (the document shows no error body); the rejection itself still counts', () => {
    const e = spoiled(exchange(invalid, 400, '{"detail":"caf\uFFFD"}'), { invalidUtf8: true });
    expect(failing(e)).toEqual(['fa.answers']);
    expect(messages(e)).toEqual(['metadata a string: the error body (HTTP 400) is not valid UTF-8 (RFC 8259 8.1): {"detail":"caf\uFFFD"}']);
    expect(data(e)).toEqual([{ kind: 'unreadable-body', params: { reason: 'not-utf8', status: 400 } }]);
    expect(judge(e, context).find((j) => j.rule === 'fa.wrong-types-rejected')?.problems).toEqual([]);
  });

  it('is left alone when its Content-Type names another charset', () => {
    const e = spoiled(exchange(invalid, 400, 'caf\uFFFD', { 'content-type': 'text/plain; charset=ISO-8859-1' }), { invalidUtf8: true });
    expect(failing(e)).toEqual([]);
  });

  it('is a finding of id.answers for a create', () => {
    const e = spoiled(exchange({ ...create, mode: 'invalid', violates: 'id.tax.absent-rejected' }, 422, '{"error":"\uFFFD"}'), { invalidUtf8: true });
    expect(failing(e)).toEqual(['id.answers']);
  });
});

describe('a success that is not JSON at all', () => {
  it('is the content-type rule’s finding, with what came instead; the schema rule stays silent', () => {
    const e = exchange(update, 200, 'OK');
    expect(failing(e)).toEqual(['fa.content-type']);
    expect(messages(e)).toEqual(['the body is not JSON: OK']);
    expect(data(e)).toEqual([{ kind: 'unreadable-body', params: { reason: 'not-json', status: 200 } }]);
  });

  it('an empty body (204 No Content) is no JSON either', () => {
    const e = exchange(create, 204, '');
    expect(failing(e)).toEqual(['id.content-type']);
    expect(messages(e)).toEqual(['the body is empty, not JSON (HTTP 204)']);
    expect(data(e)).toEqual([{ kind: 'unreadable-body', params: { reason: 'empty', status: 204 } }]);
  });
});
