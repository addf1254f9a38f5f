/**
 * What the curl lines need first (issue 31): with OAuth client credentials, the token request the
 * report prints sets $CONFORMANCE_TOKEN from the run's own variables and a failure's curl line
 * then reproduces it; no secret in either. A static token and the embedded server say theirs.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createReferenceServer, type ReferenceServer } from '../../../src/server/server.ts';
import { runConfig } from '../../../src/run/run-config.ts';
import { prepareRun } from '../../../src/run/prepare-run.ts';
import { reproduceSetup } from '../../../src/report/model/reproduce-setup.ts';

const servers: ReferenceServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

const bash = (script: string, env: Record<string, string>): Promise<string> =>
  new Promise((resolve, reject) =>
    execFile('bash', ['-c', script], { env: { PATH: process.env.PATH, ...env } }, (error, stdout) => (error ? reject(error) : resolve(stdout))),
  );

describe('reproduceSetup', () => {
  it.skipIf(!existsSync('/usr/bin/curl'))(
    'with client credentials: the token request first, then the failing create answers the wrong date of birth',
    async () => {
      const server = await createReferenceServer({ fault: 'id-dob-previous-day' });
      servers.push(server);
      const auth = { kind: 'client-credentials' as const, tokenUrl: server.tokenUrl, clientId: server.clientId, clientSecret: server.clientSecret };
      const prepared = await prepareRun(
        runConfig({
          seed: 31,
          baseUrl: server.baseUrl,
          auth,
          fiatAccountIds: server.fiatAccountIds,
          ruleFilter: ['id.dob.midnight-utc'],
          profile: 'quick',
          runs: 10,
        }),
      );
      const { report } = await prepared.execute();
      await prepared.close();
      expect(report.target.credentials).toEqual({ kind: 'client-credentials', tokenUrl: server.tokenUrl });
      const setup = reproduceSetup(report)!;
      expect(setup.commands).toHaveLength(1);
      expect(setup.commands[0]).toContain('"client_secret=$CONFORMANCE_CLIENT_SECRET"');
      expect(setup.commands[0]).not.toContain(server.clientSecret);
      const failure = report.rules.find((r) => r.id === 'id.dob.midnight-utc')!.failures[0];
      const env = { CONFORMANCE_CLIENT_ID: server.clientId, CONFORMANCE_CLIENT_SECRET: server.clientSecret };
      const answer = JSON.parse(await bash(`${setup.commands[0]}; ${failure.curl}`, env));
      expect(answer.person_details.date_of_birth).toBe((failure.response!.body as any).person_details.date_of_birth);
    },
  );

  it('with a static token, says to set $CONFORMANCE_TOKEN; for the embedded server, replay; with no credentials, nothing', () => {
    const target = { baseUrl: 'https://sandbox.example', embedded: false };
    expect(reproduceSetup({ target: { ...target, credentials: { kind: 'static' } } })).toEqual({
      say: expect.stringContaining('export CONFORMANCE_TOKEN=...'),
      commands: [],
    });
    expect(reproduceSetup({ target: { ...target, embedded: true } }, 'out/conformance.json')!.commands).toEqual(['conformance replay out/conformance.json']);
    expect(reproduceSetup({ target: { ...target, credentials: { kind: 'none' } } })).toBeUndefined();
  });
});
