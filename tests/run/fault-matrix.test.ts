/**
 * Every fault the embedded server can inject is caught by the rule it breaks (exit code 1), and
 * the faithful server fails no rule in any reading the document allows (zero false alarms).
 */
import { describe, expect, it } from 'vitest';
import { FAULTS, READINGS, runFault, runReading } from '../../src/run/fault-matrix.ts';
import { getRule } from '../../src/core/catalogue.ts';
import { runEmbedded } from '../../src/run/embedded-run.ts';

const RUNS = 10;
const SEED = 11;

describe('fault matrix', () => {
  it('has at least 25 faults, at least 18 of them on documented rules', () => {
    expect(FAULTS.length).toBeGreaterThanOrEqual(25);
    expect(FAULTS.filter((f) => getRule(f.ruleId).basis === 'documented').length).toBeGreaterThanOrEqual(18);
  });

  it.each(FAULTS.map((f) => [f.name, f] as const))('%s is detected', async (_name, fault) => {
    const outcome = await runFault(fault, RUNS, SEED);
    expect(outcome.failedRules, `${fault.name} should fail ${fault.ruleId}`).toContain(fault.ruleId);
    expect(outcome.exitCode).toBe(1);
  });
});

describe('fault matrix, one rule at a time (--rule)', () => {
  it.each(FAULTS.map((f) => [f.name, f] as const))('%s is detected by its rule alone', async (_name, fault) => {
    const { report } = await runEmbedded({ fault: fault.name, runs: 3, seed: SEED, ruleFilter: [fault.ruleId] });
    expect(report.rules.find((r) => r.id === fault.ruleId)?.status).toBe('failed');
  });
});

describe('faithful server in every allowed reading', () => {
  it.each(READINGS.map((r) => [Object.entries(r).map(([k, v]) => `${k}=${v}`).join(' '), r] as const))('%s: zero failures, even strict', async (_name, reading) => {
    const outcome = await runReading(reading, RUNS, SEED);
    expect(outcome.failedRules).toEqual([]);
  });
});
