/**
 * The recording layer alone, around a fake `next`: the request a case makes, and the Exchange
 * built from whatever came back, including failures to send.
 */
import { describe, expect, it } from 'vitest';
import { recording } from '../../../src/engine/transport/recording.ts';
import { RunStop } from '../../../src/engine/run-stop.ts';
import { withHeader } from '../../../src/engine/transport/send.ts';
import { caseIntent, type TestCase } from '../../../src/core/case.ts';
import { toCurl } from '../../../src/report/model/curl.ts';
import { recordedCase } from '../../../src/report/model/recorded-case.ts';
import { USER_AGENT } from '../../../src/core/version.ts';
import { fakeSend, response } from './fake-send.ts';

const update: TestCase = { operation: 'updateFiatAccount', mode: 'valid', label: 'update', body: { metadata: { k: 'v' } }, fiatAccountId: 'acc 1' };

describe('recording', () => {
  it('sends the serialized body with JSON headers and records the body as JSON', async () => {
    const next = fakeSend(200);
    const exchange = await recording('http://target')(next)(update);
    expect(next.calls).toEqual([
      {
        method: 'PUT',
        url: 'http://target/v2/transfer/fiat-accounts/acc%201',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'user-agent': USER_AGENT },
        body: '{"metadata":{"k":"v"}}',
        onWire: expect.any(Function),
      },
    ]);
    const { onWire: _told, ...sent } = next.calls[0];
    expect(exchange.request).toEqual({ ...sent, body: { metadata: { k: 'v' } } });
    expect(exchange.testCase).toBe(update);
    expect(exchange.response?.status).toBe(200);
    expect(exchange).not.toHaveProperty('error');
    expect(Date.parse(exchange.startedAt)).not.toBeNaN();
  });

  it('tells the recorder of what went on the wire only: the attempts sent again, then the exchange', async () => {
    const heard: unknown[] = [];
    const wire = (status: number) => fakeSend(status);
    // A copy that went: the layer below says so, as counting.ts does.
    const went = wire(200);
    await recording('http://target', (sent) => heard.push(sent))(async (request) => {
      request.onWire?.();
      return went(request);
    })(update);
    expect(heard).toHaveLength(1);
    expect(heard[0]).toMatchObject({ testCase: update, response: { status: 200 } });
    // A 429 waited out, then a last copy that never went (the run was interrupted meanwhile).
    heard.length = 0;
    const earlier = { request: { method: 'PUT', url: 'http://target/x', headers: {} }, response: response(429) };
    const exchange = await recording('http://target', (sent) => heard.push(sent))(async (request) => {
      request.onWire?.();
      return { request, error: { kind: 'other', message: 'not sent: the run was interrupted' }, earlier: [earlier] };
    })(update);
    expect(exchange.resent).toHaveLength(1);
    expect(heard).toEqual([expect.objectContaining({ unjudged: 'sent-again', response: expect.objectContaining({ status: 429 }) })]);
  });

  it('sends and records rawBody verbatim', async () => {
    const next = fakeSend(400);
    const exchange = await recording('http://target')(next)({ ...update, body: undefined, rawBody: '{"a":' });
    expect(next.calls[0].body).toBe('{"a":');
    expect(exchange.request.rawBody).toBe('{"a":');
    expect(exchange.request).not.toHaveProperty('body');
  });

  it('sends a case about another method with that method, and records and reproduces it so (curl, replay)', async () => {
    const next = fakeSend(405);
    const patch: TestCase = { ...update, body: {}, method: 'PATCH', around: 'fa.other-methods-refused', mode: 'invalid', violates: 'fa.other-methods-refused' };
    const exchange = await recording('http://target')(next)(patch);
    expect(next.calls[0].method).toBe('PATCH');
    expect(exchange.request.method).toBe('PATCH');
    expect(toCurl(exchange.request)).toMatch(/^curl .*-X PATCH /);
    const failure = { message: 'x', case: caseIntent(patch), request: exchange.request, curl: '', seed: 1 };
    expect(recordedCase(failure)).toMatchObject({ method: 'PATCH', around: 'fa.other-methods-refused', fiatAccountId: 'acc 1', body: {} });
    const put = { ...failure, request: { ...exchange.request, method: 'PUT' }, case: caseIntent({ ...update, body: {} }) };
    expect(recordedCase(put)).not.toHaveProperty('method');
  });

  it('sends no Content-Type without a body, and keeps it with an empty raw body', async () => {
    const next = fakeSend(400);
    await recording('http://target')(next)({ ...update, body: undefined });
    await recording('http://target')(next)({ ...update, body: undefined, rawBody: '' });
    expect(next.calls[0].headers).not.toHaveProperty('content-type');
    expect(next.calls[0]).not.toHaveProperty('body');
    expect(next.calls[1].headers['content-type']).toBe('application/json');
    expect(next.calls[1].body).toBe('');
  });

  it('labels the body-less JSON request application/json with no body, and a replay rebuilds it from that label', async () => {
    const next = fakeSend(400);
    const bodyless: TestCase = { ...update, body: undefined, bodylessJson: true, around: 'fa.empty-body' };
    const exchange = await recording('http://target')(next)(bodyless);
    expect(next.calls[0].headers['content-type']).toBe('application/json');
    expect(next.calls[0]).not.toHaveProperty('body');
    expect(toCurl(exchange.request)).not.toContain('--data');
    const failure = { message: 'x', case: caseIntent(bodyless), request: exchange.request, curl: '', seed: 1 };
    expect(recordedCase(failure)).toMatchObject({ bodylessJson: true, around: 'fa.empty-body' });
    // Without the label it is the missing body; an empty raw body is no body-less request.
    const { 'content-type': _label, ...unlabelled } = exchange.request.headers;
    expect(recordedCase({ ...failure, request: { ...exchange.request, headers: unlabelled } })).not.toHaveProperty('bodylessJson');
    expect(recordedCase({ ...failure, request: { ...exchange.request, rawBody: '' } })).not.toHaveProperty('bodylessJson');
  });

  it('passes the credential asked for down, the option before the case', async () => {
    const next = fakeSend(401);
    await recording('http://target')(next)({ ...update, auth: 'invalid' });
    await recording('http://target')(next)({ ...update, auth: 'invalid' }, { auth: 'none' });
    await recording('http://target')(next)(update);
    expect(next.calls.map((r) => r.auth)).toEqual(['invalid', 'none', undefined]);
  });

  it('records the headers of the request the outcome answers (the last one sent, as the layers below show it)', async () => {
    const resent = async () => ({
      request: withHeader({ method: 'PUT', url: 'http://target/x', headers: {} }, 'authorization', 'Bearer [REDACTED]'),
      response: response(200),
    });
    const exchange = await recording('http://target')(resent)(update);
    expect(exchange.request.headers).toEqual({ authorization: 'Bearer [REDACTED]' });
  });

  it('records a response and an error together (a 429 still standing)', async () => {
    const next = fakeSend({ response: response(429), error: { kind: 'rate-limited', message: 'still 429' } });
    const exchange = await recording('http://target')(next)(update);
    expect(exchange.response?.status).toBe(429);
    expect(exchange.error).toEqual({ kind: 'rate-limited', message: 'still 429' });
  });

  it('records a body JSON cannot hold as "could not be sent", without sending', async () => {
    const next = fakeSend(200);
    const exchange = await recording('http://target')(next)({ ...update, body: { n: 1n } });
    expect(next.calls).toHaveLength(0);
    expect(exchange.request).toEqual({ method: 'PUT', url: 'http://target/v2/transfer/fiat-accounts/acc%201', headers: {} });
    expect(exchange.error?.kind).toBe('other');
    expect(exchange.error?.message).toMatch(/^the request could not be sent: .*BigInt/);
  });

  it('lets a RunStop from below through (no token mid-run): the run stops, nothing is recorded', async () => {
    const stop = new RunStop('token-endpoint', 'the token endpoint failed: HTTP 500');
    await expect(recording('http://target')(() => Promise.reject(stop))(update)).rejects.toBe(stop);
  });
});
