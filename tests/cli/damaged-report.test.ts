/**
 * A damaged conformance.json, as hands and editors damage them: `replay` and `diff` exit 2 with
 * one stderr line naming the file (and the JSON pointer of the first problem), never a stack
 * trace, and replay sends nothing. A real report of a run against the embedded server is damaged
 * one way per case; replay runs against that live server, so a damage that slips through shows
 * as a replay (exit 0, 1 or 4) or a crash rather than as a pass.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createReferenceServer, type ReferenceServer } from '../../src/server/server.ts';
import { conformance, reportDir, targetFlags } from './binary.ts';

// The damages reach anywhere in the report: typed loosely on purpose.
type Json = Record<string, any>;

/** What a damage does: edit the parsed report, or write the file itself. */
type Damage = { edit: (report: Json) => unknown; pointer?: string } | { file: (file: string, text: string) => void };

const failing = (r: Json): Json => r.rules.find((rule: Json) => rule.failures.length);
const firstFailure = (r: Json): Json => failing(r).failures[0];
/** The pointer of the failing rule's first failure, for the expectations. */
let failurePointer = '';

const DAMAGES: Record<string, Damage> = {
  'null instead of the report': { edit: () => null, pointer: '(top level)' },
  'an empty object': { edit: () => ({}), pointer: '(top level)' },
  'a string instead of the report': { edit: () => 'conformance.json', pointer: '(top level)' },
  'rules[0] is null': { edit: (r) => ((r.rules[0] = null), r), pointer: '/rules/0' },
  'failures is null': { edit: (r) => ((failing(r).failures = null), r) },
  'failures is {}': { edit: (r) => ((failing(r).failures = {}), r) },
  'a failure without its case': { edit: (r) => (delete firstFailure(r).case, r) },
  'a string where the case goes': { edit: (r) => ((firstFailure(r).case = 'valid'), r) },
  'a string where the request goes': { edit: (r) => ((firstFailure(r).request = 'PUT /v2/transfer/fiat-accounts/x'), r) },
  'a request URL that is not a URL': { edit: (r) => ((firstFailure(r).request.url = 'not a url'), r) },
  'a request URL of the other operation': {
    edit: (r) => ((firstFailure(r).request.url = firstFailure(r).request.url.replace(/\/v2\/.*$/, '/v2/identity/identities')), r),
  },
  'a request URL with a broken percent-encoding': { edit: (r) => ((firstFailure(r).request.url += '%E0%A4%A'), r) },
  'a request method that is not a token': { edit: (r) => ((firstFailure(r).request.method = 'PUT /x'), r) },
  'an unknown operation': { edit: (r) => ((firstFailure(r).case.operation = 'deleteEverything'), r) },
  'an unknown case mode': { edit: (r) => ((firstFailure(r).case.mode = 'sideways'), r) },
  'a seed past 2^53': { edit: (r) => ((r.seed = 2 ** 70), r), pointer: '/seed' },
  'a status of 99999': { edit: (r) => ((firstFailure(r).response.status = 99999), r) },
  'a base URL with credentials': { edit: (r) => ((r.target.baseUrl = 'http://user:pw@127.0.0.1:1'), r), pointer: '/target/baseUrl' },
  'a rule id that is a number': { edit: (r) => ((r.rules[0].id = 42), r), pointer: '/rules/0/id' },
  'a field no version has': { edit: (r) => ((r.hello = 'world'), r), pointer: '(top level)' },
  'a report of version 2': { edit: (r) => ((r.reportVersion = '2.0.0'), r) },
  'a number too large for a double': { file: (file, text) => writeFileSync(file, text.replace(/"seed": (\d+)/, '"seed": 1e400')) },
  'a folder instead of a file': { file: (file) => mkdirSync(file) },
  'an empty file': { file: (file) => writeFileSync(file, '') },
  'a byte order mark': { file: (file, text) => writeFileSync(file, `\uFEFF${text}`) },
  'a truncated file': { file: (file, text) => writeFileSync(file, text.slice(0, Math.floor(text.length / 2))) },
  'bytes that are not text': { file: (file) => writeFileSync(file, Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x7b, 0x0a, 0x80])) },
  'a missing file': { file: () => undefined },
  ...(process.platform === 'linux' ? { 'a FIFO (would block a plain read forever)': { file: (file: string) => execFileSync('mkfifo', [file]) } } : {}),
};

let server: ReferenceServer;
let goodFile: string;
let goodText: string;
let work: string;

beforeAll(async () => {
  server = await createReferenceServer({ fault: 'fa-status-lowercase' });
  const dir = reportDir();
  const args = [
    'run',
    ...targetFlags({ baseUrl: server.baseUrl, token: server.staticToken }),
    '--rule',
    'fa.status',
    '--profile',
    'quick',
    '--seed',
    '5',
    '--report-dir',
    dir,
  ];
  for (const id of server.fiatAccountIds) args.push('--fiat-account-id', id);
  const run = await conformance(args);
  if (run.code !== 1) throw new Error(`the run that makes the report should fail one rule: exit ${run.code}\n${run.stderr}`);
  goodFile = path.join(dir, 'conformance.json');
  goodText = readFileSync(goodFile, 'utf8');
  const report = JSON.parse(goodText) as Json;
  failurePointer = `/rules/${report.rules.indexOf(failing(report))}/failures`;
  work = mkdtempSync(path.join(tmpdir(), 'conformance-damaged-'));
});
afterAll(async () => {
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Writes the damaged report; returns its path. */
function damaged(name: string, damage: Damage): string {
  const file = path.join(work, `${name.replace(/\W+/g, '-')}.json`);
  if ('file' in damage) damage.file(file, goodText);
  else writeFileSync(file, JSON.stringify(damage.edit(JSON.parse(goodText) as Json), null, 2));
  return file;
}

/** Exit 2, one stderr line naming the file, no stack trace. */
function expectOneLine(result: { code: number; stdout: string; stderr: string }, command: string, file: string): string {
  expect(result.code, `${command}: ${result.stdout}${result.stderr}`).toBe(2);
  expect(result.stderr).not.toContain('    at ');
  const lines = result.stderr.split('\n').filter(Boolean);
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0].startsWith(`conformance ${command}: `)).toBe(true);
  expect(lines[0]).toContain(file);
  return lines[0];
}

describe('a damaged report is exit 2 with one line, for replay and diff', () => {
  it('the undamaged report replays and diffs (the damages below are what breaks them)', async () => {
    const target = ['--base-url', server.baseUrl, '--token', server.staticToken, ...server.fiatAccountIds.flatMap((id) => ['--fiat-account-id', id])];
    expect((await conformance(['replay', goodFile, ...target])).code).toBe(1);
    expect((await conformance(['diff', goodFile, goodFile])).code).toBe(0);
  });

  it.concurrent.each(Object.entries(DAMAGES))('%s', async (name, damage) => {
    const file = damaged(name, damage);
    const [replayed, diffed] = await Promise.all([
      conformance(['replay', file, '--token', server.staticToken, '--base-url', server.baseUrl]),
      conformance(['diff', goodFile, file]),
    ]);
    const line = expectOneLine(replayed, 'replay', file);
    expect(expectOneLine(diffed, 'diff', file).replace('conformance diff: ', '')).toBe(line.replace('conformance replay: ', ''));
    if ('edit' in damage && name !== 'a report of version 2') {
      // The JSON pointer of the first problem: where the damage is, or above it.
      expect(line).toContain(`: ${damage.pointer ?? failurePointer}`);
    }
  });
});
