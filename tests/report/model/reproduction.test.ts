/**
 * Every failure's curl line re-creates the failure on the same target (issue 31 point 1): a run
 * against a live server with a fault injected (what `conformance serve --fault` starts), then each
 * failure's line run by bash with $CONFORMANCE_TOKEN set, twice. The answers show the failure
 * again, never 409 "ref_id is already used": a create sends a fresh ref_id each time, a repeat
 * its first create first.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createReferenceServer, type ReferenceServer } from '../../../src/server/server.ts';
import type { FaultName } from '../../../src/server/faults.ts';
import { runConfig } from '../../../src/run/run-config.ts';
import { prepareRun } from '../../../src/run/prepare-run.ts';
import type { ReportFailure } from '../../../src/report/model/model.ts';

const servers: ReferenceServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

/** The failures of the rules starting with `rule` in a run against a live server with `fault` (its static token as the run's). */
async function failuresAgainst(fault: FaultName, rule: string, strict = false): Promise<{ server: ReferenceServer; failures: ReportFailure[] }> {
  const server = await createReferenceServer({ fault, strict });
  servers.push(server);
  const prepared = await prepareRun(
    runConfig({
      seed: 31,
      baseUrl: server.baseUrl,
      auth: { kind: 'static', token: server.staticToken },
      fiatAccountIds: server.fiatAccountIds,
      ruleFilter: [rule],
      profile: 'quick',
      runs: 10,
    }),
  );
  try {
    const { report } = await prepared.execute();
    return { server, failures: report.rules.filter((r) => r.id.startsWith(rule)).flatMap((r) => r.failures) };
  } finally {
    await prepared.close();
  }
}

/** Runs a line with bash, the token in the environment; the JSON answers it printed, in order. */
function run(line: string, token: string): Promise<{ stdout: string; answers: Record<string, any>[] }> {
  return new Promise((resolve, reject) =>
    execFile('bash', ['-c', line], { env: { PATH: process.env.PATH, CONFORMANCE_TOKEN: token } }, (error, stdout) => {
      if (error) return reject(error);
      const answers = stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, any>);
      resolve({ stdout, answers });
    }),
  );
}

const CURL = '/usr/bin/curl';
describe.skipIf(!existsSync(CURL))(`failures' curl lines run by bash against the faulty target (skipped: no ${CURL})`, () => {
  it('id-dob-previous-day: each create answers the date of birth a day early again, with a fresh ref_id each time', async () => {
    const { server, failures } = await failuresAgainst('id-dob-previous-day', 'id.dob.midnight-utc');
    expect(failures.length).toBeGreaterThan(0);
    for (const failure of failures.slice(0, 3)) {
      const sentRefId = (failure.request.body as { ref_id: string }).ref_id;
      const recordedDob = (failure.response!.body as { person_details: { date_of_birth: string } }).person_details.date_of_birth;
      const refIds = new Set<string>();
      for (let time = 0; time < 2; time++) {
        const { stdout, answers } = await run(failure.curl, server.staticToken);
        expect(stdout).not.toContain('already used');
        expect(answers).toHaveLength(1);
        expect(answers[0].person_details.date_of_birth).toBe(recordedDob);
        expect(answers[0].ref_id.startsWith(`${sentRefId}-`)).toBe(true);
        refIds.add(answers[0].ref_id);
      }
      expect(refIds.size).toBe(2);
    }
  });

  it('the same on the strict server, which refuses a government id another identity holds: the line draws a new one', async () => {
    const { server, failures } = await failuresAgainst('id-dob-previous-day', 'id.dob.midnight-utc', true);
    const withGovernmentId = failures.filter((f) => typeof (f.request.body as any).person_details?.cip_id === 'string');
    expect(withGovernmentId.length).toBeGreaterThan(0);
    for (const failure of withGovernmentId.slice(0, 3)) {
      const sent = (failure.request.body as any).person_details.cip_id as string;
      const { stdout, answers } = await run(failure.curl, server.staticToken);
      expect(stdout).not.toContain('already used');
      expect(answers[0].person_details.cip_id).toMatch(new RegExp(`^${sent.replace(/\d/g, '\\d').replace(/[-+.]/g, '\\$&')}$`));
      expect(answers[0].person_details.cip_id).not.toBe(sent);
    }
  });

  it('fa-status-lowercase: the update answers status "pending" again', async () => {
    const { server, failures } = await failuresAgainst('fa-status-lowercase', 'fa.status.enum');
    expect(failures.length).toBeGreaterThan(0);
    for (const failure of failures.slice(0, 3)) {
      const { answers } = await run(failure.curl, server.staticToken);
      expect(answers).toHaveLength(1);
      expect(JSON.stringify(answers[0])).toContain('"status":"pending"');
    }
  });

  it('id-ref-id-not-unique: the line sends the first create, then the repeat with the same fresh ref_id, and two identities come back', async () => {
    const { server, failures } = await failuresAgainst('id-ref-id-not-unique', 'id.ref-id.sequential-duplicate');
    expect(failures.length).toBeGreaterThan(0);
    for (const failure of failures.slice(0, 3)) {
      expect(failure.curl).toContain("echo '1/2 the first create with this ref_id:'");
      const { stdout, answers } = await run(failure.curl, server.staticToken);
      expect(stdout).not.toContain('already used');
      expect(answers).toHaveLength(2);
      expect(answers[0].ref_id).toBe(answers[1].ref_id);
      expect(answers[0].id).not.toBe(answers[1].id);
    }
  });

  it('id-ref-id-case-folded: the create of the ref_id in the other letter case goes first, and the same identity comes back', async () => {
    const { server, failures } = await failuresAgainst('id-ref-id-case-folded', 'id.distinct-identities');
    expect(failures.length).toBeGreaterThan(0);
    for (const failure of failures.slice(0, 3)) {
      const { answers } = await run(failure.curl, server.staticToken);
      expect(answers).toHaveLength(2);
      expect(answers[1].id).toBe(answers[0].id);
    }
  });
});
