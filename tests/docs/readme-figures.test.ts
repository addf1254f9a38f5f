/**
 * README.md's figures come from the code (issue 31, point 6): every closing line (`N passed,
 * N failed, ...`) and every `--json` summary counts as many rules as the catalogue has, the
 * `running N rules` line names that many, the `planned:` line is what the planner prints for the
 * command it says it is for, the progress example's `~N` is the plan of the deep run it shows,
 * and the profiles' request figures are PLANNED_REQUESTS rounded. A change to the catalogue or
 * the planner without the README fails here.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../src/core/catalogue.ts';
import { PLANNED_REQUESTS } from '../../src/engine/profiles.ts';
import { plannedRunLine } from '../../src/run/planned-run.ts';
import { resolveRunConfig, runConfig } from '../../src/run/run-config.ts';
import { runPlanOf } from '../../src/run/run-plan.ts';

const README = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
const RULE_COUNT = RULES.length;
const all = (pattern: RegExp) => [...README.matchAll(pattern)];

describe('README.md figures', () => {
  it('closing lines count every rule of the catalogue, in the grammar console.ts prints', () => {
    const lines = all(/^(\d+) passed, (\d+) failed(?:, (\d+) inconclusive)?(?:, (\d+) skipped)?(?:, (\d+) errors)?$/gm);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines)
      expect(
        line.slice(1).reduce((sum, n) => sum + Number(n ?? 0), 0),
        line[0],
      ).toBe(RULE_COUNT);
    // Written inline in prose too (`55 passed, 0 failed, 1 inconclusive`).
    for (const inline of all(/`(\d+) passed, (\d+) failed(?:,\s+(\d+) inconclusive)?`/g)) {
      expect(
        inline.slice(1).reduce((sum, n) => sum + Number(n ?? 0), 0),
        inline[0],
      ).toBe(RULE_COUNT);
    }
  });

  it('--json summaries name the catalogue as their rules, and their counts add up', () => {
    const summaries = all(/"rules": (\d+), "passed": (\d+), "failed": (\d+), "inconclusive": (\d+), "skipped": (\d+), "errors": (\d+)/g);
    expect(summaries.length).toBeGreaterThan(0);
    for (const [text, rules, ...counts] of summaries) {
      expect(Number(rules), text).toBe(RULE_COUNT);
      expect(
        counts.reduce((sum, n) => sum + Number(n), 0),
        text,
      ).toBe(RULE_COUNT);
    }
    for (const [text, rules] of all(/running (\d+) rules against/g)) expect(Number(rules), text).toBe(RULE_COUNT);
  });

  it("the planned line is the planner's for the remote example command, with --seed 42", async () => {
    const [line] = all(/^planned: about .* (\d+) ms a round trip$/gm);
    expect(line, 'README has a planned: line').toBeDefined();
    const argv = [
      ...['--base-url', 'https://sandbox.example.com', '--auth-url', 'https://sandbox.example.com/oauth/token'],
      ...['--client-id', 'ID', '--client-secret', 'SECRET', '--fiat-account-id', '0f8fad5b-d9cb-469f-a165-70867728950e', '--seed', '42'],
    ];
    // The command is the one README gives at the top of "Testing your own implementation".
    expect(README).toContain('npx conformance run --base-url https://sandbox.example.com \\');
    const config = resolveRunConfig(argv, {}, () => 0);
    if (!config) throw new Error('the example command did not resolve');
    const plan = await (await runPlanOf(config, config.fiatAccountIds.length)).requests();
    expect(line[0]).toBe(plannedRunLine(config, plan, config.fiatAccountIds, Number(line[1])));
  });

  it("the progress examples' ~N is the plan of the deep run they show (embedded server, seed 42)", async () => {
    const totals = [...all(/\d+\/~(\d+) requests/g), ...all(/\d+ of ~(\d+) requests sent/g)].map((m) => Number(m[1]));
    expect(totals.length).toBeGreaterThan(0);
    const deep = await (await runPlanOf(runConfig({ seed: 42, profile: 'deep', runs: 400, fault: 'id-dob-previous-day' }), 3)).requests();
    for (const total of totals) expect(total).toBe(deep.total);
  });

  it('the profiles cost what PLANNED_REQUESTS says, rounded to tens', () => {
    const [, quick, standard, deep] = /about ([\d,]+) \/ ([\d,]+) \/ ([\d,]+) requests/.exec(README) ?? [];
    const figure = (text: string | undefined) => Number((text ?? '').replace(/,/g, ''));
    expect([figure(quick), figure(standard), figure(deep)]).toEqual(
      [PLANNED_REQUESTS.quick, PLANNED_REQUESTS.standard, PLANNED_REQUESTS.deep].map((n) => Math.round(n / 10) * 10),
    );
  });
});
