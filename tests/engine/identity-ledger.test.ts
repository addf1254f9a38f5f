/**
 * The ledger lists every identity that may exist: created ones by id, and creates whose answer was
 * lost by the ref_id they sent, unknown, until a later answer for that ref_id names the identity.
 */
import { describe, expect, it } from 'vitest';
import type { Exchange, RecordedResponse, TransportError } from '../../src/core/exchange.ts';
import { IdentityLedger } from '../../src/engine/identity-ledger.ts';

const TAG = 'conformance-1-x';
const SENT_AT = '2026-01-01T00:00:00.000Z';

function create(refId: string | undefined, answer: { response?: Partial<RecordedResponse>; error?: TransportError }, method = 'POST'): Exchange {
  const body = { ...(refId !== undefined ? { ref_id: refId } : {}), tax_details_not_required: true };
  return {
    testCase: { operation: 'createIdentity', mode: 'valid', label: 'create', body },
    request: { method, url: 'http://t/v2/identity/identities', headers: {} },
    ...(answer.response ? { response: { status: 200, headers: {}, rawBody: '', json: false, ...answer.response } } : {}),
    ...(answer.error ? { error: answer.error } : {}),
    startedAt: SENT_AT,
    durationMs: 1,
  };
}
const answered = (refId: string, id: string, status = 201) =>
  create(refId, { response: { status, json: true, body: { id, created_at: '2026-01-01T00:00:01Z' } } });

describe('IdentityLedger', () => {
  it('lists a create whose answer was lost as unknown, with the ref_id it sent and why', () => {
    const ledger = new IdentityLedger(TAG);
    ledger.observe(answered(`${TAG}-1`, 'id-1'));
    ledger.observe(create(`${TAG}-2`, { error: { kind: 'timeout', message: 'no answer within 10000 ms' } }));
    ledger.observe(create(`${TAG}-3`, { error: { kind: 'connection', message: 'ECONNRESET: socket hang up' } }));
    ledger.observe(create(`${TAG}-4`, { response: { status: 500, rawBody: 'oops' } }));
    ledger.observe(create(`${TAG}-5`, { response: { status: 201, rawBody: '{"id":"', truncated: { keptBytes: 1_048_576, receivedBytes: 2_000_000 } } }));
    ledger.observe(create(`${TAG}-6`, { error: { kind: 'other', message: 'given up 2000 ms after the run was interrupted' } }));
    ledger.observe(create(`${TAG}-7`, { response: { status: 201, json: true, body: { status: 'PENDING' } } }));
    ledger.observe(create(`${TAG}-8`, { error: { kind: 'other', message: 'HPE_UNEXPECTED_CONTENT_LENGTH' } }));
    expect(ledger.list()).toEqual([
      { outcome: 'created', id: 'id-1', refId: `${TAG}-1`, runTag: TAG, createdAt: '2026-01-01T00:00:01Z' },
      { outcome: 'unknown', refId: `${TAG}-2`, runTag: TAG, why: 'timeout', sentAt: SENT_AT },
      { outcome: 'unknown', refId: `${TAG}-3`, runTag: TAG, why: 'connection', sentAt: SENT_AT },
      { outcome: 'unknown', refId: `${TAG}-4`, runTag: TAG, why: 'server-error', sentAt: SENT_AT },
      { outcome: 'unknown', refId: `${TAG}-5`, runTag: TAG, why: 'too-large', sentAt: SENT_AT },
      { outcome: 'unknown', refId: `${TAG}-6`, runTag: TAG, why: 'interrupted', sentAt: SENT_AT },
      { outcome: 'unknown', refId: `${TAG}-7`, runTag: TAG, why: 'no-id', sentAt: SENT_AT },
      { outcome: 'unknown', refId: `${TAG}-8`, runTag: TAG, why: 'other', sentAt: SENT_AT },
    ]);
  });

  it('leaves out what created nothing: a refusal, a 429 waited out in vain, a read', () => {
    const ledger = new IdentityLedger(TAG);
    ledger.observe(create(`${TAG}-1`, { response: { status: 400, json: true, body: { message: 'tax_details required' } } }));
    ledger.observe(create(`${TAG}-2`, { response: { status: 409 } }));
    ledger.observe(create(`${TAG}-3`, { response: { status: 429 }, error: { kind: 'rate-limited', message: 'still 429 Too Many Requests after 3' } }));
    ledger.observe(create(`${TAG}-4`, { error: { kind: 'timeout', message: 'no answer' } }, 'GET'));
    expect(ledger.list()).toEqual([]);
  });

  it('turns the unknown into created when a later answer for the same ref_id names the identity', () => {
    const ledger = new IdentityLedger(TAG);
    ledger.observe(create(`${TAG}-1`, { error: { kind: 'timeout', message: 'no answer' } }));
    ledger.observe(create(`${TAG}-2`, { error: { kind: 'timeout', message: 'no answer' } }));
    // The scenario sends ref_id 1 again: the target gives the identity it stored the first time.
    ledger.observe(answered(`${TAG}-1`, 'id-1', 200));
    expect(ledger.list()).toEqual([
      { outcome: 'unknown', refId: `${TAG}-2`, runTag: TAG, why: 'timeout', sentAt: SENT_AT },
      { outcome: 'created', id: 'id-1', refId: `${TAG}-1`, runTag: TAG, createdAt: '2026-01-01T00:00:01Z' },
    ]);
  });

  it('adds nothing for a lost answer to a repeat of a ref_id already named, nor twice for one ref_id', () => {
    const ledger = new IdentityLedger(TAG);
    ledger.observe(answered(`${TAG}-1`, 'id-1'));
    ledger.observe(create(`${TAG}-1`, { response: { status: 503 } }));
    ledger.observe(create(`${TAG}-2`, { response: { status: 503 } }));
    ledger.observe(create(`${TAG}-2`, { error: { kind: 'connection', message: 'ECONNRESET' } }));
    expect(ledger.list().map((e) => [e.outcome, e.refId])).toEqual([
      ['created', `${TAG}-1`],
      ['unknown', `${TAG}-2`],
    ]);
  });

  it('lists each lost create that sent no ref_id on its own: the run tag in its metadata finds it', () => {
    const ledger = new IdentityLedger(TAG);
    ledger.observe(create(undefined, { response: { status: 500 } }));
    ledger.observe(create(undefined, { response: { status: 500 } }));
    expect(ledger.list()).toEqual([
      { outcome: 'unknown', runTag: TAG, why: 'server-error', sentAt: SENT_AT },
      { outcome: 'unknown', runTag: TAG, why: 'server-error', sentAt: SENT_AT },
    ]);
  });

  it('keeps an id that reads like an unknown entry key apart from it', () => {
    const ledger = new IdentityLedger(TAG);
    ledger.observe(create('x', { response: { status: 500 } }));
    ledger.observe(answered('y', 'ref:x'));
    expect(ledger.list().map((e) => e.outcome)).toEqual(['unknown', 'created']);
  });
});
