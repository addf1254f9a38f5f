/**
 * The requests a share of a plan sends to a faithful target, counted case by case: the
 * reachability check and the probe, each family's examples with their valid twins (a faithful
 * target refuses every invalid case, so each asks its twin; a twin that examples of several
 * families share is asked once), the scenarios (exact, given the identities the fixed cases made
 * before them), and the random cases with their twins. The run, the planned line, the request
 * budget (budget-fit.ts) and `conformance plan` all count here; only shrinking (it follows
 * failures) and 429 retries are left out.
 */
import { restoreRequests } from './restore/restore-requests.ts';
import type { RuleId } from '../core/catalogue.ts';
import { isAround, type TestCase } from '../core/case.ts';
import { OPERATIONS } from '../core/operations.ts';
import { inputKey, randomRuns } from './coverage.ts';
import { generatedCases } from './generated-cases.ts';
import type { CaseFamily } from '../rules/cases/families.ts';
import type { Scenario } from '../rules/scenarios.ts';
import { SHRINK_REQUESTS } from './shrink-budget.ts';
import { METADATA_PROBES, REACHABILITY_REQUESTS } from './request-budget.ts';

/** What one family sends. */
export interface FamilyRequests {
  rule: string;
  examples: number;
  /** Twins of its examples that no earlier family asked. */
  fixedTwins: number;
  random: number;
  randomTwins: number;
}

/** What one scenario sends (to a faithful target). */
export interface ScenarioRequests {
  rule: RuleId;
  requests: number;
}

export interface RequestPlan {
  /** The reachability check, the reads of the accounts and the two metadata probes. */
  probes: number;
  /** The families' examples. */
  fixed: number;
  /** Valid twins of invalid examples (each asked once). */
  fixedTwins: number;
  random: number;
  /** Valid twins of invalid random cases. */
  randomTwins: number;
  /** fixedTwins + randomTwins. */
  twins: number;
  scenarios: number;
  /** Of `scenarios`, what they send later in the run (after the random cases, at the end; rules/scenarios.ts LaterPart). */
  later: number;
  /** Of the total, the updates of pool accounts: they go one at a time per account. */
  updates: number;
  /** Identities a faithful target creates (valid creates under a ref_id of their own). */
  creates: number;
  /** All of the above: what a run against a faithful target sends. */
  total: number;
  /** Requests shrinking may add when something fails. */
  shrinkAtMost: number;
  /** Requests putting the pool accounts back may add (restore/restore-requests.ts); not in `total`, like shrinking. */
  restoreAtMost: number;
  /** The longest the scenarios wait for the target's clock (updated-at-scenario.ts), in milliseconds. */
  waitsAtMostMs: number;
  byFamily: FamilyRequests[];
  byScenario: ScenarioRequests[];
}

/** What the counting needs of a run. */
export interface CountSettings {
  /** The rules the run judges: an invalid case asks its twin only for a rule of these (valid-twins.ts). */
  selectedIds: ReadonlySet<string>;
  accounts: number;
  seed: number;
  concurrentDuplicates: number;
  runs: number;
  /** --lifetime, ms: the scenarios repeat once more that long after their creates. */
  lifetimeMs?: number;
  /** --state: identities earlier runs created (a few of their ref_ids are repeated). */
  remembered?: number;
}

/** What a family costs, case by case: counted once, then for any number of its cases. */
export interface FamilyCost {
  family: CaseFamily;
  /** Its random cases at the profile's runs, in order: whether each asks a twin, its pool updates and creates. */
  random: { twin: boolean; updates: number; creates: number }[];
}

/**
 * A case a faithful target refuses, whose twin is asked because its rule is judged: an invalid
 * case, or an open case of a null in an update (the default reading refuses it, as typed; its
 * twin tells a limit from a refusal of everything, valid-twins.ts).
 */
const asksTwin = (c: TestCase, selectedIds: ReadonlySet<string>): boolean => {
  if (c.control === undefined) return false;
  if (c.open) return c.open.kind === 'null-or-empty' && c.open.value === 'null' && selectedIds.has(OPERATIONS[c.operation].validAcceptedRule);
  const own = c.violates ?? c.exercises;
  return c.mode === 'invalid' && own !== undefined && selectedIds.has(own);
};

/** A create a faithful target takes under a ref_id of its own (CreatedIdentities counts the same). */
const creates = (c: TestCase): number =>
  c.operation === 'createIdentity' && !c.auth && !isAround(c) && c.mode !== 'invalid' && c.mode !== 'duplicate' ? 1 : 0;

const onPool = (c: TestCase): number => (c.operation === 'updateFiatAccount' && c.fiatAccountId === undefined ? 1 : 0);

/** The case and, when a faithful target refuses it, its twin: updates of the pool and identities created. */
function caseCost(c: TestCase, selectedIds: ReadonlySet<string>): { twin: boolean; updates: number; creates: number } {
  const twin = asksTwin(c, selectedIds);
  return { twin, updates: onPool(c) + (twin ? onPool(c.control!) : 0), creates: creates(c) + (twin ? creates(c.control!) : 0) };
}

/** Generates a family's random cases once (nothing is sent) and notes what each costs. */
export async function familyCost(family: CaseFamily, seed: number, runs: number, selectedIds: ReadonlySet<string>): Promise<FamilyCost> {
  const random: FamilyCost['random'] = [];
  const stream = generatedCases(family, seed, randomRuns(family, runs));
  for (let next = await stream.next(); next; next = await stream.next()) random.push(caseCost(next.testCase, selectedIds));
  return { family, random };
}

/** What is sent of each family and scenario: all of them, or what a request budget kept. */
export interface PlanSelection {
  /** Each family with how many of its examples go. */
  families: { cost: FamilyCost; examples: number }[];
  /** Random cases per rule (the profile's runs, or fewer under a budget). */
  runs: number;
  scenarios: readonly Scenario[];
}

/** Counts what a selection sends to a faithful target. */
export function countRequests(settings: CountSettings, selection: PlanSelection): RequestPlan {
  const twinKeys = new Set<string>();
  const plan: RequestPlan = {
    probes: REACHABILITY_REQUESTS + settings.accounts + METADATA_PROBES,
    ...{ fixed: 0, fixedTwins: 0, random: 0, randomTwins: 0, twins: 0, scenarios: 0, later: 0, creates: 0, total: 0 },
    updates: settings.accounts + METADATA_PROBES,
    shrinkAtMost: SHRINK_REQUESTS.perRun,
    restoreAtMost: restoreRequests(settings.accounts),
    waitsAtMostMs: 0,
    byFamily: [],
    byScenario: [],
  };
  for (const { cost, examples } of selection.families) {
    const entry: FamilyRequests = { rule: cost.family.rule, examples, fixedTwins: 0, random: 0, randomTwins: 0 };
    for (const c of cost.family.examples.slice(0, examples)) {
      const { twin, updates, creates: made } = caseCost(c, settings.selectedIds);
      plan.updates += updates;
      plan.creates += creates(c);
      // Fixed examples repeat their twins: each is asked once.
      if (!twin || twinKeys.has(inputKey(c.control!))) continue;
      twinKeys.add(inputKey(c.control!));
      entry.fixedTwins++;
      plan.creates += made - creates(c);
    }
    plan.byFamily.push(entry);
  }
  // The scenarios run after the fixed cases: what they send depends on the identities made before.
  let identitiesBefore = plan.creates;
  // What the scenarios may build on: the families sent whole, the scenarios run.
  const families = new Set(selection.families.filter((f) => f.examples === f.cost.family.examples.length).map((f) => f.cost.family.rule));
  const scenarios = new Set<string>(selection.scenarios.map((s) => s.rule));
  for (const scenario of selection.scenarios) {
    const planning = { ...settings, identitiesBefore, families, scenarios };
    plan.byScenario.push({ rule: scenario.rule, requests: scenario.requests(planning) });
    plan.later += scenario.later?.requests(planning) ?? 0;
    plan.waitsAtMostMs += scenario.waitsAtMostMs?.(planning) ?? 0;
    identitiesBefore += scenario.creates?.(planning) ?? 0;
  }
  plan.creates = identitiesBefore;
  for (const [i, { cost }] of selection.families.entries()) {
    const entry = plan.byFamily[i];
    for (const c of cost.random.slice(0, randomRuns(cost.family, selection.runs))) {
      entry.random++;
      if (c.twin) entry.randomTwins++;
      plan.updates += c.updates;
      plan.creates += c.creates;
    }
  }
  return totalled(plan);
}

function totalled(plan: RequestPlan): RequestPlan {
  const sum = (pick: (f: FamilyRequests) => number) => plan.byFamily.reduce((n, f) => n + pick(f), 0);
  plan.fixed = sum((f) => f.examples);
  plan.fixedTwins = sum((f) => f.fixedTwins);
  plan.random = sum((f) => f.random);
  plan.randomTwins = sum((f) => f.randomTwins);
  plan.twins = plan.fixedTwins + plan.randomTwins;
  plan.scenarios = plan.byScenario.reduce((n, s) => n + s.requests, 0);
  plan.total = plan.probes + plan.fixed + plan.twins + plan.random + plan.scenarios;
  return plan;
}
