/**
 * An operation closed to the run's credentials (every request 403) stops the run as an
 * authorization problem; a 403 on only some requests is judged as any other answer.
 */
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/core/exchange.ts';
import type { Operation } from '../../src/core/operations.ts';
import { OperationAccess, OperationForbidden, accessAdvice, confirmingCase } from '../../src/engine/operation-access.ts';

const answer = (operation: Operation, status: number, extra: Partial<Exchange['testCase']> = {}, headers: Record<string, string> = {}): Exchange =>
  ({
    testCase: { operation, mode: 'valid', label: `a ${operation} case`, body: {}, ...extra },
    request: { method: 'POST', url: 'http://target/v2/identity/identities', headers: {} },
    response: { status, headers, body: '' },
  }) as unknown as Exchange;

/** An access check whose confirming requests answer `status`, counting them. */
function accessAnswering(status: number) {
  const sent: Operation[] = [];
  const access = new OperationAccess(async (operation) => {
    sent.push(operation);
    return answer(operation, status, confirmingCase(operation, 'acc'));
  });
  return { access, sent };
}

describe('OperationAccess', () => {
  it('a first 403 confirmed by a 403 to the minimal valid request stops the run, once per operation', async () => {
    const { access, sent } = accessAnswering(403);
    const stop = await access.check(answer('createIdentity', 403)).catch((e) => e);
    expect(stop).toBeInstanceOf(OperationForbidden);
    expect(stop.kind).toBe('authorization');
    expect(stop.message).toMatch(/^HTTP 403 to every POST \/v2\/identity\/identities: ask for a token allowed to call POST \/v2\/identity\/identities/);
    // Every later 403 waits on the same confirmation: no second confirming request.
    await expect(access.check(answer('createIdentity', 403))).rejects.toBeInstanceOf(OperationForbidden);
    expect(sent).toEqual(['createIdentity']);
  });

  it('a 403 after the operation answered otherwise is judged: no confirmation, no stop', async () => {
    const { access, sent } = accessAnswering(403);
    await access.check(answer('createIdentity', 201));
    await access.check(answer('createIdentity', 403));
    expect(sent).toEqual([]);
  });

  it('a first 403 whose confirming request is accepted is judged, and the operation counts as allowed', async () => {
    const { access, sent } = accessAnswering(201);
    await access.check(answer('createIdentity', 403));
    await access.check(answer('createIdentity', 403));
    expect(sent).toEqual(['createIdentity']);
  });

  it('a 403 to a request without the run credentials, or around the operation, says nothing of the token', async () => {
    const { access, sent } = accessAnswering(403);
    await access.check(answer('createIdentity', 403, { auth: 'invalid' }));
    await access.check(answer('createIdentity', 403, { around: 'id.other-methods-refused', method: 'DELETE' }));
    expect(sent).toEqual([]);
  });

  it('names the scope a 403 asks for (RFC 6750 insufficient_scope), else the operation', () => {
    const response = { status: 403, headers: { 'www-authenticate': 'Bearer error="insufficient_scope", scope="identity:write"' }, body: '' };
    expect(accessAdvice('createIdentity', response as never)).toContain('ask for a token with the scope "identity:write"');
    expect(accessAdvice('updateFiatAccount', undefined)).toContain('ask for a token allowed to call PUT /v2/transfer/fiat-accounts/{id}');
  });
});
