/**
 * A target that shows account numbers masked (`****1234`): the restore must not write the mask
 * back as an account number, must put back what it can, and must name what it could not.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Exchange } from '../../../src/core/exchange.ts';
import { AccountRestore } from '../../../src/engine/restore/account-restore.ts';
import { createTransport, type Transport } from '../../../src/engine/transport/transport.ts';

const ID = '6f1c2a8e-3b1d-4c55-9a77-0d4a1e2b3c4d';
const TOKEN = 'test-token-masked';

/** A transport to the test's target: its token, no rate limit, no retries. */
const transportTo = (baseUrl: string, concurrency: number) =>
  createTransport({ baseUrl, auth: { kind: 'static', token: TOKEN }, timeoutMs: 5_000, rateLimitPerSecond: null, concurrency, maxRetries: 0 });

/** A restore of `ids` over the transport, never interrupted, under the given metadata semantics. */
const restoreOver = (
  transport: Transport,
  ids: string[],
  semantics: 'replace' | 'merge' | 'unknown',
  record: (e: Exchange) => void = () => {},
  patienceMs = 0,
) =>
  new AccountRestore({
    ids,
    patienceMs,
    send: (c) => transport.sendCleanup(c),
    record: async (e) => record(e),
    semantics: () => semantics,
    interrupted: () => false,
  });

interface Stored {
  first_name: string;
  account_number: string;
  bank_name: string;
}

/** One fiat account; updates merge the wire; answers show the account number masked. */
async function maskingTarget() {
  const stored: Stored = { first_name: 'Ada', account_number: '1000001234', bank_name: 'Example National Bank' };
  const writes: unknown[] = [];
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      // Any account id: the accounts share one record (enough for these tests).
      if (req.headers.authorization !== `Bearer ${TOKEN}`) {
        res.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
        return;
      }
      if (!req.url?.startsWith('/v2/transfer/fiat-accounts/') || (req.method !== 'PUT' && req.method !== 'GET')) {
        res.writeHead(404).end();
        return;
      }
      // A GET reads: the same answer as an empty update.
      const body = req.method === 'GET' ? {} : JSON.parse(text || '{}');
      if (Object.keys(body).length) writes.push(body);
      const wire = body.fiat_network_instructions?.wire ?? {};
      if (typeof body.fiat_account_owner?.person_details?.first_name === 'string') stored.first_name = body.fiat_account_owner.person_details.first_name;
      if (typeof wire.account_number === 'string') stored.account_number = wire.account_number;
      if (typeof wire.routing_details?.bank_name === 'string') stored.bank_name = wire.routing_details.bank_name;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: ID,
          status: 'PENDING',
          created_at: '2024-03-01T10:00:00Z',
          fiat_account_owner: { person_details: { first_name: stored.first_name, last_name: 'Lovelace' } },
          fiat_network_instructions: {
            wire: { account_number: `****${stored.account_number.slice(-4)}`, routing_details: { bank_name: stored.bank_name } },
          },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let closed = false;
  const close = () => {
    if (closed) return Promise.resolve();
    closed = true;
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { baseUrl, stored, writes, close };
}

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe('restoring on a target that masks account numbers', () => {
  it('puts back the names and the bank, never writes the mask, and names the account number as not restored', async () => {
    const target = await maskingTarget();
    close = target.close;
    const transport = transportTo(target.baseUrl, 2);
    const recorded: Exchange[] = [];
    const restore = restoreOver(transport, [ID], 'replace', (e) => recorded.push(e));
    await restore.readStart();
    // What a run does to the account.
    Object.assign(target.stored, { first_name: 'Zoë 😀', account_number: '9999995678', bank_name: 'Other Bank' });

    const summary = await restore.finish();

    expect(target.writes).toHaveLength(1);
    expect(JSON.stringify(target.writes[0])).not.toContain('*');
    expect(target.stored).toEqual({ first_name: 'Ada', account_number: '9999995678', bank_name: 'Example National Bank' });
    const [account] = summary.accounts;
    expect(account.outcome).toBe('partly-restored');
    expect(account.restored).toEqual(['fiat_account_owner.person_details.first_name', 'fiat_network_instructions.wire.routing_details.bank_name']);
    expect(account.notRestored).toEqual([
      expect.objectContaining({ field: 'fiat_network_instructions.wire.account_number', reason: expect.stringContaining('masked ("****1234")'), final: true }),
    ]);
    // Start read, end read, write-back, read-back: each recorded as a restore step, none judged.
    expect(recorded.map((e) => e.testCase.restore)).toEqual(['start-read', 'end-read', 'write-back', 'read-back']);
    expect(summary.requests).toBe(4);
    expect(transport.requestCount).toBe(4);
  });

  it('credentials refused at the start read: nothing is journaled, nothing written, and the run is told (no account it could put back)', async () => {
    const target = await maskingTarget();
    close = target.close;
    const transport = createTransport({
      baseUrl: target.baseUrl,
      auth: { kind: 'static', token: 'wrong-token' },
      timeoutMs: 5_000,
      rateLimitPerSecond: null,
      concurrency: 1,
      maxRetries: 0,
    });
    const second = '7a2d3b9f-4c2e-4d66-8b88-1e5b2f3c4d5e';
    const restore = restoreOver(transport, [ID, second], 'unknown');
    await expect(restore.readStart()).rejects.toThrow(/refused the credentials \(HTTP 401 to a read of fiat account/);
    const summary = await restore.finish();
    // Credentials refused on the first account are not tried again on the second; neither is written to.
    expect(summary.accounts.map((a) => [a.outcome, a.reason])).toEqual([
      ['left-alone', expect.stringMatching(/^the start read was answered HTTP 401.*sent it nothing/)],
      ['left-alone', expect.stringMatching(/ended before the account was read/)],
    ]);
    expect(transport.requestCount).toBe(1);
    expect(target.writes).toEqual([]);
  });

  it('a target that stayed away past the patience: each account is unknown, the later ones tried once', async () => {
    const target = await maskingTarget();
    close = target.close;
    const transport = transportTo(target.baseUrl, 1);
    const other = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
    const restore = restoreOver(transport, [ID, other], 'replace');
    await restore.readStart();
    await target.close();
    const summary = await restore.finish();
    expect(summary.accounts.map((a) => [a.outcome, a.reason])).toEqual([
      ['unknown', expect.stringMatching(/^the end read got no answer \(connection: .*may be changed/)],
      ['unknown', expect.stringMatching(/^the end read got no answer/)],
    ]);
    // Two start reads and one end read each (no patience in this test).
    expect(transport.requestCount).toBe(4);
  });
});
