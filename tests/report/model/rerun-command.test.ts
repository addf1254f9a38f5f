/** The re-run command printed by the console, the HTML and the Markdown summary regenerates the run. */
import { describe, expect, it } from 'vitest';
import { rerunCommand } from '../../../src/report/model/rerun-command.ts';
import { resolveRunConfig } from '../../../src/run/run-config.ts';
import { sampleReport } from '../sample-report.ts';
import type { ConformanceReport } from '../../../src/report/model/model.ts';

const report = (patch: Partial<ConformanceReport>): ConformanceReport => ({ ...sampleReport(), ...patch });

describe('rerunCommand', () => {
  it('a remote run: the same base URL, accounts, seed and profile', () => {
    const r = report({
      target: { baseUrl: 'https://sandbox.example.com', embedded: false, fiatAccountIds: ['a1', 'b2'] },
      seed: 9,
      profile: 'quick',
      runs: 10,
      strict: true,
    });
    expect(rerunCommand(r)).toBe(
      'conformance run --base-url https://sandbox.example.com --fiat-account-id a1 --fiat-account-id b2 --seed 9 --profile quick --strict',
    );
  });

  it('an explicit number of random cases, a rule filter, and the embedded reading and fault that differ from the default', () => {
    const r = report({
      target: { baseUrl: 'http://127.0.0.1:1', embedded: true, reading: { placement: 'top', rejectStatus: '400', fault: 'fa-status-missing' } },
      seed: 3,
      profile: 'standard',
      runs: 7,
      ruleFilter: ['fa.metadata', 'id.tax'],
      strict: false,
    });
    expect(rerunCommand(r)).toBe('conformance run --seed 3 --runs 7 --rule fa.metadata --rule id.tax --reading placement=top --fault fa-status-missing');
  });

  it('the same request budget, so the plan is fitted the same way', () => {
    const r = report({
      target: { baseUrl: 'https://sandbox.example.com', embedded: false, fiatAccountIds: ['a1'] },
      seed: 9,
      profile: 'quick',
      runs: 10,
      strict: false,
      budget: { maxRequests: 200, reserved: 0, planned: 195, used: 195, refused: 0, trimmed: [] },
    });
    expect(rerunCommand(r)).toBe('conformance run --base-url https://sandbox.example.com --fiat-account-id a1 --seed 9 --profile quick --max-requests 200');
  });

  it('is accepted by `conformance run` and resolves to the same settings', () => {
    const r = report({
      target: { baseUrl: 'http://127.0.0.1:1', embedded: true, reading: { metadataUpdate: 'merge' } },
      seed: 5,
      profile: 'custom',
      runs: 4,
      ruleFilter: ['id.'],
      strict: true,
    });
    const argv = rerunCommand(r).split(' ').slice(2);
    const config = resolveRunConfig(argv, {}, () => 1)!;
    expect(config).toMatchObject({ seed: 5, runs: 4, ruleFilter: ['id.'], strict: true, reading: { metadataUpdate: 'merge' } });
  });

  it('a shard: the same share again, which `conformance run` accepts', () => {
    const r = report({
      target: { baseUrl: 'http://127.0.0.1:1', embedded: true },
      seed: 8,
      profile: 'quick',
      runs: 10,
      shard: { index: 2, count: 3 },
      strict: false,
    });
    expect(rerunCommand(r)).toBe('conformance run --seed 8 --profile quick --shard 2/3');
    expect(resolveRunConfig(rerunCommand(r).split(' ').slice(2), {}, () => 1)).toMatchObject({ seed: 8, shard: { index: 2, count: 3 } });
  });
});
