/**
 * The vendor's reasonable readings pass, against a server nobody here wrote (foreign-server.ts):
 * an update that ignores nulls and empty strings is conformant, one that writes a null fails, and a
 * token whose scopes cover only the update is an authorization problem (exit 3, naming what to
 * ask for), not a failed rule.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startForeignServer, type ForeignDefect, type ForeignServer } from './foreign-server.ts';
import { conformance, conformantExit, readReport, reportDir } from '../cli/binary.ts';

const servers: ForeignServer[] = [];
afterAll(async () => Promise.all(servers.map((s) => s.close())));

async function runAgainst(defect: ForeignDefect) {
  const server = await startForeignServer(defect);
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
    '--strict',
    '--report-dir',
    dir,
  ];
  for (const id of server.accountIds) args.push('--fiat-account-id', id);
  const result = await conformance(args);
  return { ...result, report: readReport(dir) };
}

const nullsOf = (report: ReturnType<typeof readReport>) =>
  (report.observedContract?.limits ?? [])
    .filter((l: { kind: string }) => l.kind === 'null-or-empty')
    .map((l: { field: string; summary: string }) => `${l.field}: ${l.summary}`);

describe("the vendor's readings", () => {
  it('an update that ignores nulls and empty strings is conformant, even strict, and the observed contract says it ignores them', async () => {
    const { code, report, stdout } = await runAgainst('ignores-nulls');
    expect(
      report.rules.filter((r) => r.status !== 'passed').map((r) => `${r.id} ${r.status}: ${r.reason ?? r.failures[0]?.message}`),
      stdout,
    ).toEqual([]);
    expect(code).toBe(conformantExit(report).code);
    // No field filled in where the account showed it empty: what stays is only the metadata keys this merging server keeps.
    expect(conformantExit(report).leftOtherwise).toEqual([]);
    expect(nullsOf(report)).toContain('fiat_account_owner.person_details.first_name: null ignored; empty text ignored');
  });

  it('the faithful foreign server refuses nulls: conformant too, and the contract says refused', async () => {
    const { report } = await runAgainst('none');
    expect(report.rules.filter((r) => r.status === 'failed').map((r) => r.id)).toEqual([]);
    expect(nullsOf(report)).toContain('fiat_account_owner.person_details.first_name: null refused; empty text written');
  });

  it('an update that writes a null fails: the answer carries a null where a string is typed', async () => {
    const { code, report } = await runAgainst('writes-nulls');
    expect(code).toBe(1);
    const schema = report.rules.find((r) => r.id === 'fa.response.schema')!;
    expect(schema.status).toBe('failed');
    expect(schema.failures[0].message).toMatch(/person_details\/(first|last)_name: must be string/);
    expect(nullsOf(report)).toContain('fiat_account_owner.person_details.first_name: null written; empty text written');
  });

  it('a token whose scopes cover only the update: exit 3, an authorization stop naming the operation, no failed rule', async () => {
    const { code, report, stdout, stderr } = await runAgainst('create-forbidden');
    expect(code, stdout + stderr).toBe(3);
    expect(report.summary.verdict).toBe('error');
    expect(report.stopped?.kind).toBe('authorization');
    expect(report.stopped?.message).toMatch(
      /^HTTP 403 to every POST \/v2\/identity\/identities: ask for a token allowed to call POST \/v2\/identity\/identities \(the document names no scopes, section 5; .*\); 403 to ".+", then to a minimal valid request sent to make sure$/,
    );
    expect(stdout + stderr).toContain('ask for a token allowed to call POST /v2/identity/identities');
    expect(report.rules.filter((r) => r.status === 'failed').map((r) => r.id)).toEqual([]);
  });

  it('a token whose scopes cover only the create: the start reads get 403, exit 3, naming the scope the target asks for', async () => {
    const { code, stdout, stderr } = await runAgainst('update-forbidden');
    expect(code, stdout + stderr).toBe(3);
    expect(stdout + stderr).toContain('ask for a token with the scope "transfer:write" the target names');
  });
});
