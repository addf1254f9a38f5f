/**
 * Output paths are checked before the first request (exit 2, one line): `run --bundle` and
 * `bundle --out` refuse a device, a FIFO, a symbolic link or a folder at the path (never replaced:
 * /dev/null stays a device) and a file in a missing folder; `--report-dir` refuses what is not a
 * folder. The target, which counts what it receives, receives nothing.
 */
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformance, reportDir } from './binary.ts';
import { sampleReport } from '../report/sample-report.ts';

let target: http.Server;
let received = 0;
let baseUrl: string;
beforeAll(async () => {
  target = http.createServer((_req, res) => {
    received++;
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => target.close(() => resolve())));

const linux = process.platform === 'linux';

/** Paths that must be refused, each made in `dir`: what it is, and the refusal's words. */
function refusedPaths(dir: string): { path: string; why: RegExp }[] {
  writeFileSync(path.join(dir, 'precious'), 'precious');
  symlinkSync(path.join(dir, 'precious'), path.join(dir, 'link.tar.gz'));
  mkdirSync(path.join(dir, 'folder.tar.gz'));
  const paths = [
    { path: path.join(dir, 'link.tar.gz'), why: /it is a symbolic link, not a regular file, and is never replaced/ },
    { path: path.join(dir, 'folder.tar.gz'), why: /it is a folder, not a regular file/ },
    { path: path.join(dir, 'missing', 'b.tar.gz'), why: /the folder .*missing does not exist/ },
  ];
  if (linux) {
    execFileSync('mkfifo', [path.join(dir, 'fifo.tar.gz')]);
    paths.push({ path: path.join(dir, 'fifo.tar.gz'), why: /it is a FIFO/ }, { path: '/dev/null', why: /it is a device/ });
  }
  return paths;
}

/** Nothing at the refused paths changed. */
function unchanged(dir: string): void {
  expect(lstatSync(path.join(dir, 'link.tar.gz')).isSymbolicLink()).toBe(true);
  expect(readFileSync(path.join(dir, 'precious'), 'utf8')).toBe('precious');
  expect(lstatSync(path.join(dir, 'folder.tar.gz')).isDirectory()).toBe(true);
  if (linux) {
    expect(lstatSync(path.join(dir, 'fifo.tar.gz')).isFIFO()).toBe(true);
    expect(lstatSync('/dev/null').isCharacterDevice()).toBe(true);
  }
  expect(readdirSync(dir).filter((n) => n.endsWith('.partial'))).toEqual([]);
}

const run = (args: string[]) =>
  conformance(['run', '--base-url', baseUrl, '--token', 'tok-123', '--fiat-account-id', '0f8fad5b-d9cb-469f-a165-70867728950e', ...args]);

describe('output paths are checked before the first request', () => {
  it('run --bundle: exit 2 in one line for each, nothing sent, nothing replaced', async () => {
    const dir = reportDir();
    const cases = refusedPaths(dir);
    for (const refused of cases) {
      const result = await run(['--report-dir', path.join(dir, 'reports'), '--bundle', refused.path]);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(/--bundle .* cannot be used: /);
      expect(result.stderr).toMatch(refused.why);
    }
    expect(received).toBe(0);
    unchanged(dir);
  });

  it('bundle --out: exit 2 in one line for each, nothing replaced; a regular path is written', async () => {
    const dir = reportDir();
    const reports = path.join(dir, 'reports');
    mkdirSync(reports);
    writeFileSync(path.join(reports, 'conformance.json'), JSON.stringify(sampleReport()));
    for (const refused of refusedPaths(dir)) {
      const result = await conformance(['bundle', reports, '--out', refused.path]);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(/--out .* cannot be used: /);
      expect(result.stderr).toMatch(refused.why);
    }
    unchanged(dir);
    const written = await conformance(['bundle', reports, '--out', path.join(dir, 'ok.tar.gz')]);
    expect(written.code, written.stderr).toBe(0);
    expect(lstatSync(path.join(dir, 'ok.tar.gz')).isFile()).toBe(true);
  });

  it('--report-dir that is a file, a FIFO or under a file: exit 2 before the first request', async () => {
    const dir = reportDir();
    writeFileSync(path.join(dir, 'plain'), '');
    const refused = [path.join(dir, 'plain'), path.join(dir, 'plain', 'reports')];
    if (linux) {
      execFileSync('mkfifo', [path.join(dir, 'fifo')]);
      refused.push(path.join(dir, 'fifo'));
    }
    for (const folder of refused) {
      const result = await run(['--report-dir', folder]);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(/--report-dir .* cannot be used: .* is not a folder; choose another folder/);
    }
    expect(received).toBe(0);
  });
});
