/**
 * "Conformant" is earned: against implementations written apart from src/server, a target that
 * dies mid-run, one that answers with near-empty bodies, and one that refuses most creates each get
 * a non-zero exit and a report that says why; configuration mistakes are exit 2 with the URL tried.
 */
import { afterAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startForeignServer, type ForeignDefect, type ForeignServer } from './foreign-server.ts';
import { conformance, conformantExit, NO_PATIENCE, readReport, reportDir } from '../cli/binary.ts';

const servers: ForeignServer[] = [];
afterAll(async () => Promise.all(servers.map((s) => s.close())));

async function runAgainst(defect: ForeignDefect, extra: string[] = []) {
  const server = await startForeignServer(defect, { dieAfter: 120 });
  servers.push(server);
  const dir = reportDir();
  const args = [
    'run',
    '--base-url',
    server.baseUrl,
    '--auth-url',
    server.tokenUrl,
    '--client-id',
    server.clientId,
    '--client-secret',
    server.clientSecret,
    '--profile',
    'quick',
    '--seed',
    '5',
    '--report-dir',
    dir,
    ...extra,
  ];
  for (const id of server.accountIds) args.push('--fiat-account-id', id);
  const result = await conformance(args);
  return { ...result, report: readReport(dir), server };
}

describe('a verdict that was earned', () => {
  it('a faithful foreign implementation is conformant: every documented rule judged enough', async () => {
    const { code, report, stdout } = await runAgainst('none');
    expect(
      report.rules.filter((r) => r.status !== 'passed').map((r) => `${r.id} ${r.status}: ${r.reason ?? r.failures[0]?.message}`),
      stdout,
    ).toEqual([]);
    // It merges metadata: the keys the run added stay (exit 5), and nothing else is left changed.
    const expected = conformantExit(report);
    expect(expected.leftOtherwise).toEqual([]);
    expect(code).toBe(expected.code);
  });

  it('a target that dies mid-run: exit 3, a partial report that says where it stopped', async () => {
    const { code, report, stdout, stderr } = await runAgainst('dies-mid-run', NO_PATIENCE);
    expect(code, stdout + stderr).toBe(3);
    expect(report.summary.verdict).toBe('error');
    expect(report.stopped?.kind).toBe('unreachable');
    // The message says why; `requests` and `rule` say where, and the console puts them together.
    expect(report.stopped?.message).toMatch(/^the target stopped answering/);
    expect(report.stopped?.rule).toMatch(/^(fa|id)\.[a-z0-9.-]+$/);
    expect(stdout).toContain(`stopped after ${report.stopped!.requests} requests while judging ${report.stopped!.rule}`);
    expect(report.stopped!.requests).toBeGreaterThanOrEqual(120);
    expect(report.rules.some((r) => r.status === 'passed')).toBe(true);
  });

  it('near-empty identity bodies: the rules with nothing to look at are inconclusive, never passed', async () => {
    const { code, report } = await runAgainst('near-empty-identity');
    expect(code).not.toBe(0);
    for (const id of ['id.enums', 'id.booleans', 'id.timestamps.rfc3339', 'id.initial-statuses']) {
      const rule = report.rules.find((r) => r.id === id)!;
      expect(rule.status, id).toBe('inconclusive');
      expect(rule.reason).toMatch(/successful answers held none of the fields it judges/);
    }
  });

  it('a target that refuses most creates: the refusal is blamed once, with its words, and the starved rules say why', async () => {
    const { code, report, stdout } = await runAgainst('refuses-most-creates');
    expect(code).toBe(1);
    const valid = report.rules.find((r) => r.id === 'id.valid-accepted')!;
    expect(valid.status).toBe('failed');
    expect(stdout).toContain('first_name must be ASCII');
    // Rejection rules whose twin was refused too are not passed on the target's say-so. Since the
    // guaranteed names are ASCII, only the guaranteed empty address2 is refused: rules may or may not starve.
    const starved = report.rules.filter((r) => r.operation === 'createIdentity' && r.status === 'inconclusive');
    for (const rule of starved) expect(rule.reason).toMatch(/identities requests that should be accepted were refused; first: .*first_name must be ASCII/);
    expect(report.rules.find((r) => r.id === 'id.tax.not-required-accepted')?.status).not.toBe('failed');
  });

  it('one identity for every create: distinct ref_ids giving one identity fail, the ref_id rules judge nothing', async () => {
    const { code, report } = await runAgainst('same-identity');
    expect(code).toBe(1);
    expect(report.rules.find((r) => r.id === 'id.distinct-identities')?.status).toBe('failed');
    const sequential = report.rules.find((r) => r.id === 'id.ref-id.sequential-duplicate')!;
    expect(sequential.status).toBe('inconclusive');
    expect(sequential.reason).toMatch(/same identity id/);
  });
});

describe('configuration, not the target, is blamed for configuration mistakes', () => {
  it('a base URL ending in /v2: exit 2 with the URL to give instead', async () => {
    const server = await startForeignServer('none');
    servers.push(server);
    const { code, stderr } = await conformance([
      'run',
      '--base-url',
      `${server.baseUrl}/v2`,
      '--token',
      server.token,
      '--fiat-account-id',
      server.accountIds[0],
    ]);
    expect(code).toBe(2);
    expect(stderr).toContain(`give ${server.baseUrl} instead`);
  });

  it('a fiat account id that is not a UUID: exit 2, nothing sent', async () => {
    const { code, stderr } = await conformance(['run', '--base-url', 'http://127.0.0.1:9', '--token', 't', '--fiat-account-id', 'not-a-uuid']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/"not-a-uuid" is not a UUID/);
  });

  it('a route that answers 404 everywhere: exit 2 with every URL tried', async () => {
    const nowhere = http.createServer((_req, res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no route"}'));
    await new Promise<void>((r) => nowhere.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(nowhere.address() as AddressInfo).port}/api`;
    try {
      const { code, stderr } = await conformance([
        'run',
        '--base-url',
        url,
        '--token',
        't',
        '--fiat-account-id',
        '0f8fad5b-d9cb-469f-a165-70867728950e',
        '--report-dir',
        reportDir(),
      ]);
      expect(code).toBe(2);
      expect(stderr).toContain(`${url}/v2/transfer/fiat-accounts/0f8fad5b-d9cb-469f-a165-70867728950e`);
      expect(stderr).toContain(`POST ${url}/v2/identity/identities`);
      expect(stderr).toMatch(/check --base-url/);
    } finally {
      await new Promise<void>((r) => nowhere.close(() => r()));
    }
  });

  it.each([
    ['one-owner-record', 'fa.sequence.isolation', /account \d shows fiat_account_owner\.person_details\.\w+ "\w+", which only account \d was sent/],
    ['owner-names-not-stored', 'fa.sequence.persisted', /stored "\w+" by an earlier update and not sent since, now shows "\w+"/],
  ] as const)('a server that loses what an update stored (%s): %s fails with the shortest sequence that shows it', async (defect, rule, message) => {
    const { code, report } = await runAgainst(defect, ['--rule', 'fa.sequence', '--rule', 'fa.update-reflected']);
    expect(code).toBe(1);
    const judged = report.rules.find((r) => r.id === rule)!;
    expect(judged.status).toBe('failed');
    expect(judged.failures[0].message).toMatch(message);
    expect(judged.failures[0].message).toMatch(/Sequence of \d+ steps: \(1\) account 1: opening/);
    // Each answer echoes what its own update sent: one exchange alone shows nothing.
    expect(report.rules.find((r) => r.id === 'fa.update-reflected')?.status).toBe('passed');
  });
});
