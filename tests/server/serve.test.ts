/** `conformance serve` through the real binary: starts, prints where it listens, answers, stops on SIGTERM. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { parse as parseDotenv } from 'dotenv';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { conformance } from '../cli/binary.ts';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { serve } from '../../src/cli/serve.ts';
import { FAULTS } from '../../src/server/faults.ts';
import type { CliIO } from '../../src/cli/io.ts';

const BIN = fileURLToPath(new URL('../../bin/conformance.js', import.meta.url));

/** Resolves once `pattern` appears in what `stream` has sent so far (collected into `chunks`). */
function waitFor(child: ChildProcess, stream: NodeJS.ReadableStream, chunks: string[], pattern: RegExp, timeoutMs = 20_000): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${pattern} in ${timeoutMs} ms; got: ${chunks.join('')}`)), timeoutMs);
    const check = () => {
      const match = pattern.exec(chunks.join(''));
      if (!match) return;
      clearTimeout(timer);
      stream.off('data', check);
      resolve(match);
    };
    stream.on('data', check);
    child.once('exit', (code) => reject(new Error(`exited with ${code} before ${pattern}; got: ${chunks.join('')}`)));
    check();
  });
}

function memoryIO(): CliIO & { lines: string[]; errors: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  return { lines, errors, out: (l) => lines.push(l), err: (l) => errors.push(l), env: {}, isTTY: false, readStdin: async () => '' };
}

let child: ChildProcess | undefined;
afterEach(() => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  child = undefined;
});

describe('conformance serve', () => {
  it('starts on a free port, answers with the credentials of its file, and stops cleanly on SIGTERM', async () => {
    const stdout: string[] = [];
    const stderr: string[] = [];
    child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--reading', 'placement=top'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (c: Buffer) => stdout.push(c.toString()));
    child.stderr!.on('data', (c: Buffer) => stderr.push(c.toString()));
    await waitFor(child, child.stdout!, stdout, /stop with Ctrl\+C/);
    const baseUrl = /base URL:\s+(http:\/\/127\.0\.0\.1:\d+)\n/.exec(stdout.join(''))?.[1];
    expect(baseUrl, 'the base URL is printed').toBeDefined();
    const ids = /fiat account ids: (.+)\n/.exec(stdout.join(''))![1].split(' ');
    expect(ids.length).toBeGreaterThanOrEqual(3);
    const file = /credentials: (\S+) \(mode 600/.exec(stdout.join(''))![1];
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const credentials = parseDotenv(readFileSync(file, 'utf8'));
    // One token variable everywhere (issue 31): the curl lines' $CONFORMANCE_TOKEN; the old name holds the same token.
    const token = credentials.CONFORMANCE_TOKEN;
    expect(credentials.CONFORMANCE_SERVE_TOKEN).toBe(token);
    for (const secret of [token, credentials.CONFORMANCE_CLIENT_SECRET]) {
      expect(secret.length).toBeGreaterThan(16);
      expect(stdout.join('') + stderr.join('')).not.toContain(secret); // no secret in a console line
    }
    // The file is a ready .env: `conformance run` tests this server with it (token and client
    // credentials both in the environment: the client credentials are used).
    const run = await conformance(
      ['run', '--profile', 'quick', '--rule', 'fa.valid', '--report-dir', path.join(tmpdir(), `serve-run-${process.pid}`)],
      credentials,
    );
    expect(run.stdout).toContain(`target ${baseUrl}`);
    expect(run.code, run.stdout + run.stderr).toBe(0);

    const reply = await fetch(`${baseUrl}/v2/transfer/fiat-accounts/${ids[0]}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(reply.status).toBe(200);
    expect((await reply.json()).status).toBe('PENDING'); // the reading from the flag: top-level status

    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stdout.join('')).toContain('stopped');
    expect(existsSync(file)).toBe(false);
    await expect(fetch(`${baseUrl}/`)).rejects.toThrow();
  });

  it('lists every fault with its rule and basis', async () => {
    const io = memoryIO();
    expect(await serve(['--list-faults'], io)).toBe(0);
    const text = io.lines.join('\n');
    for (const fault of FAULTS)
      expect(text).toMatch(new RegExp(`^${fault.name}\\s+${fault.ruleId.replace(/\./g, '\\.')}\\s+(documented|convention)\\s+\\S`, 'm'));
    expect(text).toMatch(/^id-astral-name-500 .+\[hidden with --strict: the strict variant refuses a name outside its ASCII pattern before storing it\]$/m);
  });

  it('serves in process until stopped, printing no secret', async () => {
    const io = memoryIO();
    const stop = new AbortController();
    const running = serve(['--fault', 'fa-id-missing'], io, { stop: stop.signal });
    for (let waited = 0; !io.lines.some((l) => l.startsWith('stop with')) && waited < 10_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
    expect(io.lines.join('\n')).toMatch(/base URL:\s+http:\/\/127\.0\.0\.1:\d+/);
    expect(io.lines.join('\n')).toContain('fault fa-id-missing');
    const file = /credentials: (\S+) /.exec(io.lines.join('\n'))![1];
    const { CONFORMANCE_CLIENT_SECRET: secret, CONFORMANCE_TOKEN: token } = parseDotenv(readFileSync(file, 'utf8'));
    expect(io.lines.join('\n') + io.errors.join('\n')).not.toMatch(new RegExp(`${secret}|${token}`));
    stop.abort();
    expect(await running).toBe(0);
  });

  it('--help says where a client gets a token, and the recipe it gives works on a running server', async () => {
    const help = memoryIO();
    expect(await serve(['--help'], help)).toBe(0);
    const text = help.lines.join('\n');
    expect(text).toMatch(/BASE_URL\/oauth\/token/);
    expect(text).toContain('grant_type=client_credentials');
    expect(text).toContain('CONFORMANCE_CLIENT_SECRET, CONFORMANCE_TOKEN;');
    const io = memoryIO();
    const stop = new AbortController();
    const running = serve([], io, { stop: stop.signal });
    for (let waited = 0; !io.lines.some((l) => l.startsWith('stop with')) && waited < 10_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
    const printed = io.lines.join('\n');
    const baseUrl = /base URL:\s+(\S+)/.exec(printed)![1];
    const clientId = /client id:\s+(\S+)/.exec(printed)![1];
    expect(printed).toContain(`token URL:  ${baseUrl}/oauth/token`);
    const { CONFORMANCE_CLIENT_SECRET: secret } = parseDotenv(readFileSync(/credentials: (\S+) /.exec(printed)![1], 'utf8'));
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret });
    const reply = await fetch(`${baseUrl}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
    expect(reply.status).toBe(200);
    expect((await reply.json()).expires_in).toBe(Number(/a token lasts\s+(\d+) s/.exec(text)![1]));
    stop.abort();
    expect(await running).toBe(0);
  });

  it('--strict serves the strict variant, with any fault; --help says what it does', async () => {
    const help = memoryIO();
    expect(await serve(['--help'], help)).toBe(0);
    expect(help.lines.join('\n')).toMatch(/--strict\s+restrict the open points as the vendor's OpenAPI does/);
    const io = memoryIO();
    const stop = new AbortController();
    const running = serve(['--strict', '--fault', 'fa-id-missing'], io, { stop: stop.signal });
    for (let waited = 0; !io.lines.some((l) => l.startsWith('stop with')) && waited < 10_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
    const text = io.lines.join('\n');
    expect(text).toContain('strict: open points restricted; fault fa-id-missing');
    const baseUrl = /base URL:\s+(\S+)/.exec(text)![1];
    const file = /credentials: (\S+) /.exec(text)![1];
    const { CONFORMANCE_TOKEN: token } = parseDotenv(readFileSync(file, 'utf8'));
    const reply = await fetch(`${baseUrl}/v2/identity/identities`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ person_details: { first_name: '' }, tax_details_not_required: true }),
    });
    expect(reply.status).toBe(400);
    expect((await reply.json()).field).toBe('person_details.first_name');
    stop.abort();
    expect(await running).toBe(0);
  });

  it.each([
    [['--fault', 'no-such-fault'], /unknown fault "no-such-fault"/],
    [['--port', '70000'], /^--port must be a whole number from 0 to 65535, got "70000"$/],
    [['--port', ''], /^--port is empty/],
    [['--reading', 'placement=sideways'], /placement must be one of/],
    [['--reading', 'placement'], /--reading takes key=value/],
    [['--bogus'], /conformance serve --help/],
    [['--credentials-file', fileURLToPath(import.meta.url)], /exists already: remove it or choose another path/],
  ])('refuses %j with one line that says what to do', async (argv, message) => {
    await expect(serve(argv, memoryIO())).rejects.toThrow(message);
  });
});
