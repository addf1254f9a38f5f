/**
 * What a run with a config would send, told before anything is sent (`conformance plan`): per
 * phase and per rule, the fiat accounts it would change, the identities it would create and the
 * time at the rate limit. Counted by the run's own planning (run-plan.ts, plan-requests.ts), for
 * a faithful target; shrinking (it follows failures) and 429 retries come on top.
 */
import { formatDuration } from '../core/duration.ts';
import { budgetName, METADATA_PROBES } from '../engine/request-budget.ts';
import { poolSize } from './request-reserve.ts';
import type { RunConfig } from './run-config.ts';
import { fetchesTokens, runPlanOf } from './run-plan.ts';
import { rememberedCount } from './identity-state.ts';
import { REMEMBERED_REPEATS } from '../rules/create-identity/remembered-identities.ts';
import { RULES } from '../core/catalogue.ts';
import { ruledOutRules, type RuledOutRule } from '../engine/ruled-out.ts';

export interface PlanSummary {
  seed: number;
  profile: string;
  /** Random cases per rule the profile asks (a budget may send fewer: `budget.runs`). */
  runs: number;
  /** The base URL, or absent for the embedded server. */
  target?: string;
  rateLimitPerSecond: number | null;
  /**
   * Requests by phase, in the run's order; `shrinkingAtMost` only if something fails; `restoreAtMost`
   * reads the accounts before the run and puts them back after (0 under --no-restore).
   */
  phases: {
    probe: number;
    fixedCases: number;
    scenarios: number;
    randomCases: number;
    /** The scenarios' repeats after the random cases and at the end (and under --lifetime). */
    laterRepeats: number;
    total: number;
    shrinkingAtMost: number;
    restoreAtMost: number;
  };
  /** --lifetime, ms: the run waits at its end until its first ref_ids are that old, then repeats them. */
  lifetimeMs?: number;
  /** --state: identities earlier runs left for this API user on this target (a few are repeated). */
  remembered?: number;
  /** Of the phases: valid twins of invalid cases (a faithful target refuses each invalid case). */
  twins: { fixed: number; random: number };
  rules: { rule: string; fixed: number; fixedTwins: number; random: number; randomTwins: number }[];
  scenarios: { rule: string; requests: number }[];
  /**
   * The pool: the ids given, or for the embedded server the count it seeds (their ids are made when
   * it starts). With --shard against a remote target, this shard's own share of the `given` distinct ids.
   */
  fiatAccounts: { ids?: string[]; count: number; given?: number };
  /** --shard i/n. */
  shard?: { index: number; count: number };
  /** Identities a faithful target would create. */
  identities: number;
  /** The time the rate limit alone takes for the total; absent without a rate limit. */
  atRateLimitMs?: number;
  /** The longest the run waits for the target's clock (fa.updated-at.moves), on top of its requests; absent when it never waits. */
  clockWaitAtMostMs?: number;
  /** Since the budget may cut below minimums: the smallest --max-requests whose plan meets every rule's minimum. */
  budget?: { maxRequests: number; reserved: number; runs: number; trimmed: string[]; concludes: number };
  /**
   * The rules this configuration cannot judge whatever the target does (one fiat account, a budget
   * below their minimum): each with the setting and the smallest change that would judge it.
   */
  ruledOut: RuledOutRule[];
  /** Rules left out by --rule: the run judges none of them. */
  notSelected: number;
  /**
   * With a fetched token (client credentials, the embedded server): requests to the token
   * endpoint, not in `phases` (they do not go to the base URL): the first token and the scenarios'
   * forced renewals, by rule. A token that expires or a 401 renews it once more.
   */
  tokenRequests?: { first: number; renewals: { rule: string; requests: number }[] };
}

export async function planSummary(config: RunConfig): Promise<PlanSummary> {
  const accounts = poolSize(config);
  // --state: a few ref_ids of earlier runs are repeated (the file is read, never written, by a plan).
  const remembered = config.stateFile && config.baseUrl ? await rememberedCount(config.stateFile, config.baseUrl, config.auth) : 0;
  const plan = await runPlanOf(config, accounts, remembered);
  const requests = await plan.requests();
  const { budget } = plan;
  const ruledOut = await ruledOutRules(plan, accounts, config.runs, fetchesTokens(config));
  return {
    seed: config.seed,
    profile: config.profile,
    runs: config.runs,
    ...(config.baseUrl !== undefined ? { target: config.baseUrl } : {}),
    rateLimitPerSecond: config.rateLimitPerSecond,
    phases: {
      probe: requests.probes,
      fixedCases: requests.fixed + requests.fixedTwins,
      scenarios: requests.scenarios - requests.later,
      randomCases: requests.random + requests.randomTwins,
      laterRepeats: requests.later,
      total: requests.total,
      shrinkingAtMost: requests.shrinkAtMost,
      restoreAtMost: config.noRestore ? 0 : requests.restoreAtMost,
    },
    twins: { fixed: requests.fixedTwins, random: requests.randomTwins },
    rules: requests.byFamily.map((f) => ({ rule: f.rule, fixed: f.examples, fixedTwins: f.fixedTwins, random: f.random, randomTwins: f.randomTwins })),
    scenarios: requests.byScenario.map((s) => ({ rule: s.rule, requests: s.requests })),
    fiatAccounts: {
      ...(config.baseUrl !== undefined ? { ids: [...config.fiatAccountIds] } : {}),
      count: accounts,
      ...(config.fiatAccountsGiven !== undefined ? { given: config.fiatAccountsGiven } : {}),
    },
    ...(config.shard ? { shard: { ...config.shard } } : {}),
    identities: requests.creates,
    ...(config.lifetimeMs ? { lifetimeMs: config.lifetimeMs } : {}),
    ...(config.stateFile ? { remembered } : {}),
    ...(config.rateLimitPerSecond ? { atRateLimitMs: (requests.total / config.rateLimitPerSecond) * 1000 } : {}),
    ...(requests.waitsAtMostMs ? { clockWaitAtMostMs: requests.waitsAtMostMs } : {}),
    ...(budget
      ? { budget: { maxRequests: budget.maxRequests, reserved: budget.reserved, runs: budget.runs, trimmed: [...budget.trimmed], concludes: budget.concludes } }
      : {}),
    ruledOut,
    notSelected: RULES.length - plan.selected.length,
    ...(fetchesTokens(config)
      ? { tokenRequests: { first: 1, renewals: plan.share.scenarios.flatMap((s) => (s.tokenRequests ? [{ rule: s.rule, requests: s.tokenRequests }] : [])) } }
      : {}),
  };
}

/** The summary for people, a line each. */
export function planLines(summary: PlanSummary): string[] {
  const { phases, twins } = summary;
  const row = (name: string, n: number | string, note = '') => `  ${name.padEnd(14)} ${String(n).padStart(6)}${note ? `  ${note}` : ''}`;
  const accounts = summary.fiatAccounts.ids
    ? `${summary.fiatAccounts.ids.join(', ')}${shardShareNote(summary)}`
    : `the embedded server's ${summary.fiatAccounts.count} seeded accounts (ids made when it starts${summary.shard ? ', one server per shard' : ''})`;
  const time =
    summary.atRateLimitMs !== undefined
      ? `about ${formatDuration(summary.atRateLimitMs)} at ${summary.rateLimitPerSecond} requests a second`
      : 'no rate limit: as fast as the target answers';
  const wait = summary.clockWaitAtMostMs
    ? `, plus at most ${formatDuration(summary.clockWaitAtMostMs)} waiting for the target's clock (fa.updated-at.moves)`
    : '';
  return [
    `plan: ${summary.target ?? 'the embedded reference server'}, seed ${summary.seed}, profile ${summary.profile}, ${summary.runs} random cases per rule${summary.shard ? `, shard ${summary.shard.index}/${summary.shard.count}` : ''}`,
    ...(summary.budget ? budgetLines(summary.budget) : []),
    'requests by phase (to a faithful target):',
    row('probe', phases.probe, `a reachability check and a warm round trip, a read of each account, ${METADATA_PROBES} metadata probes`),
    row('fixed cases', phases.fixedCases, `${phases.fixedCases - twins.fixed} cases, ${twins.fixed} valid twins`),
    row('scenarios', phases.scenarios),
    row('random cases', phases.randomCases, `${phases.randomCases - twins.random} cases, ${twins.random} valid twins`),
    row('later', phases.laterRepeats, laterNote(summary)),
    row('total', phases.total),
    row('shrinking', `<= ${phases.shrinkingAtMost}`, 'at most, only if something fails; 429 retries come on top'),
    phases.restoreAtMost
      ? row('restore', `<= ${phases.restoreAtMost}`, 'at most: each account read before the run, then read, written back and read again after it')
      : row('restore', 0, 'off (--no-restore): the accounts keep what the run wrote'),
    'requests by rule (fixed + twins, random + twins):',
    ...summary.rules.map((r) => `  ${r.rule.padEnd(44)} ${r.fixed} + ${r.fixedTwins}, ${r.random} + ${r.randomTwins}`),
    ...summary.scenarios.map((s) => `  ${`${s.rule} (scenario)`.padEnd(44)} ${s.requests}`),
    `fiat accounts it would change: ${accounts}`,
    `identities it would create: ${summary.identities}`,
    ...(summary.tokenRequests ? [tokenRequestLine(summary.tokenRequests)] : []),
    `time: ${time}${wait}`,
    ...ruledOutLines(summary),
    'nothing was sent.',
  ];
}

/** What the scenarios send later in the run, when, and what --lifetime adds to the run's time. */
function laterNote(summary: PlanSummary): string {
  const spread = "the first ref_ids again after the random cases and at the end, and the updated_at clock's last steps";
  const earlier =
    summary.remembered === undefined
      ? ''
      : `; ${Math.min(REMEMBERED_REPEATS, summary.remembered)} of the ${summary.remembered} ref_ids earlier runs left (--state)`;
  if (!summary.lifetimeMs) return `${spread}${earlier}`;
  return `${spread}, and ${formatDuration(summary.lifetimeMs)} after their creates (--lifetime: the run waits at its end if it was shorter)${earlier}`;
}

/** The requests to the token endpoint: not in the total, which counts the base URL's. */
function tokenRequestLine({ first, renewals }: NonNullable<PlanSummary['tokenRequests']>): string {
  const forced = renewals.map((r) => `${r.requests} forced renewal for ${r.rule}`);
  const total = first + renewals.reduce((n, r) => n + r.requests, 0);
  return `token requests: ${total} to the token endpoint (the first token${forced.map((f) => `, ${f}`).join('')}), not in the total; a token that expires or a 401 renews it once more`;
}

/** ` (shard 2/3's own 2 of the 5 given ids; ...)`: a shard's accounts are its share of the list every shard was given. */
function shardShareNote(summary: PlanSummary): string {
  const { shard, fiatAccounts } = summary;
  if (!shard || fiatAccounts.given === undefined) return '';
  return ` (shard ${shard.index}/${shard.count}'s own ${fiatAccounts.count} of the ${fiatAccounts.given} ids given: shards never write the same account)`;
}

function budgetLines(budget: NonNullable<PlanSummary['budget']>): string[] {
  const kept = budget.reserved ? `, ${budget.reserved} kept for restoring the accounts` : '';
  if (!budget.trimmed.length) return [`${budgetName(budget.maxRequests)}${kept}: the whole plan fits`];
  return [`${budgetName(budget.maxRequests)}${kept}: the plan was cut to fit:`, ...budget.trimmed.map((t) => `  - ${t}`)];
}

/**
 * What this configuration cannot judge, every rule named with its fix (not run: such a rule does
 * not block a conformant verdict without --strict), and the rules --rule leaves out.
 */
function ruledOutLines(summary: PlanSummary): string[] {
  const lines: string[] = [];
  if (summary.ruledOut.length) {
    const byFix = new Map<string, string[]>();
    for (const r of summary.ruledOut) byFix.set(`${r.setting}: ${r.fix}`, [...(byFix.get(`${r.setting}: ${r.fix}`) ?? []), r.rule]);
    lines.push(
      `not judged by this configuration: ${summary.ruledOut.length} of ${RULES.length - summary.notSelected} rules (not run; they do not block the verdict without --strict):`,
    );
    for (const [fix, rules] of byFix) lines.push(`  ${fix} judges ${rules.length === 1 ? 'it' : `these ${rules.length}`}: ${rules.join(', ')}`);
  }
  if (summary.notSelected) lines.push(`not selected by --rule: ${summary.notSelected} of ${RULES.length} rules (the run judges none of them)`);
  return lines;
}
