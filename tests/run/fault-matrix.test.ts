/**
 * Every fault the embedded server can inject is caught by the rule it breaks (exit code 1), and
 * the faithful server fails no rule in any reading the document allows (zero false alarms): on
 * the plain server and on its strict variant, which restricts the open points as it may.
 */
import { describe, expect, it } from 'vitest';
import { FAULTS, READINGS, SERVER_VARIANTS, rulesFailedUnder, runFault, runReading, wronglyBlamed } from '../../src/run/fault-matrix.ts';
import { getRule } from '../../src/core/catalogue.ts';
import { runEmbedded } from '../../src/run/embedded-run.ts';

const RUNS = 10;
const SEED = 11;

describe('fault matrix', () => {
  it('has at least 25 faults, at least 18 of them on documented rules', () => {
    expect(FAULTS.length).toBeGreaterThanOrEqual(25);
    expect(FAULTS.filter((f) => getRule(f.ruleId).basis === 'documented').length).toBeGreaterThanOrEqual(18);
  });

  it('names each second root cause once, apart from its own rule and from the rules it must not be blamed on', () => {
    for (const f of FAULTS) {
      const also = f.alsoFails ?? [];
      expect(new Set(also).size, f.name).toBe(also.length);
      expect(also, f.name).not.toContain(f.ruleId);
      for (const innocent of f.notBlamed ?? []) expect(also, f.name).not.toContain(innocent);
    }
  });

  it('calls any other failed rule a wrong blame', () => {
    const fault = FAULTS.find((f) => f.name === 'metadata-over-pairs-500')!;
    expect(wronglyBlamed(fault, ['fa.metadata.over-pairs-rejected', 'fa.no-5xx'])).toEqual([]);
    expect(wronglyBlamed(fault, ['fa.metadata.over-pairs-rejected', 'fa.no-5xx', 'id.valid-accepted'])).toEqual(['id.valid-accepted']);
  });

  // Concurrent: a run spends much of its time waiting (the target's clock, --lifetime), and each has
  // its own server; the context's `expect` ties each assertion to its own test.
  it.concurrent.for(
    FAULTS.flatMap((f) => SERVER_VARIANTS.filter((server) => server === 'plain' || !f.hiddenByStrict).map((server) => [f.name, server, f] as const)),
  )('%s is detected on the %s server, and fails exactly its rule and the second root causes it names', async ([, server, fault], { expect }) => {
    const outcome = await runFault(fault, RUNS, SEED, server);
    expect(outcome.server).toBe(server);
    const expected = fault.expect ?? 'failed';
    if (expected === 'failed') {
      expect(outcome.failedRules, `${fault.name} should fail ${fault.ruleId}`).toContain(fault.ruleId);
      expect(outcome.exitCode).toBe(1);
    } else if (expected === 'inconclusive') {
      expect(outcome.status, `${fault.name} should leave ${fault.ruleId} inconclusive`).toBe('inconclusive');
      expect(outcome.reason).toMatch(/judged by \d+ fixed and \d+ random cases/);
      expect(outcome.exitCode).not.toBe(0);
    } else {
      expect(outcome.exitCode, `${fault.name} should stop the run`).toBe(3);
    }
    expect(outcome.blocks).toBe(true);
    // The whole set: a rule outside it is a wrong blame; one of it missing is a root cause not shown.
    expect([...outcome.failedRules].sort(), `${fault.name}: the rules failed`).toEqual(rulesFailedUnder(fault));
    expect(outcome.wrongBlame).toEqual([]);
    for (const innocent of fault.notBlamed ?? []) expect(outcome.failedRules).not.toContain(innocent);
  });

  it('a fault hidden by the strict variant is not run there, and says why', async () => {
    const hidden = FAULTS.filter((f) => f.hiddenByStrict);
    expect(hidden.length).toBeGreaterThan(0);
    for (const fault of hidden) {
      const outcome = await runFault(fault, RUNS, SEED, 'strict');
      expect(outcome).toMatchObject({ server: 'strict', hidden: fault.hiddenByStrict, requests: 0 });
    }
  });
});

describe('fault matrix, one rule at a time (--rule)', () => {
  it.concurrent.for(FAULTS.filter((f) => (f.expect ?? 'failed') === 'failed').map((f) => [f.name, f] as const))(
    '%s is detected by its rule alone',
    async ([, fault], { expect }) => {
      const { report } = await runEmbedded({ fault: fault.name, runs: 3, seed: SEED, ruleFilter: [fault.ruleId] });
      expect(report.rules.find((r) => r.id === fault.ruleId)?.status).toBe('failed');
    },
  );
});

describe('faithful server in every allowed reading', () => {
  it.concurrent.for(
    READINGS.flatMap((r) =>
      SERVER_VARIANTS.map(
        (server) =>
          [
            Object.entries(r)
              .map(([k, v]) => `${k}=${v}`)
              .join(' '),
            server,
            r,
          ] as const,
      ),
    ),
  )('%s, the %s server: zero failures, even strict', async ([, server, reading], { expect }) => {
    const outcome = await runReading(reading, RUNS, SEED, server);
    expect(outcome.server).toBe(server);
    expect(outcome.failedRules).toEqual([]);
    expect(outcome.verdict, 'a faithful server earns conformant: every rule judged enough').toBe('conformant');
  });
});
