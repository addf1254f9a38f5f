/**
 * Stateful scenarios: rules that one exchange cannot show. Each returns outcomes for its rule;
 * every exchange it makes is also judged by all checks like any other.
 */
import { UNAUTHENTICATED_KINDS, type TestCase, type UnauthenticatedKind } from '../core/case.ts';
import type { Exchange } from '../core/exchange.ts';
import type { Problem } from '../rules/check.ts';
import type { RuleId } from '../core/catalogue.ts';
import { is2xx, isObject, isRfc3339 } from '../rules/checks/exchange-facts.ts';
import { rulesOfAnswersAlone } from '../rules/rule-facts.ts';
import { withControl } from './generators/twins.ts';
import { createdId, idKey, shownId, type CreatedIdentities, type CreatedIdentity } from '../rules/created-identities.ts';
import type { MetadataSemantics } from './metadata-state.ts';
import { accountSequences } from './sequences/account-sequences.ts';

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
  /** Under --max-requests, what the budget leaves for shrinking a failing sequence (else its own 50). */
  shrinkRequests?: number;
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
}

export interface Scenario {
  rule: RuleId;
  /** Other rules its outcomes judge (a sequence judges three). */
  alsoJudges?: RuleId[];
  /** Other rules whose cases the scenario sends (the auth scenario feeds the 401 rules). */
  feeds: RuleId[];
  /** Its outcomes judge its rule (the ref_id scenarios); otherwise the checks judge what it sends. */
  judgesItsRule: boolean;
  /** The coverage minimum of each rule it judges or feeds: the rounds or requests it must judge it by. */
  minimums: Partial<Record<RuleId, number>>;
  /** The requests it sends to a faithful target (at most, without `identitiesBefore`). */
  requests(planning: ScenarioPlanning): number;
  /** The identities it makes on a faithful target (none when absent). */
  creates?(planning: ScenarioPlanning): number;
  /** The fiat accounts it needs to judge every rule of its own (none when absent): a shard holding it gets as many. */
  fiatAccounts?: number;
  run(context: ScenarioContext): Promise<ScenarioResult>;
}

/** A minimal valid identity: the tax rule satisfied the simplest way. */
const identity = (label: string): TestCase => ({
  operation: 'createIdentity',
  mode: 'valid',
  label,
  body: { person_details: { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1990-01-01' }, tax_details_not_required: true },
});

/** A repeat of a used ref_id: a rejection and the same identity back are both right. */
const duplicate = (c: TestCase, rule: RuleId): TestCase => ({ ...c, mode: 'duplicate', exercises: rule });

/**
 * Without distinct identities for distinct ref_ids, a repeat that comes back with "the same"
 * identity proves nothing: the ref_id scenarios then judge nothing (id.distinct-identities says why).
 */
function cannotTellIdentitiesApart(created: { size: number; distinctIds: number }): string | undefined {
  if (created.size < 2)
    return `the run created ${created.size} identit${created.size === 1 ? 'y' : 'ies'} with a readable id; a repeat cannot be told from a new identity`;
  if (created.distinctIds < created.size)
    return 'creates with different ref_ids got the same identity id (see id.distinct-identities): a repeat cannot be told from a new identity';
  return undefined;
}

/** Fresh identities the sequential scenario creates before it repeats their ref_ids. */
const SEQUENTIAL_ORIGINALS = 3;

const sequentialDuplicate: Scenario = {
  rule: 'id.ref-id.sequential-duplicate',
  // A repeat's answer is an identity too: the rules that judge an answer on its own judge it.
  feeds: ['id.distinct-identities', ...rulesOfAnswersAlone('createIdentity')],
  judgesItsRule: true,
  minimums: { 'id.ref-id.sequential-duplicate': 3 },
  // The originals, 4 repeats of a body (5 when the run made an identity before), one repeat with
  // another body, a used ref_id in another letter case and its twin (asked when it is refused,
  // which a faithful target need not do).
  requests: ({ identitiesBefore }) =>
    identitiesBefore === undefined ? SEQUENTIAL_ORIGINALS + 8 : SEQUENTIAL_ORIGINALS + 4 + Math.min(1, identitiesBefore) + 2,
  // The originals and the ref_id in another letter case.
  creates: () => SEQUENTIAL_ORIGINALS + 1,
  async run(context) {
    const own: CreatedIdentity[] = [];
    for (let i = 1; i <= SEQUENTIAL_ORIGINALS; i++) {
      const refId = context.freshRefId();
      await context.exercise(context.stamp(identity(`create ${i}/${SEQUENTIAL_ORIGINALS} with a new ref_id`), refId));
      const made = context.created.get(refId);
      if (made) own.push(made);
    }
    const why = cannotTellIdentitiesApart({ size: own.length, distinctIds: new Set(own.map((c) => c.key)).size });
    if (why) return { outcomes: [], notJudged: why };
    // Repeats of the oldest, the newest and the middle one, and of an identity made earlier in the
    // run by another rule's case: a server that remembers only its last ref_id shows itself.
    const earlier = context.created.list().filter((c) => !own.includes(c));
    const repeats = [own[0], own[own.length - 1], own[1], ...(earlier.length ? [context.pick(earlier)] : []), own[0]];
    const outcomes: ScenarioOutcome[] = [];
    for (const [i, original] of repeats.entries()) {
      // The same body again, as a client that retries sends it.
      const retry: TestCase = { ...identity(`repeat ${i + 1}/${repeats.length}: the create of identity ${original.id} again`), body: original.body };
      const again = await context.exercise(context.stamp(duplicate(retry, 'id.ref-id.sequential-duplicate'), original.refId));
      const id = createdId(again);
      if (is2xx(again) && id === undefined) continue; // no id to compare: judge nothing
      outcomes.push(repeatOutcome(again, original));
    }
    // The same ref_id with other details: still one identity per ref_id (a server keyed on the body creates another).
    const otherBody: TestCase = { ...identity(`repeat of the ref_id of identity ${own[1].id} with other details`), body: OTHER_DETAILS };
    const repeated = await context.exercise(context.stamp(duplicate(otherBody, 'id.ref-id.sequential-duplicate'), own[1].refId));
    if (!is2xx(repeated) || createdId(repeated) !== undefined) outcomes.push(repeatOutcome(repeated, own[1]));
    // Another ref_id that differs in letter case only: judged by id.distinct-identities, a refusal is the target's limit.
    const last = own[own.length - 1];
    await context.exercise(context.stamp(caseVariant(last.refId), otherCase(last.refId)));
    return { outcomes };
  },
};

/**
 * A repeat judged against the identity its ref_id made: another identity id is a second identity;
 * the same id created at another instant was created again (created_at is set once, 2.5).
 */
export function repeatOutcome(again: Exchange, original: CreatedIdentity): ScenarioOutcome {
  const id = createdId(again);
  if (id !== undefined && idKey(id) !== original.key)
    return {
      exchange: again,
      problems: [
        {
          message: `ref_id ${original.refId} was used again and a second identity ${shownId(id)} was created (first: ${original.id})`,
          kind: 'identity-duplicated',
          params: { refId: original.refId, ids: [original.id, shownId(id)] },
        },
      ],
    };
  const createdAt = isObject(again.response?.body) ? again.response.body.created_at : undefined;
  // Only two RFC 3339 instants compare; a malformed one is id.timestamps.rfc3339's finding.
  const comparable = isRfc3339(original.createdAt) && isRfc3339(createdAt);
  if (id !== undefined && comparable && Date.parse(original.createdAt as string) !== Date.parse(createdAt as string))
    return {
      exchange: again,
      problems: [
        {
          message: `ref_id ${original.refId} was used again and identity ${original.id} came back created anew: created_at ${String(createdAt)}, first ${original.createdAt}`,
          instancePath: '/created_at',
          kind: 'identity-recreated',
          params: { field: '/created_at', refId: original.refId, id: original.id, expected: original.createdAt as string, received: createdAt as string },
        },
      ],
    };
  return { exchange: again, problems: [] };
}

/** Other names and another date of birth than the minimal identity's, nothing more. */
const OTHER_DETAILS = { person_details: { first_name: 'Grace', last_name: 'Hopper', date_of_birth: '1985-12-09' }, tax_details_not_required: true };

/** The ref_id with its letters' case flipped: another ref_id (a ref_id is its exact text). */
export const otherCase = (refId: string): string => [...refId].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');

/**
 * A create whose ref_id differs from a used one in letter case only: an open point (a target may
 * keep ref_ids unique without regard to case and refuse it), its twin the same create with a
 * fresh ref_id. Accepted, it must be a new identity (id.distinct-identities).
 */
function caseVariant(usedRefId: string): TestCase {
  const c = identity(`a ref_id that differs from a used one (${usedRefId}) in letter case only`);
  return withControl({ ...c, open: { field: 'ref_id', kind: 'letter-case', value: 'a used ref_id in another letter case' } }, c.body);
}

/** Several rounds: a race shows only sometimes. */
const CONCURRENT_ROUNDS = 3;

/** The concurrent scenario's creates before the race: up to two, fewer when the run made identities before (at most two when unknown). */
const ownCreates = (identitiesBefore = 0): number => Math.max(0, 2 - identitiesBefore);

const concurrentDuplicate: Scenario = {
  rule: 'id.ref-id.concurrent-duplicate',
  feeds: [],
  judgesItsRule: true,
  minimums: { 'id.ref-id.concurrent-duplicate': 2 },
  // Creates of its own until the run made two identities, then the rounds.
  requests: ({ concurrentDuplicates, identitiesBefore }) => ownCreates(identitiesBefore) + CONCURRENT_ROUNDS * concurrentDuplicates,
  // One identity a round on a faithful target.
  creates: ({ identitiesBefore }) => ownCreates(identitiesBefore) + CONCURRENT_ROUNDS,
  async run(context) {
    // Under --rule this may be the first create of the run: two of its own show distinct ids.
    for (let i = context.created.size; i < 2; i++) {
      await context.exercise(context.stamp(identity(`create ${i + 1}/2 with a new ref_id (before the race)`), context.freshRefId()));
    }
    const why = cannotTellIdentitiesApart(context.created);
    if (why) return { outcomes: [], notJudged: why };
    const outcomes: ScenarioOutcome[] = [];
    for (let round = 1; round <= CONCURRENT_ROUNDS; round++) {
      const refId = context.freshRefId();
      const cases = Array.from({ length: context.concurrentDuplicates }, (_, i) =>
        context.stamp(
          duplicate(identity(`concurrent create ${i + 1}/${context.concurrentDuplicates} with one ref_id (round ${round})`), 'id.ref-id.concurrent-duplicate'),
          refId,
        ),
      );
      const outcome = raceOutcome(await context.sendTogether(cases), refId);
      if (outcome) outcomes.push(outcome);
    }
    return { outcomes, ...(outcomes.length ? {} : { notJudged: `no round of ${CONCURRENT_ROUNDS} had an accepted create with a readable id` }) };
  },
};

/**
 * One round of concurrent creates with one ref_id: more than one identity is a failure; undefined
 * when the round judges nothing (every create refused, or an accepted one without a readable id).
 */
export function raceOutcome(results: readonly Exchange[], refId: string): ScenarioOutcome | undefined {
  const accepted = results.filter(is2xx);
  if (!accepted.length) return undefined; // all rejected: nothing was created twice
  if (accepted.some((e) => createdId(e) === undefined)) return undefined; // ids unreadable: cannot tell
  const created = new Set(accepted.map(createdId));
  const evidence = accepted.find((e) => createdId(e) !== createdId(accepted[0])) ?? accepted[0];
  return {
    exchange: evidence,
    problems:
      created.size > 1
        ? [
            {
              message: `${results.length} concurrent creates with ref_id ${refId} created ${created.size} identities: ${[...created].map((id) => shownId(String(id))).join(', ')}`,
              kind: 'identity-duplicated',
              params: { refId, ids: [...created].map((id) => shownId(String(id))), creates: results.length },
            },
          ]
        : [],
  };
}

const HOW: Record<UnauthenticatedKind, string> = {
  // Not "without Authorization": followed by ": " in a message, the redaction would take it for the header.
  none: 'without an Authorization header',
  invalid: 'with a made-up bearer token',
  empty: 'with an empty bearer token',
  'wrong-scheme': 'with Basic instead of Bearer credentials',
};

/** Requests without valid credentials, each kind on each operation; the 401 and the challenge rules judge them. */
const authentication: Scenario = {
  rule: 'fa.auth-401',
  feeds: ['id.auth-401', 'fa.auth-challenge', 'id.auth-challenge'],
  judgesItsRule: false,
  // The challenge is judged on the 401s only: a target may answer one kind with 403 (a 401 rule's finding).
  minimums: { 'fa.auth-401': 3, 'id.auth-401': 3, 'fa.auth-challenge': 2, 'id.auth-challenge': 2 },
  requests: () => 2 * UNAUTHENTICATED_KINDS.length,
  async run(context) {
    const update: TestCase = { operation: 'updateFiatAccount', mode: 'valid', label: '', body: {} };
    for (const auth of UNAUTHENTICATED_KINDS) {
      await context.exercise({ ...update, auth, label: `update ${HOW[auth]}` });
      await context.exercise({ ...identity(`create ${HOW[auth]}`), auth });
    }
    return { outcomes: [] };
  },
};

export const SCENARIOS: readonly Scenario[] = [sequentialDuplicate, concurrentDuplicate, authentication, accountSequences];

/** The rules a scenario's outcomes judge. */
export const scenarioRules = (s: Scenario): RuleId[] => [s.rule, ...(s.alsoJudges ?? [])];
