/** The vitest helpers: a failing rule reads as its evidence, and a failing suite names its seed. */
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { runConformance } from '../../src/api/index.ts';
import { expectRulePassed } from '../../src/api/vitest.ts';

const RULE = 'fa.metadata.max-pairs-accepted';
const repo = path.resolve(import.meta.dirname, '../..');

describe('expectRulePassed', () => {
  it('passes a passed rule, and fails a failed one with the evidence, the seed and the command that repeats it', async () => {
    expectRulePassed(await runConformance({ rules: [RULE], profile: 'quick', seed: 11 }), RULE);
    const faulty = await runConformance({ rules: [RULE], profile: 'quick', seed: 11, fault: 'metadata-exact-pairs-rejected' });
    let message = '';
    try {
      expectRulePassed(faulty, RULE);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain(`${RULE} (§8, documented) failed`);
    expect(message).toMatch(/reproduce: curl /);
    expect(message).toContain('seed 11');
    expect(message).toContain('npx conformance run --seed 11 --profile quick --rule fa.metadata.max-pairs-accepted --fault metadata-exact-pairs-rejected');
    expect(message).not.toContain("expected 'failed'");
  });

  it('fails a rule that is not in the report, naming it', async () => {
    const report = (await runConformance({ rules: ['id.tax'], profile: 'quick' })).report;
    expect(() => expectRulePassed(report, RULE)).toThrow(`rule ${RULE} is not in the report`);
  });
});

describe('a conformance suite under vitest', () => {
  it('against a faulty server fails, printing the seed, the evidence, and writes its reports', async () => {
    const reports = await mkdtemp(path.join(tmpdir(), 'suite-reports-'));
    try {
      const run = await promisify(execFile)(
        process.execPath,
        [path.join(repo, 'node_modules/vitest/vitest.mjs'), 'run', '--project', 'conformance', 'suites/update-fiat-account.suite.ts'],
        {
          cwd: repo,
          env: {
            ...process.env,
            CONFORMANCE_FAULT: 'metadata-exact-pairs-rejected',
            CONFORMANCE_PROFILE: 'quick',
            CONFORMANCE_SEED: '4242',
            CONFORMANCE_REPORT_DIR: reports,
            NO_COLOR: '1',
          },
        },
      ).then(
        () => ({ code: 0, output: '' }),
        (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, output: error.stdout + error.stderr }),
      );
      expect(run.code).toBe(1);
      expect(run.output).toContain('(seed 4242)');
      expect(run.output).toContain(`${RULE} (§8, documented) failed`);
      expect(run.output).toContain('npx conformance run --seed 4242');
      expect(await readdir(path.join(reports, 'suites', 'updateFiatAccount'))).toContain('conformance.json');
    } finally {
      await rm(reports, { recursive: true, force: true });
    }
  });
});
