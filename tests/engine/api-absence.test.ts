/**
 * Telling an answer of the API from an answer of something else at the base URL (a static file
 * server, a web front end, a wrong prefix), and what to say about the base URL.
 */
import { describe, expect, it } from 'vitest';
import { baseUrlHint, checkServesApi, notFromTheApi } from '../../src/engine/api-absence.ts';
import type { Exchange, RecordedResponse } from '../../src/core/exchange.ts';
import type { TestCase } from '../../src/core/case.ts';
import { RouteNotFoundError } from '../../src/core/errors.ts';

const answer = (status: number, contentType: string, rawBody: string): RecordedResponse => {
  let json = false;
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
    json = true;
  } catch {}
  return { status, headers: contentType ? { 'content-type': contentType } : {}, rawBody, json, ...(json ? { body } : {}) };
};

const exchange = (method: string, url: string, response?: RecordedResponse): Exchange => ({
  testCase: { operation: 'updateFiatAccount', mode: 'valid', label: 'read' } as TestCase,
  request: { method, url, headers: {} },
  ...(response ? { response } : {}),
  startedAt: new Date(0).toISOString(),
  durationMs: 1,
});

describe('notFromTheApi', () => {
  it.each([
    [answer(200, 'text/html', '<!doctype html><p>index</p>'), /^HTTP 200, an HTML page \(text\/html\)$/],
    [answer(501, 'text/html;charset=utf-8', '<html>Unsupported method</html>'), /^HTTP 501, an HTML page/],
    [answer(404, '', '<html>no</html>'), /^HTTP 404, an HTML page \(no content type\)$/],
    [answer(405, 'text/plain', 'Method Not Allowed'), /^HTTP 405, not JSON \(text\/plain\)$/],
    [answer(404, '', ''), /^HTTP 404, not JSON/],
  ])('an answer no API gives at a documented path: %#', (response, why) => {
    expect(notFromTheApi({ response })).toMatch(why);
  });

  it.each([
    ['a JSON 404 (an unknown account)', answer(404, 'application/json', '{"error":"not found"}')],
    ['a JSON 405', answer(405, 'application/json', '{"error":"method"}')],
    ['a refusal in plain text', answer(400, 'text/plain', 'bad request')],
    ['a success in JSON', answer(200, 'application/json', '{"id":"x"}')],
  ])('may come from the API: %s', (_name, response) => {
    expect(notFromTheApi({ response })).toBeUndefined();
  });

  it('no answer at all is another matter (unreachable)', () => {
    expect(notFromTheApi({})).toBeUndefined();
  });
});

describe('checkServesApi', () => {
  const read = exchange('PUT', 'http://h/v2/transfer/fiat-accounts/a', answer(501, 'text/html', '<html/>'));
  const sender = (response: RecordedResponse) => {
    const sent: TestCase[] = [];
    return { sent, send: async (c: TestCase) => (sent.push(c), exchange('POST', 'http://h/v2/identity/identities', response)) };
  };

  it('every read not the API, and the create neither: RouteNotFoundError naming both, exit 2', async () => {
    const { send, sent } = sender(answer(501, 'text/html', '<html/>'));
    const error = await checkServesApi([read], send).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RouteNotFoundError);
    expect((error as RouteNotFoundError).exitCode).toBe(2);
    expect((error as Error).message).toMatch(
      /^the base URL does not serve the API: PUT http:\/\/h\/v2\/transfer\/fiat-accounts\/a answered HTTP 501, an HTML page/,
    );
    expect(sent).toHaveLength(1);
  });

  it('the create answers as an API does: no error (a JSON 404 on the update is an unknown account)', async () => {
    const { send } = sender(answer(400, 'application/json', '{"error":"tax_details"}'));
    await expect(checkServesApi([exchange('PUT', 'http://h/x', answer(404, 'application/json', '{}'))], send)).resolves.toBeUndefined();
  });

  it('a read the API answered: nothing more is sent', async () => {
    const { send, sent } = sender(answer(501, 'text/html', '<html/>'));
    await checkServesApi([read, exchange('PUT', 'http://h/y', answer(200, 'application/json', '{"id":"y"}'))], send);
    expect(sent).toEqual([]);
  });
});

describe('baseUrlHint', () => {
  it('/v2 already in the base URL: give the host only', () => {
    expect(baseUrlHint('https://api.example.com/v2/transfer/v2/identity/identities')).toMatch(
      /^\/v2 is part of the document's paths: give the host only \(https:\/\/api\.example\.com\)/,
    );
  });
  it('another prefix: is it the API\u2019s?', () => {
    expect(baseUrlHint('https://example.com/static/v2/identity/identities')).toMatch(/is \/static the API's path prefix\? if not, give the host only/);
  });
  it('no prefix: the API may sit under one', () => {
    expect(baseUrlHint('https://example.com/v2/identity/identities')).toMatch(/if the API sits under a path prefix/);
  });
});
