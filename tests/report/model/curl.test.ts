/**
 * curl lines in reports: the documented shape, no credential in them, and (with a real curl)
 * tricky bodies that reach a server byte for byte when the line is run by bash.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import fc from 'fast-check';
import { toCurl } from '../../../src/report/model/curl.ts';
import { shellQuote } from '../../../src/core/shell-word.ts';
import type { RecordedRequest } from '../../../src/core/exchange.ts';
import { startServer, type LocalServer } from '../../engine/transport/local-server.ts';

const URL_ = 'http://127.0.0.1:8080/v2/transfer/fiat-accounts/acc-1';
const request = (headers: Record<string, string>, extra: Partial<RecordedRequest> = {}): RecordedRequest => ({
  method: 'PUT',
  url: URL_,
  headers: { 'content-type': 'application/json', accept: 'application/json', 'user-agent': 'conformance/0.1.0', ...headers },
  ...extra,
});

describe('toCurl', () => {
  it('has the documented shape, with the token as a double-quoted $CONFORMANCE_TOKEN', () => {
    const line = toCurl(request({ authorization: 'Bearer [REDACTED]' }, { body: { metadata: { k: 'v' } } }));
    expect(line).toBe(
      `curl -sS -X PUT '${URL_}' -H 'Content-Type: application/json' -H 'Accept: application/json' ` +
        `-H "Authorization: Bearer $CONFORMANCE_TOKEN" --data-raw '{"metadata":{"k":"v"}}'`,
    );
  });

  it('leaves the Authorization header out for an unauthenticated case and keeps a deliberate wrong token', () => {
    expect(toCurl(request({}))).not.toMatch(/authorization/i);
    expect(toCurl(request({ authorization: 'Bearer not-a-real-token' }))).toContain(`-H 'Authorization: Bearer not-a-real-token'`);
  });

  it('prefers rawBody and sends no data when there is no body', () => {
    expect(toCurl(request({}, { rawBody: '{"a":', body: { a: 1 } }))).toMatch(/--data-raw '\{"a":'$/);
    expect(toCurl(request({}))).not.toContain('--data-raw');
  });

  it('turns globbing off for URLs with brackets', () => {
    expect(toCurl({ method: 'POST', url: 'http://[::1]:8080/v2/identity/identities', headers: {} })).toMatch(/^curl -sS -g -X POST /);
  });
});

describe('shellQuote', () => {
  // Shell-special characters often, any other code point (NUL aside: argv cannot hold it) the rest of the time.
  const textUnit = fc.oneof(
    fc.constantFrom("'", '"', '\\', '$', '`', '!', '\n', '\r', '\t', '\x7f', '😀', 'é'),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }).filter((c) => c !== '\0'),
  );
  const bashEcho = (word: string) => execFileSync('bash', ['-c', `printf '%s' ${word}`]);

  it('reads back exactly in bash for any text without NUL', () => {
    fc.assert(
      fc.property(fc.string({ unit: textUnit, maxLength: 40 }), (text) => {
        expect(bashEcho(shellQuote(text)).equals(Buffer.from(text, 'utf8'))).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});

const CURL = '/usr/bin/curl';
describe.skipIf(!existsSync(CURL))(`curl lines run by bash (skipped: no ${CURL} on this machine)`, () => {
  let server: LocalServer;
  beforeAll(async () => {
    server = await startServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  afterAll(() => server.close());

  const tricky = [
    `{"name":"O'Brien \\"the\\" one"}`,
    '{"emoji":"😀👩‍💻","cjk":"漢字","accents":"é"}',
    '{"shell":"$HOME `id` $(id) \\\\ !! \' \'\\\\\'\' %s"}',
    '{"a":\n\t"line\r\nbreak"',
  ];

  it.each(tricky)('delivers %j unchanged, with the token from the environment', async (body) => {
    const secret = 'env-t0ken-value';
    const line = toCurl({
      method: 'POST',
      url: `${server.url}/v2/identity/identities`,
      headers: { 'content-type': 'application/json', authorization: 'Bearer [REDACTED]' },
      rawBody: body,
    });
    expect(line).not.toContain(secret);
    await new Promise<void>((resolve, reject) =>
      execFile('bash', ['-c', line], { env: { ...process.env, CONFORMANCE_TOKEN: secret } }, (error) => (error ? reject(error) : resolve())),
    );
    const seen = server.seen.at(-1)!;
    expect(seen.method).toBe('POST');
    expect(seen.url).toBe('/v2/identity/identities');
    expect(seen.body).toBe(body);
    expect(seen.headers.authorization).toBe(`Bearer ${secret}`);
  });
});
