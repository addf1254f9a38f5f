/**
 * `conformance validate`: called as a function with a fake CliIO (through main() where the exit
 * code of a usage error matters), and once through the real binary.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { validate } from '../../src/cli/validate.ts';
import { main } from '../../src/cli/main.ts';
import type { CliIO } from '../../src/cli/io.ts';
import { UsageError } from '../../src/core/errors.ts';
import { registry } from '../../src/schema/registry.ts';

const SAMPLES = path.resolve('fixtures/samples');
const BIN = path.resolve('bin/conformance.js');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'conformance-validate-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function testIO(stdin = '') {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = { out: (l) => out.push(l), err: (l) => err.push(l), env: {}, isTTY: false, readStdin: async () => stdin };
  return { io, out, err };
}

async function save(name: string, content: string): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, content);
  return file;
}

describe('conformance validate', () => {
  it('prints "valid" and exits 0 for a sample of the document', async () => {
    const { io, out, err } = testIO();
    expect(await validate(['fiat-account', path.join(SAMPLES, 'fiat-account.json')], io)).toBe(0);
    expect(out).toEqual(['valid']);
    expect(err).toEqual([]);
  });

  it('accepts the schema file name as well as the registry name', async () => {
    const { io, out } = testIO();
    expect(await validate(['identity.schema.json', path.join(SAMPLES, 'identity.json')], io)).toBe(0);
    expect(out).toEqual(['valid']);
  });

  it('prints one line per error with path, message and section, and exits 1', async () => {
    const file = await save('bad-identity.json', JSON.stringify({ status: 'pending', person_details: { email: 42 } }));
    const { io, out } = testIO();
    expect(await validate(['identity', file], io)).toBe(1);
    expect(out).toEqual(
      expect.arrayContaining([
        "(root): must have required property 'id' [section 2.5]",
        '/status: must be equal to one of the allowed values (received "pending"; allowed: PENDING, ERROR, APPROVED, DENIED, DISABLED) [section 3]',
        '/person_details/email: must be string (received 42, number) [section 2.6]',
      ]),
    );
    expect(out).toHaveLength(3);
    expect(out).not.toContain('valid');
  });

  it('prints a repeated failure once', async () => {
    const { io, out } = testIO('[]');
    expect(await validate(['fiat-account', '-'], io)).toBe(1);
    expect(out.length).toBe(new Set(out).size);
    expect(out).toContain('(root): must be object [section 2.1]');
  });

  it('tells the branch of an anyOf that applies, not every branch, with the received and allowed values', async () => {
    const base = { id: '0f8fad5b-d9cb-469f-a165-70867728950e', created_at: '2024-01-01T00:00:00Z' };
    const inInstructions = testIO(JSON.stringify({ ...base, fiat_network_instructions: { wire: {} } }));
    expect(await validate(['fiat-account', '-'], inInstructions.io)).toBe(1);
    expect(inInstructions.out).toEqual([
      '(root): must have status at the top level or inside fiat_network_instructions (top level or in fiat_account_owner) [section 2.1]',
      "/fiat_network_instructions: must have required property 'status' [section 2.1]",
    ]);
    // No branch stands out: the alternatives are said once, not as a demand for an optional field.
    const nowhere = testIO(JSON.stringify({ ...base, status: 'PENDING' }));
    expect(await validate(['fiat-account', '-'], nowhere.io)).toBe(1);
    expect(nowhere.out).toEqual(['(root): must have fiat_network_instructions at the top level or inside fiat_account_owner [section 2.1]']);
    expect(nowhere.out.join('\n')).not.toContain("required property 'fiat_account_owner'");
    const wrongStatus = testIO(JSON.stringify({ ...base, status: 'ACTIVE', fiat_network_instructions: { wire: {} } }));
    expect(await validate(['fiat-account', '-'], wrongStatus.io)).toBe(1);
    expect(wrongStatus.out).toEqual([
      '/status: must be equal to one of the allowed values (received "ACTIVE"; allowed: PENDING, APPROVED, REJECTED) [section 2.1]',
    ]);
  });

  it('reads standard input for -', async () => {
    const { io, out } = testIO(JSON.stringify({ metadata: { k: '😀'.repeat(101) } }));
    expect(await validate(['update-fiat-account-request', '-'], io)).toBe(1);
    expect(out).toEqual([`/metadata/k: must NOT have more than 100 characters (received "${'😀'.repeat(79)}…, 101 characters) [section 8]`]);
  });

  it('--list prints every schema name with its title', async () => {
    const { io, out } = testIO();
    expect(await validate(['--list'], io)).toBe(0);
    expect(out).toHaveLength(registry().names().length);
    expect(out.find((l) => l.startsWith('fiat-account '))).toMatch(/^fiat-account\s+FiatAccount \(response of the update\)$/);
    expect(out.map((l) => l.split(/\s+/)[0])).toEqual([...registry().names()].sort());
  });

  it('--help prints the usage and exits 0', async () => {
    const { io, out } = testIO();
    expect(await validate(['--help'], io)).toBe(0);
    expect(out.join('\n')).toMatch(/^usage: conformance validate <schema> <file\|->/);
  });

  it('throws a UsageError (exit 2) naming the known schemas for an unknown schema', async () => {
    const { io } = testIO('{}');
    const failure = validate(['fiat-acount', '-'], io);
    await expect(failure).rejects.toBeInstanceOf(UsageError);
    await expect(failure).rejects.toThrow(/unknown schema "fiat-acount"; known: .*fiat-account.*identity/);
  });

  it.each([
    ['an unknown schema', ['nope', '-'], '{}', /^conformance validate: unknown schema "nope"; known: /],
    ['a missing file', ['identity', '/nonexistent/x.json'], '', /^conformance validate: cannot read \/nonexistent\/x\.json: ENOENT$/],
    ['input that is not JSON', ['identity', '-'], '{"id": ', /^conformance validate: standard input is not JSON \(/],
    ['empty input', ['identity', '-'], '', /^conformance validate: standard input is empty$/],
    ['input with a byte order mark', ['identity', '-'], '\uFEFF{}', /^conformance validate: standard input starts with a byte order mark/],
    ['a folder', ['identity', tmpdir()], '', /^conformance validate: .* is a folder; give the file itself$/],
    ['a device', ['identity', '/dev/zero'], '', /^conformance validate: \/dev\/zero is not a regular file/],
    ['a missing file argument', ['identity'], '', /^conformance validate: give a schema and a file/],
    ['an unknown flag', ['--frobnicate'], '', /^conformance validate: .*--frobnicate.*; run `conformance validate --help` for the options$/],
  ])('exits 2 with one line on stderr for %s', async (_name, args, stdin, message) => {
    const { io, out, err } = testIO(stdin);
    expect(await main(['validate', ...args], io)).toBe(2);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(message);
    expect(out).toEqual([]);
  });

  it('works through the real binary: exit codes 0 and 1 and the printed lines', async () => {
    const run = (args: string[]) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile('node', [BIN, 'validate', ...args], { timeout: 60_000 }, (error, stdout, stderr) =>
          resolve({ code: error ? ((error as { code?: number }).code ?? -1) : 0, stdout, stderr }),
        );
      });
    const bad = await save('bad-account.json', JSON.stringify({ id: 'x', created_at: '2024-01-01T00:00:00' }));
    const [valid, invalid] = await Promise.all([
      run(['create-identity-request', path.join(SAMPLES, 'create-identity-request.json')]),
      run(['fiat-account', bad]),
    ]);
    expect(valid).toEqual({ code: 0, stdout: 'valid\n', stderr: '' });
    expect(invalid.code).toBe(1);
    expect(invalid.stdout).toContain('/id: must match format "uuid" (received ');
    expect(invalid.stdout).toContain('/created_at: must match format "date-time" (received "2024-01-01T00:00:00") [section 2.1]\n');
  });
});
