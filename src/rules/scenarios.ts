/**
 * Stateful scenarios: rules that one exchange cannot show. Each returns outcomes for its rule;
 * every exchange it makes is also judged by all checks like any other. The scenarios live with
 * their operation's rules (create-identity/ref-id-scenarios.ts, http-around/auth-scenario.ts,
 * update-fiat-account/sequences/, the refusal scenarios create-identity/refused-create-scenario.ts
 * and update-fiat-account/refused-update-scenario.ts); this is their shape and their list.
 */
import type { TestCase } from '../core/case.ts';
import type { Exchange } from '../core/exchange.ts';
import type { Operation } from '../core/operations.ts';
import type { Problem } from './check.ts';
import type { RuleId } from '../core/catalogue.ts';
import type { TokenRenewal } from '../core/token-renewal.ts';
import type { CreatedIdentities } from './create-identity/created-identities.ts';
import type { IdentityMemory } from './create-identity/remembered-identities.ts';
import type { MetadataSemantics } from './update-fiat-account/metadata-state.ts';
import { accountSequences } from './update-fiat-account/sequences/account-sequences.ts';
import { concurrentDuplicate, sequentialDuplicate } from './create-identity/ref-id-scenarios.ts';
import { acrossTokens } from './create-identity/ref-id-across-tokens.ts';
import { authentication } from './http-around/auth-scenario.ts';
import { refusedCreate } from './create-identity/refused-create-scenario.ts';
import { refusedUpdate } from './update-fiat-account/refused-update-scenario.ts';
import { updatedAtClock } from './update-fiat-account/updated-at-scenario.ts';
import type { AcceptedOpenValue } from './open-points/open-point-book.ts';
import type { CombinationsJudged } from './open-points/combinations-judged.ts';
import { openSpaceCombinations } from './open-points/open-space-scenario.ts';

export interface ScenarioContext {
  /** Sends one case as it is (an update without an id goes to the next account of the pool) and judges it. */
  exercise(c: TestCase): Promise<Exchange>;
  /** Sends cases at the same moment, as they are (no ref_id stamping). */
  sendTogether(cases: TestCase[]): Promise<Exchange[]>;
  freshRefId(): string;
  stamp(c: TestCase, refId: string): TestCase;
  concurrentDuplicates: number;
  fiatAccountIds: readonly string[];
  /** The identities the run created so far, by ref_id. */
  created: CreatedIdentities;
  /** Picks one of `items` from the run's seed (the same run repeats the same choice). */
  pick<T>(items: readonly T[]): T;
  /** The run's seed, and its random cases per rule (the profile). */
  seed: number;
  runs: number;
  /** Whether the target replaces or merges metadata, as far as the run knows. */
  metadataSemantics(): MetadataSemantics;
  /** An update with its metadata fitted to its account (under merge: the keys it holds, when it is full). */
  fitMetadata(c: TestCase): TestCase;
  /**
   * Asks the token endpoint for a new access token now (one token request); the requests after
   * it carry it. Absent when the run's token is not fetched (a static --token, or none).
   */
  renewToken?(): Promise<TokenRenewal>;
  /** Under --max-requests, what the budget leaves for shrinking a failing sequence (else its own 50). */
  shrinkRequests?: number;
  /** --lifetime: how long after their creation the run repeats its first ref_ids once more (at its end), ms. */
  lifetimeMs?: number;
  /** Waits `ms` (the run's clock: a test gives its own; absent: a timer); ends early, and the run stops, on an interrupt. */
  wait?(ms: number): Promise<void>;
  /** The run's clock, ms since the epoch (absent: Date.now). */
  now?(): number;
  /** --state: the identities earlier runs created for this API user on this target. */
  memory?: IdentityMemory;
  /** What a scenario keeps from its run for its later part (LaterPart), by its rule: one map per run. */
  carried?: Map<string, unknown>;
  /** The open values the target accepted so far, and the record of the combinations judged with them (absent: none known, as in a replay). */
  openSpace?: { accepted(): AcceptedOpenValue[]; tried(operation: Operation, field: string): boolean; judged: CombinationsJudged };
}

/**
 * Moments after the scenarios phase when a scenario comes back (repeats spread over the run's
 * length, docs/design.md "Guarantees over an API user's lifetime"): after the random cases, and at
 * the end, after shrinking and before the restore.
 */
export type LaterMoment = 'after-random-cases' | 'at-end';

/** What a scenario sends later in the run: its rules end after the last moment. */
export interface LaterPart {
  /** The requests it sends at the moments together, to a faithful target (part of the scenario's `requests`). */
  requests(planning: ScenarioPlanning): number;
  run(context: ScenarioContext, moment: LaterMoment): Promise<ScenarioOutcome[]>;
}

/** What the requests of a scenario depend on. */
export interface ScenarioPlanning {
  concurrentDuplicates: number;
  runs: number;
  seed: number;
  /** The fiat accounts of the pool. */
  accounts: number;
  /**
   * Identities a faithful target created before the scenario (the fixed cases', earlier
   * scenarios'): what it sends is then exact. Absent: the most it may send.
   */
  identitiesBefore?: number;
  /** --lifetime, ms: the run repeats its first ref_ids once more that long after their creation. */
  lifetimeMs?: number;
  /** --state: identities earlier runs created (a few of their ref_ids are repeated). */
  remembered?: number;
  /** false: the run's token is static (no renewal); absent: it is fetched (client credentials, the embedded server's). */
  fetchesTokens?: boolean;
  /** The rules the run judges: a refused invalid case asks its twin only for these (absent: all). */
  selectedIds?: ReadonlySet<string>;
  /** The rules whose families the plan sends, all their examples (absent: unknown). */
  families?: ReadonlySet<string>;
  /** The scenarios the plan runs, each by its own rule (absent: unknown). */
  scenarios?: ReadonlySet<string>;
}

export interface ScenarioOutcome {
  problems: Problem[];
  exchange: Exchange;
  /** The rule it judges, when the scenario judges several (else the scenario's rule). */
  rule?: RuleId;
}

/** What a scenario judged, and when it judged nothing, why. */
export interface ScenarioResult {
  outcomes: ScenarioOutcome[];
  notJudged?: string;
  /** The rules `notJudged` is about, when not every rule of the scenario. */
  notJudgedRules?: RuleId[];
  /**
   * What would let the scenario judge when the run's settings keep it from judging, whatever the
   * target does (one fiat account for isolation): the shortfall line then gives this fix alone.
   */
  remedy?: string;
  /** The setting `remedy` changes (`--fiat-account-id`): the rules are ruled out by the configuration, not short of cases. */
  ruledOutBy?: string;
  /** Per rule, the scenario's own word on why it judged the rule less than its minimum (a sequence's: how many ran, what ended them). */
  notes?: Partial<Record<RuleId, string>>;
  /** Per rule, the fix that goes with its note, when the scenario knows it (a contradiction that ends the sequences). */
  remedies?: Partial<Record<RuleId, string>>;
}

/** What judging recorded exchanges keeps, for a scenario judging its rules again: the one judge's state (rule-judge.ts). */
export interface RejudgeState {
  created: CreatedIdentities;
  metadataSemantics(): MetadataSemantics;
}

/** One judgement of a scenario's rule from recorded exchanges, at the index of the exchange that decided it. */
export interface RejudgedOutcome {
  rule: RuleId;
  problems: Problem[];
  at: number;
}

/**
 * A scenario's rules judged again from recorded exchanges in their order (a HAR sent again or
 * read offline), as its run judges them live, from the same functions.
 */
export interface ScenarioRejudge {
  /** After the one judge judged the exchange at `at`: what that decides of the scenario's rules. */
  observe(exchange: Exchange, at: number): RejudgedOutcome[];
  /** Once every exchange is in: what is decided only then (a race's round, the last sequence). */
  finish(): RejudgedOutcome[];
}

interface ScenarioShape {
  rule: RuleId;
  /** Other rules its outcomes judge (a sequence judges three). */
  alsoJudges?: RuleId[];
  /** Other rules whose cases the scenario sends (the auth scenario feeds the 401 rules). */
  feeds: RuleId[];
  /** The coverage minimum of each rule it judges or feeds: the rounds or requests it must judge it by. */
  minimums: Partial<Record<RuleId, number>>;
  /** The requests it sends to a faithful target (at most, without `identitiesBefore`). */
  requests(planning: ScenarioPlanning): number;
  /** The identities it makes on a faithful target (none when absent). */
  creates?(planning: ScenarioPlanning): number;
  /** The longest it waits for the target's clock, in milliseconds (none when absent): the plan's time says it. */
  waitsAtMostMs?(planning: ScenarioPlanning): number;
  /** The fiat accounts it needs to judge every rule of its own (none when absent): a shard holding it gets as many. */
  fiatAccounts?: number;
  /**
   * Rules it cannot judge with fewer fiat accounts than `accounts`, whatever the target does, and
   * the fix: a plan names them before the run (engine/ruled-out.ts), the run reports them as ruled out.
   */
  accountNeeds?: { rules: RuleId[]; accounts: number; fix: string };
  /**
   * Rules it cannot judge unless the run fetches its tokens (OAuth client credentials), whatever
   * the target does: with a static token a plan names them, the run reports them as ruled out.
   */
  credentialNeeds?: { rules: RuleId[]; setting: string; fix: string };
  /** Requests it sends to the token endpoint, not to the base URL (not in `requests`), with client credentials. */
  tokenRequests?: number;
  run(context: ScenarioContext): Promise<ScenarioResult>;
  /** What it sends later in the run (LaterMoment), judging its rule again: counted in `requests`. */
  later?: LaterPart;
}

/**
 * A scenario whose outcomes judge its rules (the ref_id scenarios, the update sequences) says how
 * they are judged again from recorded exchanges: a rule cannot be left out of a replay by
 * omission. Otherwise the checks judge what it sends, live and recorded alike.
 */
export type Scenario = ScenarioShape & ({ judgesItsRule: false } | { judgesItsRule: true; rejudge(state: RejudgeState): ScenarioRejudge });

export const SCENARIOS: readonly Scenario[] = [
  sequentialDuplicate,
  concurrentDuplicate,
  acrossTokens,
  authentication,
  accountSequences,
  refusedCreate,
  refusedUpdate,
  updatedAtClock,
  // The combinations over the open space come last: they use what the others learned (a ref_id in another letter case).
  openSpaceCombinations,
];

/** The rules a scenario's outcomes judge. */
export const scenarioRules = (s: Scenario): RuleId[] => [s.rule, ...(s.alsoJudges ?? [])];
