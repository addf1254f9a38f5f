/**
 * ref_ids repeated on a renewed access token (issue 32, item 2): a server that keys its ref_id
 * index by token fails, with the token generations in the evidence and never a token; a token
 * endpoint that hands back the same token is "no renewal happened", said and not judged; one that
 * issues nothing when asked again leaves the rule inconclusive and the run going on its token.
 */
import http from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../../src/api/index.ts';
import type { HarEntry } from '../../../src/report/files/har.ts';
import { rejudgeHar } from '../../../src/run/har-rejudge.ts';
import { createReferenceServer, type ReferenceServer } from '../../../src/server/server.ts';
import { listenOnLoopback, type Listening } from '../../foreign/loopback-listen.ts';

const RULE = 'id.ref-id.across-tokens';
const folders: string[] = [];
const folder = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'across-tokens-'));
  folders.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

const harOf = (dir: string): HarEntry[] => JSON.parse(readFileSync(path.join(dir, 'exchanges.har'), 'utf8')).log.entries;
const credentialsOf = (server: ReferenceServer, tokenUrl = server.tokenUrl) => ({ tokenUrl, clientId: server.clientId, clientSecret: server.clientSecret });

/** A token from the embedded server's own endpoint. */
async function issuedToken(server: ReferenceServer): Promise<string> {
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: server.clientId, client_secret: server.clientSecret });
  const reply = await fetch(server.tokenUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
  return ((await reply.json()) as { access_token: string }).access_token;
}

/**
 * A token endpoint in front of the server's: `answer(n)` says what its n-th token request (from 1)
 * gets: the server's first token again ('same'), or a refusal of the client ('refuse').
 */
async function tokenEndpoint(server: ReferenceServer, answer: (n: number) => 'same' | 'refuse'): Promise<Listening & { requests: () => number }> {
  const token = await issuedToken(server);
  let requests = 0;
  const listening = await listenOnLoopback(
    http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const refused = answer(++requests) === 'refuse';
        res.writeHead(refused ? 400 : 200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        res.end(JSON.stringify(refused ? { error: 'invalid_client' } : { access_token: token, token_type: 'Bearer', expires_in: 3600 }));
      });
    }),
  );
  return { ...listening, url: `${listening.url}/token`, requests: () => requests };
}

describe('a used ref_id repeated on a renewed token', () => {
  it('a ref_id index kept per access token fails the rule: the repeat on token 2 made a second identity; the evidence names generations, never a token', async () => {
    const dir = folder();
    const { report, exitCode } = await runConformance({ fault: 'id-ref-id-scoped-by-token', rules: [RULE], profile: 'quick', seed: 3, reportDir: dir });
    const rule = report.rules.find((r) => r.id === RULE)!;
    expect(rule.status).toBe('failed');
    expect(rule.failures[0].message).toMatch(/was used again and a second identity .* was created \(first: /);
    expect(exitCode).toBe(1);
    // Its reproduction says the repeat needs a new token, never which one.
    expect(rule.failures[0].curl).toContain(
      '2/2 the repeat with the same ref_id, on another access token (the run sent it on its token 2, the first on token 1): put a new token from the token endpoint in CONFORMANCE_TOKEN first:',
    );
    const entries = harOf(dir);
    // The creates went on the first token, the repeats on the second; one renewal in between.
    const repeats = entries.filter((e) => e._case?.mode === 'duplicate' && e._case.exercises === RULE);
    expect(repeats).toHaveLength(2);
    expect(new Set(repeats.map((e) => e._tokenGeneration))).toEqual(new Set([2]));
    const creates = entries.filter((e) => e._case?.operation === 'createIdentity' && e._case.mode !== 'duplicate');
    expect(new Set(creates.map((e) => e._tokenGeneration))).toEqual(new Set([1]));
    const text = readFileSync(path.join(dir, 'exchanges.har'), 'utf8') + readFileSync(path.join(dir, 'conformance.json'), 'utf8');
    expect(text).not.toMatch(/Bearer (?!\[REDACTED\]|\$CONFORMANCE_TOKEN)/);
    // The recorded exchanges judge it the same way offline.
    expect(rejudgeHar(entries).rules.find((r) => r.id === RULE)?.status).toBe('failed');
  });

  it('the faithful server passes it with client credentials, on two token generations', async () => {
    const dir = folder();
    const { report, exitCode } = await runConformance({ rules: [RULE], profile: 'quick', seed: 3, reportDir: dir });
    expect(report.rules.find((r) => r.id === RULE)).toMatchObject({ status: 'passed', cases: 2 });
    expect(exitCode).toBe(0);
    expect(rejudgeHar(harOf(dir)).rules.find((r) => r.id === RULE)?.status).toBe('passed');
  });

  describe('against token endpoints that do not renew', () => {
    let server: ReferenceServer;
    beforeAll(async () => {
      server = await createReferenceServer({ fault: 'id-ref-id-scoped-by-token' });
    });
    afterAll(() => server.close());

    it('one that hands back the same token: no renewal happened, said and not judged (ruled out, not a pass, not a failure)', async () => {
      const endpoint = await tokenEndpoint(server, () => 'same');
      try {
        const { report, exitCode } = await runConformance({
          baseUrl: server.baseUrl,
          clientCredentials: credentialsOf(server, endpoint.url),
          fiatAccountIds: server.fiatAccountIds,
          rules: [RULE],
          profile: 'quick',
          seed: 3,
        });
        const rule = report.rules.find((r) => r.id === RULE)!;
        expect(rule).toMatchObject({ status: 'inconclusive', ruledOutBy: { setting: 'the token endpoint' } });
        expect(rule.reason).toContain('the token endpoint handed back the same access token: no renewal happened');
        // Every rule ruled out: nothing was judged, never a pass.
        expect(report.summary.verdict).toBe('inconclusive');
        expect(exitCode).toBe(4);
        // The first token (HTTP Basic taken) and the forced renewal.
        expect(endpoint.requests()).toBe(2);
      } finally {
        await endpoint.close();
      }
    });

    it('one that refuses the forced renewal: the rule is inconclusive with why, and the run goes on with its token', async () => {
      const endpoint = await tokenEndpoint(server, (n) => (n === 1 ? 'same' : 'refuse'));
      try {
        const { report } = await runConformance({
          baseUrl: server.baseUrl,
          clientCredentials: credentialsOf(server, endpoint.url),
          fiatAccountIds: server.fiatAccountIds,
          rules: ['id.ref-id.'],
          profile: 'quick',
          seed: 3,
        });
        const rule = report.rules.find((r) => r.id === RULE)!;
        expect(rule.status).toBe('inconclusive');
        expect(rule.ruledOutBy).toBeUndefined();
        expect(rule.reason).toMatch(
          /the token endpoint issued no new token when asked \(the token endpoint .* refused the client credentials: HTTP 400 invalid_client/,
        );
        expect(report.stopped).toBeUndefined();
        // The scenarios before it were judged on the one token.
        expect(report.rules.find((r) => r.id === 'id.ref-id.sequential-duplicate')?.status).toBe('passed');
      } finally {
        await endpoint.close();
      }
    });
  });
});
