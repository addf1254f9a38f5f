/**
 * exchanges.har written as the run goes (src/report/files/har-file.ts): entries reach the disk before
 * the run ends, the file is valid JSON however the run ended, secrets are redacted as known at
 * each moment, and long bodies are cut with a note.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HAR_FILE, HAR_PARTIAL_FILE, HarFile } from '../../../src/report/files/har-file.ts';
import { HAR_BODY_CHARS, type Har } from '../../../src/report/files/har.ts';
import type { Exchange } from '../../../src/core/exchange.ts';
import { sampleExchanges } from '../sample-report.ts';
import { startForeignServer, type ForeignServer } from '../../foreign/foreign-server.ts';
import { conformance, NO_PATIENCE, targetFlags } from '../../cli/binary.ts';

const folder = () => mkdtempSync(path.join(tmpdir(), 'har-file-'));
const readHar = (dir: string): Har => JSON.parse(readFileSync(path.join(dir, HAR_FILE), 'utf8')) as Har;
const CREATOR = { name: 'conformance', version: '9.9.9' };

describe('HarFile', () => {
  it('writes entries to the partial file as they come, and exchanges.har only when finished', () => {
    const dir = folder();
    const har = new HarFile(dir, CREATOR, () => []);
    const [exchange] = sampleExchanges();
    for (let i = 0; i < 100; i++) har.add(exchange);
    // Past one block the entries are on disk already; nothing holds them in memory.
    expect(statSync(path.join(dir, HAR_PARTIAL_FILE)).size).toBeGreaterThan(64 * 1024);
    expect(existsSync(path.join(dir, HAR_FILE))).toBe(false);
    expect(har.finish()).toBe(path.join(dir, HAR_FILE));
    expect(readdirSync(dir)).toEqual([HAR_FILE]);
    const log = readHar(dir).log;
    expect(log.version).toBe('1.2');
    expect(log.creator).toEqual(CREATOR);
    expect(log.entries).toHaveLength(100);
    // Finishing twice is harmless.
    expect(har.finish()).toBe(path.join(dir, HAR_FILE));
  });

  it('a HAR of no exchange is valid, with no entries', () => {
    const dir = folder();
    new HarFile(dir, CREATOR, () => []).finish();
    expect(readHar(dir).log.entries).toEqual([]);
  });

  it('redacts each entry with the secrets known when it was written', () => {
    const dir = folder();
    const secrets: string[] = [];
    const har = new HarFile(dir, CREATOR, () => secrets);
    const [first, second] = sampleExchanges();
    const echo = (e: Exchange, secret: string): Exchange => ({ ...e, response: { status: 200, headers: {}, rawBody: `{"echo":"${secret}"}`, json: false } });
    secrets.push('first-secret-value');
    har.add(echo(first, 'first-secret-value'));
    secrets.push('issued-later-token');
    har.add(echo(second, 'issued-later-token'));
    har.finish();
    const text = readFileSync(path.join(dir, HAR_FILE), 'utf8');
    expect(text).not.toContain('first-secret-value');
    expect(text).not.toContain('issued-later-token');
    expect(text).toContain('[REDACTED]');
  });

  it('cuts a long body to HAR_BODY_CHARS with a comment, and notes a body the transport cut', () => {
    const dir = folder();
    const har = new HarFile(dir, CREATOR, () => []);
    const [exchange] = sampleExchanges();
    const rawBody = 'z'.repeat(1024 * 1024);
    har.add({
      ...exchange,
      response: { status: 200, headers: {}, rawBody, json: false, truncated: { keptBytes: rawBody.length, receivedBytes: 100_000_000 }, invalidUtf8: true },
    });
    har.finish();
    const [entry] = readHar(dir).log.entries;
    expect(entry.response.content.text).toHaveLength(HAR_BODY_CHARS);
    expect(entry.response.content.size).toBe(100_000_000);
    expect(entry.response.content.comment).toBe(
      `body cut to its first ${HAR_BODY_CHARS} of ${rawBody.length} characters; the harness kept ${rawBody.length} of 100000000 bytes received; the body is not valid UTF-8 (shown with U+FFFD)`,
    );
  });

  it('an exchange that cannot be written fails the file: finish throws and leaves nothing', () => {
    const dir = folder();
    const har = new HarFile(dir, CREATOR, () => []);
    har.add(sampleExchanges()[0]);
    har.add({ request: null } as unknown as Exchange);
    expect(() => har.finish()).toThrow();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a process that exits before finishing still leaves valid JSON', async () => {
    const dir = folder();
    const fixture = path.resolve('tests/report/har-exit-fixture.ts');
    const code = await new Promise<number | null>((resolve) =>
      execFile(process.execPath, ['--import', 'tsx', fixture, dir], (error) => resolve(error ? ((error as { code?: number }).code ?? null) : 0)),
    );
    expect(code).toBe(130);
    expect(readHar(dir).log.entries).toHaveLength(2);
  });
});

describe('exchanges.har of a run that ended early', () => {
  const servers: ForeignServer[] = [];
  afterAll(async () => Promise.all(servers.map((s) => s.close())));

  it('a target that dies mid-run (exit 3): the HAR holds what was sent until then, and is valid JSON', async () => {
    const server = await startForeignServer('dies-mid-run', { dieAfter: 60 });
    servers.push(server);
    const dir = folder();
    const args = ['run', '--base-url', server.baseUrl, '--token', server.token, '--profile', 'quick', '--seed', '5', '--report-dir', dir, ...NO_PATIENCE];
    for (const id of server.accountIds) args.push('--fiat-account-id', id);
    const { code, stdout } = await conformance(args);
    expect(code, stdout).toBe(3);
    const entries = readHar(dir).log.entries;
    expect(entries.length).toBeGreaterThanOrEqual(60);
    expect(entries.filter((e) => e.response.status === 0).length).toBeGreaterThan(0);
    expect(readdirSync(dir)).not.toContain(HAR_PARTIAL_FILE);
  });

  it('a run that fails after its first requests (unknown accounts, exit 2): the HAR holds them', async () => {
    const server = await startForeignServer('none');
    servers.push(server);
    const dir = folder();
    const { code } = await conformance(['run', ...targetFlags(server), '--fiat-account-id', '3b241101-e2bb-4255-8caf-4136c566a962', '--report-dir', dir]);
    expect(code).toBe(2);
    const entries = readHar(dir).log.entries;
    expect(entries.map((e) => e.response.status)).toContain(404);
    expect(readFileSync(path.join(dir, HAR_FILE), 'utf8')).not.toContain(server.token);
  });
});
