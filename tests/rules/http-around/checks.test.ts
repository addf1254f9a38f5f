/**
 * The checks of HTTP around the two operations: other methods and empty bodies are judged by
 * their own rule alone (whatever the answer holds), and a 401 must name the Bearer scheme.
 */
import { describe, expect, it } from 'vitest';
import { judge } from '../../../src/rules/judge.ts';
import type { Exchange } from '../../../src/core/exchange.ts';
import type { TestCase } from '../../../src/core/case.ts';
import { challengeSchemes } from '../../../src/rules/http-around/checks.ts';
import { ACCOUNT_ID, exchange, fiatAccountBody, identityBody, identityRequest } from '../exchange-builders.ts';

const context = { fiatAccountIds: [ACCOUNT_ID], mergeMayExceedLimit: () => false };
const verdicts = (e: Exchange) => Object.fromEntries(judge(e, context).map((j) => [j.rule, j.problems.map((p) => p.message)]));

/** A case as the generators make it (src/rules/http-around/cases.ts), sent with `method`. */
function around(
  operation: TestCase['operation'],
  rule: TestCase['around'],
  mustRefuse: boolean,
  method?: string,
  body?: unknown,
): Partial<TestCase> & Pick<TestCase, 'operation'> {
  return {
    operation,
    mode: mustRefuse ? 'invalid' : 'valid',
    ...(mustRefuse ? { violates: rule } : {}),
    around: rule,
    label: method ? `${method} case` : 'empty body case',
    ...(method ? { method } : {}),
    ...(body !== undefined ? { body } : {}),
  };
}

/** The exchange as the transport records it: the request shows the method that went. */
function sent(c: Partial<TestCase> & Pick<TestCase, 'operation'>, status: number, body: unknown, headers?: Record<string, string>): Exchange {
  const e = exchange(c, status, body, headers);
  return { ...e, request: { ...e.request, method: c.method ?? e.request.method } };
}

describe('other methods on the two paths', () => {
  it.each([405, 404, 400, 403])('PATCH on the account refused with %i passes', (status) => {
    expect(verdicts(sent(around('updateFiatAccount', 'fa.other-methods-refused', true, 'PATCH', {}), status, { error: 'x' }))).toEqual({
      'fa.other-methods-refused': [],
      'fa.answers': [],
    });
  });

  it('PATCH on the account answered 500 fails its rule, and no other', () => {
    const v = verdicts(sent(around('updateFiatAccount', 'fa.other-methods-refused', true, 'PATCH', {}), 500, { error: 'internal' }));
    expect(Object.keys(v).sort()).toEqual(['fa.answers', 'fa.other-methods-refused']);
    expect(v['fa.other-methods-refused']).toEqual(['PATCH case (PATCH): the server failed (HTTP 500) instead of answering']);
  });

  it('PUT on the identities path accepted as a create fails its rule, not the create rules, whatever the body holds', () => {
    const v = verdicts(sent(around('createIdentity', 'id.other-methods-refused', true, 'PUT', identityRequest()), 201, identityBody({ status: 'oops' })));
    expect(v).toEqual({ 'id.other-methods-refused': ['PUT case (PUT): accepted (HTTP 201), expected a refusal with a 4xx'], 'id.answers': [] });
  });

  it('a redirect is no refusal', () => {
    expect(verdicts(sent(around('createIdentity', 'id.other-methods-refused', true, 'DELETE'), 302, ''))['id.other-methods-refused']).toEqual([
      'DELETE case (DELETE): answered HTTP 302, expected a 4xx',
    ]);
  });

  it('GET may get a 2xx (a get or a list of the service), judged only for a 5xx; its body is judged by nothing', () => {
    const list = sent(around('createIdentity', 'id.other-methods-refused', false, 'GET'), 200, { items: [{ id: 1 }] });
    expect(verdicts(list)).toEqual({ 'id.other-methods-refused': [], 'id.answers': [] });
    const get = sent(around('updateFiatAccount', 'fa.other-methods-refused', false, 'GET'), 200, fiatAccountBody({ status: 'weird' }), {
      'content-type': 'text/plain',
    });
    expect(verdicts(get)).toEqual({ 'fa.other-methods-refused': [], 'fa.answers': [] });
    const failing = sent(around('updateFiatAccount', 'fa.other-methods-refused', false, 'OPTIONS'), 503, '');
    expect(verdicts(failing)['fa.other-methods-refused']).toHaveLength(1);
  });

  it('no answer judges nothing of the rule (the answers rule reports it), and a 429 still standing neither', () => {
    const c = around('updateFiatAccount', 'fa.other-methods-refused', true, 'POST', {});
    const dropped: Exchange = { ...sent(c, 200, {}), response: undefined, error: { kind: 'connection', message: 'reset' } };
    expect(verdicts(dropped)).toEqual({ 'fa.answers': ['POST case: connection: reset'] });
    const limited: Exchange = { ...sent(c, 429, {}), error: { kind: 'rate-limited', message: 'still 429' } };
    expect(verdicts(limited)['fa.other-methods-refused']).toBeUndefined();
  });
});

describe('empty and missing bodies', () => {
  it('an empty update may be refused or taken as {}, never a 5xx', () => {
    const c = around('updateFiatAccount', 'fa.empty-body', false);
    expect(verdicts(sent(c, 400, {}))['fa.empty-body']).toEqual([]);
    expect(verdicts(sent(c, 200, fiatAccountBody()))).toEqual({ 'fa.empty-body': [], 'fa.answers': [] });
    expect(verdicts(sent(c, 500, {}))['fa.empty-body']).toHaveLength(1);
  });

  it('an empty create must be refused with a 4xx: taken as {}, it lacks tax_details', () => {
    const c = around('createIdentity', 'id.empty-body', true);
    expect(verdicts(sent(c, 422, {}))['id.empty-body']).toEqual([]);
    expect(verdicts(sent(c, 201, identityBody()))).toEqual({
      'id.empty-body': ['empty body case (POST): accepted (HTTP 201), expected a refusal with a 4xx'],
      'id.answers': [],
    });
    expect(verdicts(sent(c, 502, ''))['id.empty-body']).toHaveLength(1);
  });
});

describe('the challenge of a 401', () => {
  const unauthenticated = (operation: TestCase['operation']) => ({
    operation,
    auth: 'none' as const,
    body: operation === 'createIdentity' ? identityRequest() : {},
  });
  const answer401 = (operation: TestCase['operation'], headers: Record<string, string>) =>
    exchange(unauthenticated(operation), 401, { error: 'unauthorized' }, { 'content-type': 'application/json', ...headers });
  const rule = (operation: TestCase['operation']) => (operation === 'updateFiatAccount' ? 'fa.auth-challenge' : 'id.auth-challenge');

  it.each([
    'Bearer',
    'Bearer realm="api"',
    'bearer realm="api", error="invalid_token"',
    'BEARER',
    'Basic realm="x", Bearer realm="api"',
    'Basic realm="a, Bearer b", Bearer',
    'Newauth realm="apps", type=1, title="Login to \\"apps\\"", Bearer scope="a b"',
  ])('passes %s', (header) => {
    for (const operation of ['updateFiatAccount', 'createIdentity'] as const) {
      expect(verdicts(answer401(operation, { 'www-authenticate': header }))[rule(operation)]).toEqual([]);
    }
  });

  it.each([
    ['no header', {}, 'the 401 carries no WWW-Authenticate header'],
    ['an empty header', { 'www-authenticate': ' ' }, 'the 401 carries no WWW-Authenticate header'],
    ['Basic only', { 'www-authenticate': 'Basic realm="api"' }, 'names Basic, not Bearer'],
    ['Bearer only inside a quoted realm', { 'www-authenticate': 'Basic realm="Bearer, please"' }, 'names Basic, not Bearer'],
    ['bearer as a parameter name', { 'www-authenticate': 'Digest bearer=1' }, 'names Digest, not Bearer'],
    ['BearerToken', { 'www-authenticate': 'BearerToken realm="x"' }, 'names BearerToken, not Bearer'],
  ])('fails %s', (_name, headers, message) => {
    const v = verdicts(answer401('createIdentity', headers));
    expect(v['id.auth-challenge']).toHaveLength(1);
    expect(v['id.auth-challenge'][0]).toContain(message);
    expect(v['id.auth-401']).toEqual([]);
  });

  it('judges only 401 answers to cases without valid credentials', () => {
    expect(verdicts(exchange(unauthenticated('updateFiatAccount'), 403, {}))['fa.auth-challenge']).toBeUndefined();
    expect(verdicts(exchange({ operation: 'updateFiatAccount', body: {} }, 401, {}))['fa.auth-challenge']).toBeUndefined();
  });

  it('reads the schemes of a challenge list', () => {
    expect(challengeSchemes('Newauth realm="apps", type=1, title="Login, \\"apps\\"", Basic realm="simple"')).toEqual(['Newauth', 'Basic']);
    expect(challengeSchemes('Bearer abc123==, Basic')).toEqual(['Bearer', 'Basic']);
    expect(challengeSchemes('realm = "x"')).toEqual([]);
  });
});
