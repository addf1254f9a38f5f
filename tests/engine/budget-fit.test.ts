/** Fitting a plan into --max-requests: what goes first, and that what is left always fits. */
import { smallestBudget } from '../../src/engine/request-budget.ts';
import { describe, expect, it } from 'vitest';
import { getRule } from '../../src/core/catalogue.ts';
import { planRequests, planRun, type PlanSettings } from '../../src/engine/plan.ts';
import { PROFILES } from '../../src/engine/profiles.ts';
import { caseFamilies } from '../../src/rules/cases/families.ts';

const settings = (budget?: PlanSettings['budget'], runs: number = PROFILES.quick): PlanSettings => ({
  runs,
  accounts: 3,
  seed: 1,
  ...(budget ? { budget } : {}),
});

describe('a plan fitted into a request budget', () => {
  it('is the whole plan when it fits, with what is left over for shrinking', async () => {
    const whole = await planRequests(settings());
    const fitted = await planRun(settings({ maxRequests: whole.total + 7, reserved: 0 }));
    expect(fitted.budget).toMatchObject({ trimmed: [], planned: whole.total, runs: PROFILES.quick, shrinkAtMost: 7 });
    expect((await fitted.requests()).total).toBe(whole.total);
  });

  it('never plans past the budget less its reserve, from the smallest budget to the whole plan', async () => {
    const whole = await planRequests(settings());
    for (const reserved of [0, 12]) {
      for (let maxRequests = smallestBudget(3, reserved); maxRequests <= whole.total + reserved + 5; maxRequests += 17) {
        const plan = await planRequests(settings({ maxRequests, reserved }));
        expect(plan.total, `--max-requests ${maxRequests}, ${reserved} reserved`).toBeLessThanOrEqual(maxRequests - reserved);
        expect(plan.total + plan.shrinkAtMost).toBeLessThanOrEqual(maxRequests - reserved);
      }
    }
  });

  it('takes random cases first, as many per rule as fit, and keeps the fixed cases and scenarios', async () => {
    const whole = await planRequests(settings());
    const plan = await planRun(settings({ maxRequests: whole.total - 40, reserved: 0 }));
    const requests = await plan.requests();
    expect(plan.budget!.runs).toBeGreaterThan(0);
    expect(plan.budget!.runs).toBeLessThan(PROFILES.quick);
    expect(plan.budget!.trimmed).toEqual([`random cases: ${plan.budget!.runs} per rule instead of ${PROFILES.quick}`]);
    expect([requests.fixed, requests.fixedTwins, requests.scenarios]).toEqual([whole.fixed, whole.fixedTwins, whole.scenarios]);
    // One more random case per rule would not have fitted.
    const more = await planRequests({ ...settings(), runs: plan.budget!.runs + 1 });
    expect(more.total).toBeGreaterThan(whole.total - 40);
  });

  it('then the scenarios that judge the fewest rules for their requests, then halves of examples and families, conventions first', async () => {
    const whole = await planRequests(settings());
    const fixedOnly = whole.probes + whole.fixed + whole.fixedTwins;
    const scenariosCut = await planRun(settings({ maxRequests: fixedOnly + 45, reserved: 0 }));
    expect(scenariosCut.budget!.runs).toBe(0);
    expect(scenariosCut.budget!.trimmed[1]).toMatch(/^the scenario of id\.ref-id\.concurrent-duplicate \(30 requests\)$/);
    expect(scenariosCut.share.scenarios.map((s) => s.rule)).toContain('fa.auth-401');

    const small = await planRun(settings({ maxRequests: 60, reserved: 0 }));
    const cuts = small.budget!.trimmed.filter((t) => /fixed cases$/.test(t));
    const basisOf = (line: string) => getRule(line.split(':')[0] as never).basis;
    const firstDocumented = cuts.findIndex((t) => basisOf(t) === 'documented');
    expect(firstDocumented).toBeGreaterThan(0);
    expect(cuts.slice(0, firstDocumented).every((t) => basisOf(t) === 'convention')).toBe(true);
    expect((await small.requests()).total).toBeLessThanOrEqual(60);
  });

  it('tells each rule it left short how many of its planned cases it kept', async () => {
    const plan = await planRun(settings({ maxRequests: 200, reserved: 0 }));
    const whole = await planRequests(settings());
    const examples = caseFamilies().find((f) => f.rule === 'fa.valid-accepted')!.examples.length;
    expect(plan.budget!.notes.get('fa.valid-accepted')).toBe(
      `the request budget (--max-requests 200) left it ${examples} of its ${examples} fixed and 0 of its ${PROFILES.quick} random cases (the whole plan needs --max-requests ${whole.total})`,
    );
    expect(plan.budget!.notes.get('id.ref-id.concurrent-duplicate')).toMatch(/left out the scenario that judges it/);
  });
});
