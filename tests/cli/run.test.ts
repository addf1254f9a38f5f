/**
 * `conformance run` end to end, as a user runs it (the real binary in a child process): against
 * the embedded server, against an implementation this project's server code did not write, and
 * on every way a run can fail to start.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startForeignServer, type ForeignDefect, type ForeignServer } from '../foreign/foreign-server.ts';
import { conformance, conformantExit, readReport, REPORT_FOLDER, reportDir, targetFlags } from './binary.ts';
import { createReferenceServer } from '../../src/server/server.ts';

describe('conformance run against the embedded server', () => {
  it('exits 0, prints the rule table and ends with "N passed, N failed"', async () => {
    const dir = reportDir();
    const { code, stdout } = await conformance(['run', '--profile', 'quick', '--seed', '3', '--report-dir', dir]);
    expect(code, stdout).toBe(0);
    expect(stdout).toMatch(/seed 3/);
    // The embedded server costs nothing: no planned-request line.
    expect(stdout).not.toMatch(/^planned:/m);
    const last = stdout.trim().split('\n').at(-1)!;
    expect(last).toMatch(/^\d+ passed, 0 failed(, \d+ skipped)?$/);
    const report = readReport(dir);
    expect(report.summary.verdict).toBe('conformant');
    expect(report.summary.failed).toBe(0);
    expect(report.rules.length).toBeGreaterThan(40);
  });

  it('exits 1 and names the rule when the embedded server has a fault', async () => {
    const dir = reportDir();
    const { code } = await conformance(['run', '--profile', 'quick', '--seed', '3', '--report-dir', dir, '--fault', 'metadata-counts-bytes']);
    expect(code).toBe(1);
    const rule = readReport(dir).rules.find((r) => r.id === 'fa.metadata.max-length-accepted')!;
    expect(rule.status).toBe('failed');
    expect(rule.failures[0].curl).toMatch(/^curl /);
  });

  it('--fail-fast: exits 1 at the first documented failure, says where it stopped, and writes every report', async () => {
    const dir = reportDir();
    const { code, stdout } = await conformance([
      'run',
      '--profile',
      'quick',
      '--seed',
      '3',
      '--report-dir',
      dir,
      '--fault',
      'id-starts-approved',
      '--fail-fast',
    ]);
    expect(code, stdout).toBe(1);
    expect(stdout).toMatch(/stopped after \d+ requests while judging id\.initial-statuses: id\.initial-statuses failed, and --fail-fast ends the run/);
    const report = readReport(dir);
    expect(report.stopped?.kind).toBe('fail-fast');
    expect(report.summary.verdict).toBe('non-conformant');
    expect(readdirSync(dir).sort()).toEqual(REPORT_FOLDER);
  });
});

describe('conformance run under a rate limit', () => {
  it('still races the concurrent duplicates: a ref_id race is caught at 10 requests/s and concurrency 2', async () => {
    const server = await createReferenceServer({ fault: 'id-ref-id-race' });
    try {
      const dir = reportDir();
      const args = [
        'run',
        ...targetFlags({ baseUrl: server.baseUrl, token: server.staticToken }),
        '--rule',
        'id.ref-id',
        '--rate-limit',
        '10',
        '--concurrency',
        '2',
        '--report-dir',
        dir,
      ];
      for (const id of server.fiatAccountIds) args.push('--fiat-account-id', id);
      const { code, stdout } = await conformance(args);
      expect(code, stdout).toBe(1);
      expect(readReport(dir).rules.find((r) => r.id === 'id.ref-id.concurrent-duplicate')?.status).toBe('failed');
    } finally {
      await server.close();
    }
  });
});

describe('conformance run against a foreign implementation', () => {
  const servers: ForeignServer[] = [];
  afterAll(async () => Promise.all(servers.map((s) => s.close())));

  const runAgainst = async (defect: ForeignDefect) => {
    const server = await startForeignServer(defect);
    servers.push(server);
    const dir = reportDir();
    const args = ['run', '--base-url', server.baseUrl, '--token', server.token, '--profile', 'quick', '--seed', '5', '--report-dir', dir];
    for (const id of server.accountIds) args.push('--fiat-account-id', id);
    const result = await conformance(args);
    return { ...result, report: readReport(dir), token: server.token, dir };
  };

  it('finds no documented-rule failure in a faithful implementation with other readings', async () => {
    const { code, report, stdout } = await runAgainst('none');
    // A remote target: what the run will cost is said before the first case.
    expect(stdout).toMatch(
      /^planned: about \d+ requests \(\d+ fixed cases, \d+ random, .*; shrinking adds at most \d+ if something fails, restoring the accounts at most \d+\): about [\d.]+ (s|min) with no rate limit, 8 in flight, \d+ ms a round trip$/m,
    );
    const failed = report.rules.filter((r) => r.status === 'failed').map((r) => `${r.id}: ${r.failures[0]?.message}`);
    expect(failed, stdout).toEqual([]);
    // It merges metadata: the keys the run added stay (exit 5), and nothing else is left changed.
    const expected = conformantExit(report);
    expect(expected.leftOtherwise).toEqual([]);
    expect(code).toBe(expected.code);
  });

  it.each([
    ['counts-utf16', 'fa.metadata.max-length-accepted'],
    ['second-identity', 'id.ref-id.sequential-duplicate'],
    ['lowercase-status', 'fa.status.enum'],
  ] as const)('exits 1 with %s and fails %s', async (defect, ruleId) => {
    const { code, report, token, dir } = await runAgainst(defect);
    expect(code).toBe(1);
    expect(report.rules.find((r) => r.id === ruleId)?.status).toBe('failed');
    for (const file of readdirSync(dir)) expect(readFileSync(path.join(dir, file), 'utf8')).not.toContain(token);
  });
});

describe('conformance run that cannot start', () => {
  let refusing: http.Server;
  let refusingUrl: string;
  beforeAll(async () => {
    refusing = http.createServer((_req, res) => res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"invalid_client"}'));
    await new Promise<void>((r) => refusing.listen(0, '127.0.0.1', r));
    refusingUrl = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => refusing.close(() => r())));

  it('exits 3 with one line when the target is unreachable, and still writes the report', async () => {
    const dir = reportDir();
    const { code, stderr } = await conformance([
      'run',
      ...targetFlags({ baseUrl: 'http://127.0.0.1:9', token: 't' }),
      '--fiat-account-id',
      '0f8fad5b-d9cb-469f-a165-70867728950e',
      '--report-dir',
      dir,
    ]);
    expect(code).toBe(3);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(readReport(dir).summary.verdict).toBe('error');
  });

  it('exits 2 with one line naming the ids when the fiat accounts given do not exist on the target', async () => {
    const server = await startForeignServer('none');
    try {
      const dir = reportDir();
      const unknown = '3b241101-e2bb-4255-8caf-4136c566a962';
      const { code, stderr } = await conformance(['run', ...targetFlags(server), '--fiat-account-id', unknown, '--report-dir', dir]);
      expect(code).toBe(2);
      expect(stderr.trim().split('\n')).toEqual([expect.stringMatching(new RegExp(`no fiat account ${unknown}.*--fiat-account-id`))]);
      expect(readReport(dir).summary.verdict).toBe('error');
    } finally {
      await server.close();
    }
  });

  it('exits 3 with one line when the target refuses a static token', async () => {
    const server = await startForeignServer('none');
    try {
      const dir = reportDir();
      const { code, stderr } = await conformance([
        'run',
        ...targetFlags({ baseUrl: server.baseUrl, token: 'expired-token' }),
        '--fiat-account-id',
        server.accountIds[0],
        '--report-dir',
        dir,
      ]);
      expect(code).toBe(3);
      expect(stderr.trim().split('\n')).toEqual([expect.stringMatching(/refused the credentials \(HTTP 401/)]);
      expect(readReport(dir).summary.verdict).toBe('error');
    } finally {
      await server.close();
    }
  });

  it('exits 3 when the token endpoint refuses the credentials, without printing the secret', async () => {
    const secret = 'sup3r-s3cret-value';
    const { code, stderr, stdout } = await conformance([
      'run',
      '--base-url',
      refusingUrl,
      '--auth-url',
      `${refusingUrl}/token`,
      '--client-id',
      'me',
      '--client-secret',
      secret,
      '--fiat-account-id',
      '0f8fad5b-d9cb-469f-a165-70867728950e',
      '--report-dir',
      reportDir(),
    ]);
    expect(code).toBe(3);
    expect(stderr).toMatch(/token endpoint/);
    expect(stderr + stdout).not.toContain(secret);
  });

  it.each([
    [['run', '--frobnicate'], /unknown|frobnicate/i],
    [['run', '--base-url', 'https://sandbox.example.com', '--token', 't'], /--fiat-account-id/],
    [['run', '--base-url', 'nope', '--token', 't', '--fiat-account-id', '0f8fad5b-d9cb-469f-a165-70867728950e'], /not a URL/],
    [['frobnicate'], /unknown command/],
    [['run', '--rule', 'fa.metdata'], /--rule fa\.metdata matches no rule id/],
    [
      ['run', '--base-url', 'http://user:pw@127.0.0.1:1', '--token', 't', '--fiat-account-id', '0f8fad5b-d9cb-469f-a165-70867728950e'],
      /must not carry credentials/,
    ],
    [
      ['run', '--report-dir', '/dev/null/reports'],
      /^conformance run: --report-dir \/dev\/null\/reports cannot be used: \/dev\/null is not a folder; choose another folder$/m,
    ],
    [['run', '--report-dir', ''], /--report-dir is empty/],
    [['run', '--seed', ''], /^conformance run: --seed is empty: give an integer, or leave the flag out$/m],
    [['run', '--runs='], /--runs is empty/],
    [['run', '--timeout', ' '], /--timeout is empty/],
    [['run', '--rate-limit', ''], /--rate-limit is empty/],
    [['run', '--concurrency', ''], /--concurrency is empty/],
    [['run', '--max-retries', ''], /--max-retries is empty/],
    [['replay', 'x.json', '--timeout', ''], /--timeout is empty/],
    [['serve', '--port', ''], /--port is empty/],
    [['self-test', '--runs', ''], /--runs is empty/],
    [['run', '--client-secret', '-starts-with-a-dash'], /use '--client-secret=-XYZ'/],
  ])('exits 2 with one line for %j', async (args, message) => {
    const { code, stderr } = await conformance(args as string[]);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('an empty environment variable is unset, an empty flag an error', () => {
  it('CONFORMANCE_SEED= (empty) does not stop a run: the next setting that is wrong does', async () => {
    const { code, stderr } = await conformance(['run', '--fault', 'no-such-fault', '--report-dir', reportDir()], {
      CONFORMANCE_SEED: '',
      CONFORMANCE_RUNS: ' ',
    });
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toEqual([expect.stringMatching(/unknown fault "no-such-fault"/)]);
  });
});

describe('the report folder, before any request', () => {
  let requests = 0;
  let counting: http.Server;
  let countingArgs: string[];
  beforeAll(async () => {
    counting = http.createServer((req, res) => {
      requests++;
      req.resume();
      res.writeHead(500).end();
    });
    await new Promise<void>((r) => counting.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(counting.address() as AddressInfo).port}`;
    countingArgs = ['run', '--base-url', url, '--token', 't', '--fiat-account-id', '0f8fad5b-d9cb-469f-a165-70867728950e'];
  });
  afterAll(() => new Promise<void>((r) => counting.close(() => r())));

  const refused = (dir: string, why: RegExp) => async () => {
    const { code, stderr, stdout } = await conformance([...countingArgs, '--report-dir', dir]);
    expect(code, stdout + stderr).toBe(2);
    expect(stderr.trim().split('\n')).toEqual([expect.stringMatching(why)]);
    expect(stderr).toMatch(/; choose another folder$/m);
    expect(requests).toBe(0);
  };

  it('a report file that is a folder: exit 2, nothing sent', async () => {
    const dir = reportDir();
    mkdirSync(path.join(dir, 'conformance.json'));
    await refused(dir, /--report-dir .* cannot be used: conformance\.json there is a folder, not a report file/)();
  });

  it('a file where the folder would be: exit 2, nothing sent', async () => {
    const file = path.join(reportDir(), 'taken');
    writeFileSync(file, 'mine');
    await refused(path.join(file, 'reports'), /cannot be used: .*taken is not a folder/)();
    expect(readFileSync(file, 'utf8')).toBe('mine');
  });

  it.runIf(process.platform === 'linux')('a folder under /proc fails at once, never loops (a recursive mkdir there never ends)', async () => {
    await refused('/proc/self/reports', /--report-dir \/proc\/self\/reports cannot be used: cannot create \/proc\/self\/reports: E[A-Z]+/)();
    await refused('/proc/self', /--report-dir \/proc\/self cannot be used: it cannot be written \(E[A-Z]+\)/)();
  });

  it("the previous run's report files go at the start, whatever ends the run; other files stay", async () => {
    const dir = reportDir();
    for (const name of ['conformance.json', 'junit.xml', 'report.html', 'summary.md', 'exchanges.har', 'my-notes.txt'])
      writeFileSync(path.join(dir, name), 'old');
    // A run that stops on its configuration after the folder was prepared: no report of its own.
    const { code } = await conformance(['run', '--fault', 'no-such-fault', '--report-dir', dir]);
    expect(code).toBe(2);
    expect(readdirSync(dir)).toEqual(['my-notes.txt']);
  });
});
