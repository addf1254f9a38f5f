/** The ledger of rule outcomes, without a server: counts, evidence, failing rules, rule-start/end once. */
import { describe, expect, it } from 'vitest';
import { getRule } from '../../src/core/catalogue.ts';
import type { RuleDefinition } from '../../src/core/catalogue.ts';
import { UncountedCases } from '../../src/engine/uncounted-cases.ts';
import { minimumFor, Refusals } from '../../src/engine/coverage.ts';
import type { RunEvent } from '../../src/engine/events.ts';
import { InputIds } from '../../src/engine/input-ids.ts';
import { MAX_FAILURES_PER_RULE, RuleLedger } from '../../src/engine/rule-ledger.ts';
import { exchange, fiatAccountBody } from '../rules/exchange-builders.ts';

function ledgerOf(rules: string[], runs = 10) {
  const selected = rules.map(getRule);
  const events: RunEvent[] = [];
  const failures: RuleDefinition[] = [];
  const uncounted = new UncountedCases();
  let stoppedEarly: string | undefined;
  const ledger = new RuleLedger({
    selected,
    minimums: new Map(selected.map((r) => [r.id, minimumFor(r, runs)])),
    uncounted,
    inputIds: new InputIds(),
    refusals: new Refusals(),
    merging: () => false,
    stoppedEarly: () => stoppedEarly,
    onFailure: (rule) => void failures.push(rule),
    emit: async (event) => void events.push(event),
  });
  return { ledger, events, failures, uncounted, stop: (why: string) => (stoppedEarly = why) };
}

const update = (name: string) =>
  exchange({ operation: 'updateFiatAccount', body: { fiat_account_owner: { person_details: { first_name: name } } } }, 200, fiatAccountBody());

describe('RuleLedger', () => {
  it('counts fixed and random cases apart, distinct inputs once, and skips uncounted cases and rules it does not judge', () => {
    const { ledger, uncounted } = ledgerOf(['fa.valid-accepted']);
    ledger.record('fa.valid-accepted', [], update('a'));
    ledger.record('fa.valid-accepted', [], update('b'), { random: true });
    ledger.record('fa.valid-accepted', [], update('b'), { random: true });
    const read = update('c');
    uncounted.add(read.testCase);
    ledger.record('fa.valid-accepted', [], read);
    ledger.record('fa.status.enum', [], update('d'));
    const outcome = ledger.outcomeOf(getRule('fa.valid-accepted'));
    expect(outcome.cases).toBe(3);
    expect(outcome.coverage).toMatchObject({ fixed: 1, random: 2, distinctInputs: 2 });
    expect(ledger.has('fa.status.enum')).toBe(false);
  });

  it('keeps at most MAX_FAILURES_PER_RULE findings, the shrunk one in front, and notes where the rule first failed', () => {
    const { ledger, failures } = ledgerOf(['fa.valid-accepted']);
    ledger.judgedRequests = 7;
    for (let i = 0; i < MAX_FAILURES_PER_RULE + 2; i++)
      ledger.record(
        'fa.valid-accepted',
        [{ message: `refused ${i}`, kind: 'status' as const, params: { expected: '2xx' as const, received: 422 } }],
        update(String(i)),
      );
    ledger.keepFindings(
      'fa.valid-accepted',
      [{ message: 'minimal', kind: 'status' as const, params: { expected: '2xx' as const, received: 422 } }],
      update('m'),
      '3:0',
      true,
    );
    const outcome = ledger.outcomeOf(getRule('fa.valid-accepted'));
    expect(outcome.findings).toHaveLength(MAX_FAILURES_PER_RULE);
    // Every failing case counted, not only the kept ones (the shrunk one was counted when judged).
    expect(outcome.failedCases).toBe(MAX_FAILURES_PER_RULE + 2);
    expect(outcome.findings[0]).toMatchObject({ problem: { message: 'minimal' }, path: '3:0' });
    expect(outcome.findings[1].problem.message).toBe('refused 0');
    expect(outcome.firstFailureAtRequest).toBe(7);
    expect(failures.map((r) => r.id)).toEqual(Array(MAX_FAILURES_PER_RULE + 3).fill('fa.valid-accepted'));
  });

  it('announces a failing rule once, and a crashed check as failing too', async () => {
    const { ledger, events } = ledgerOf(['fa.valid-accepted', 'fa.status.enum']);
    ledger.record('fa.valid-accepted', [{ message: 'refused', kind: 'status' as const, params: { expected: '2xx' as const, received: 422 } }], update('a'));
    ledger.record(
      'fa.valid-accepted',
      [{ message: 'refused again', kind: 'status' as const, params: { expected: '2xx' as const, received: 422 } }],
      update('b'),
    );
    ledger.crashed('fa.status.enum');
    await ledger.announceFailing();
    await ledger.announceFailing();
    expect(events.filter((e) => e.type === 'rule-failing').map((e) => e.type === 'rule-failing' && e.rule.id)).toEqual(['fa.valid-accepted', 'fa.status.enum']);
    expect(ledger.outcomeOf(getRule('fa.status.enum')).crashed).toBe(true);
  });

  it('sends rule-start and rule-end once per rule, and a rule below its minimum says why in its shortfall', async () => {
    const { ledger, events, stop } = ledgerOf(['fa.valid-accepted']);
    const rule = getRule('fa.valid-accepted');
    await ledger.begin(rule);
    await ledger.begin(rule);
    expect(ledger.currentRule).toBe(rule);
    stop('the run stopped before this rule was judged enough (interrupted by SIGINT)');
    await ledger.finish(rule);
    await ledger.finish(rule);
    expect(ledger.currentRule).toBeUndefined();
    expect(events.map((e) => e.type)).toEqual(['rule-start', 'rule-end']);
    const end = events[1];
    expect(end.type === 'rule-end' && end.outcome.coverage.shortfall).toMatch(/^judged by 0 fixed and 0 random cases .*interrupted by SIGINT/);
  });
});
