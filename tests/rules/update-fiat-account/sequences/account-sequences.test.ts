/** Sequences of updates against the embedded server: planned as sent, and a failure reported shrunk. */
import { describe, expect, it } from 'vitest';
import { planRequests } from '../../../../src/engine/plan.ts';
import { describeSequence } from '../../../../src/rules/update-fiat-account/sequences/account-sequences.ts';
import { runEmbedded } from '../../../../src/run/embedded-run.ts';

const RULES = ['fa.sequence'];

describe('sequences of updates', () => {
  it('send to a faithful server exactly what the plan says, and judge each rule by every sequence', async () => {
    for (const seed of [1, 7]) {
      const planned = await planRequests({ runs: 50, accounts: 3, seed, ruleFilter: RULES });
      const { report } = await runEmbedded({ runs: 50, seed, ruleFilter: RULES });
      // The plan counts the check that the target answers at all, as the report does; the restore
      // of the accounts is planned apart (at most 4 each; 2 for an account nothing changed).
      expect(report.restore!.requests).toBeLessThanOrEqual(planned.restoreAtMost);
      expect(report.restore!.requests).toBeGreaterThanOrEqual(2 * 3);
      expect(report.summary.requests, `seed ${seed}`).toBe(planned.total + report.restore!.requests);
      for (const rule of report.rules) expect(rule, rule.id).toMatchObject({ status: 'passed', cases: 5 });
    }
  });

  it('report the shortest failing sequence, and the longer one it was shrunk from', async () => {
    const { report } = await runEmbedded({ runs: 50, seed: 3, ruleFilter: RULES, fault: 'fa-owner-names-not-persisted' });
    const rule = report.rules.find((r) => r.id === 'fa.sequence.persisted');
    expect(rule?.status).toBe('failed');
    const message = rule?.failures[0].message ?? '';
    const [shortest, first] = [...message.matchAll(/(\d+) steps/g)].map((m) => Number(m[1]));
    expect(message).toMatch(
      /^fiat_account_owner\.person_details\.\w+ stored "\w+" by an earlier update and not sent since, now shows "\w+"\. Sequence of \d+ steps: \(1\) account 1: opening/,
    );
    // Two openings, the update that was lost, and the read that shows it: nothing shorter shows the fault.
    expect(shortest).toBe(4);
    if (first !== undefined) expect(first).toBeGreaterThan(shortest);
    expect(rule?.failures[0].request?.method).toBe('PUT');
  });

  it('say why a rule stayed inconclusive in their own terms: what ended them, not the refusals of other updates nor a larger profile', async () => {
    const { report } = await runEmbedded({ runs: 50, seed: 3, ruleFilter: RULES, fault: 'fa-updated-at-frozen' });
    const persisted = report.rules.find((r) => r.id === 'fa.sequence.persisted');
    expect(persisted?.status).toBe('inconclusive');
    expect(persisted?.reason).toMatch(
      /: 1 of 5 sequences ran \(the first contradiction, fa\.sequence\.timestamps in sequence 1, ends them\); none of their 1 steps was refused; fix the fa\.sequence\.timestamps contradiction/,
    );
    expect(persisted?.reason).not.toMatch(/should be accepted were refused|--profile|--runs/);
  });

  it('are told step by step, the first sequence only when shrinking shortened it', () => {
    expect(describeSequence(['account 1: a', 'account 2: b'], ['account 1: a', 'account 2: b'])).toBe(
      'Sequence of 2 steps: (1) account 1: a; (2) account 2: b',
    );
    expect(describeSequence(['a'], ['a', 'b'])).toBe('Sequence of 1 steps: (1) a, shrunk from 2 steps: (1) a; (2) b');
  });
});
