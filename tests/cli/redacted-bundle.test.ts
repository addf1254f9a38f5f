/**
 * `run --bundle --redact-personal` as a user runs it, against the reference server with a token
 * endpoint URL that carries an api_key: the extracted bundle holds no date of birth (as sent, nor
 * as returned), no address line, city, province or postal code, and no api_key value, anywhere;
 * the api_key is in no report file and no output either; and the bundle still verifies.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReferenceServer, type ReferenceServer } from '../../src/server/server.ts';
import { conformance, reportDir } from './binary.ts';

let reference: ReferenceServer;
beforeAll(async () => {
  reference = await createReferenceServer();
});
afterAll(() => reference.close());

const ADDRESS_FIELDS = new Set(['address1', 'address2', 'city', 'province', 'zip_code']);

/** Every string under date_of_birth and an address field of the HAR's bodies, read independently of the redaction's own reader. */
function sentValues(harText: string): { dates: Set<string>; address: Set<string> } {
  const dates = new Set<string>();
  const address = new Set<string>();
  const walk = (value: unknown, key?: string): void => {
    if (typeof value === 'string') {
      if (key === 'date_of_birth') dates.add(value);
      if (key && ADDRESS_FIELDS.has(key) && value !== '') address.add(value);
    } else if (Array.isArray(value)) for (const item of value) walk(item, key);
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, k);
  };
  for (const entry of JSON.parse(harText).log.entries) {
    for (const text of [entry.request.postData?.text, entry.response.content?.text]) {
      try {
        walk(JSON.parse(text));
      } catch {
        // not JSON: a malformed body sent on purpose
      }
    }
  }
  return { dates, address };
}

/** Whether `text` shows `value`: anywhere when long, quoted when short ("NY", "10001"). */
const shows = (text: string, value: string): boolean => ([...value].length >= 6 ? text.includes(value) : text.includes(JSON.stringify(value)));

describe('a redacted bundle of a run', () => {
  it('holds no date of birth, no address field and no api_key value in any file; it verifies', async () => {
    const dir = reportDir();
    const reports = path.join(dir, 'reports');
    const bundle = path.join(dir, 'evidence.tar.gz');
    const apiKey = `ak-${randomBytes(12).toString('hex')}`;
    const ran = await conformance([
      'run',
      '--base-url',
      reference.baseUrl,
      '--auth-url',
      `${reference.tokenUrl}?api_key=${apiKey}`,
      '--client-id',
      reference.clientId,
      '--client-secret',
      reference.clientSecret,
      ...reference.fiatAccountIds.flatMap((id) => ['--fiat-account-id', id]),
      '--runs',
      '3',
      '--seed',
      '8',
      '--report-dir',
      reports,
      '--bundle',
      bundle,
      '--redact-personal',
    ]);
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);

    const { dates, address } = sentValues(readFileSync(path.join(reports, 'exchanges.har'), 'utf8'));
    // Both spellings of the dates of birth, the identities' and the fiat accounts' addresses.
    expect([...dates].some((d) => /^\d{4}-\d{2}-\d{2}$/.test(d))).toBe(true);
    expect([...dates].some((d) => /^\d{4}-\d{2}-\d{2}T00:00:00(\.0+)?Z$/.test(d))).toBe(true);
    expect(address.size).toBeGreaterThan(10);
    expect([...address]).toEqual(expect.arrayContaining(['1 Bank Plaza', 'New York']));

    execFileSync('tar', ['-xzf', bundle, '-C', dir]);
    const folder = path.join(dir, 'conformance-bundle');
    const members = readdirSync(folder);
    expect(members).toEqual(expect.arrayContaining(['conformance.json', 'exchanges.har', 'manifest.json', 'summary.md', 'report.html']));
    for (const name of members) {
      const text = readFileSync(path.join(folder, name), 'utf8');
      expect(
        [...dates].filter((d) => shows(text, d)),
        name,
      ).toEqual([]);
      expect(
        [...address].filter((a) => shows(text, a)),
        name,
      ).toEqual([]);
      expect(text, name).not.toContain(apiKey);
    }
    const manifest = JSON.parse(readFileSync(path.join(folder, 'manifest.json'), 'utf8'));
    expect(manifest.commandLine).toContain(`--auth-url '${reference.tokenUrl}?api_key=[REDACTED]'`);
    // The report folder and the console: no api_key either.
    for (const name of readdirSync(reports)) expect(readFileSync(path.join(reports, name), 'utf8'), name).not.toContain(apiKey);
    expect(ran.stdout + ran.stderr).not.toContain(apiKey);

    const verified = await conformance(['verify', bundle]);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
  });
});
