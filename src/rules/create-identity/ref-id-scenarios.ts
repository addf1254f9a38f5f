/**
 * The ref_id scenarios (sections 4.2 and 8): a used ref_id never yields a second identity, whether
 * repeated one after another or sent by concurrent creates at once. Their outcomes judge their rules.
 */
import type { TestCase } from '../../core/case.ts';
import type { Exchange } from '../../core/exchange.ts';
import type { RuleId } from '../../core/catalogue.ts';
import { is2xx } from '../checks/exchange-facts.ts';
import { rulesOfAnswersAlone } from '../rule-facts.ts';
import { withControl } from '../cases/twins.ts';
import { createdId, sentRefId, shownId, type CreatedIdentity } from './created-identities.ts';
import { minimalIdentity as identity } from './minimal-identity.ts';
import { duplicate, repeatOutcome } from './repeat-outcome.ts';
import { laterRepeats } from './later-repeats.ts';
import type { RejudgeState, Scenario, ScenarioOutcome, ScenarioRejudge } from '../scenarios.ts';

export { repeatOutcome };

/**
 * Without distinct identities for distinct ref_ids, a repeat that comes back with "the same"
 * identity proves nothing: the ref_id scenarios then judge nothing (id.distinct-identities says why).
 */
export function cannotTellIdentitiesApart(created: { size: number; distinctIds: number }): string | undefined {
  if (created.size < 2)
    return `the run created ${created.size} identit${created.size === 1 ? 'y' : 'ies'} with a readable id; a repeat cannot be told from a new identity`;
  if (created.distinctIds < created.size)
    return 'creates with different ref_ids got the same identity id (see id.distinct-identities): a repeat cannot be told from a new identity';
  return undefined;
}

/** Fresh identities the sequential scenario creates before it repeats their ref_ids. */
const SEQUENTIAL_ORIGINALS = 3;

export const sequentialDuplicate: Scenario = {
  rule: 'id.ref-id.sequential-duplicate',
  rejudge: sequentialRejudge,
  // A repeat's answer is an identity too: the rules that judge an answer on its own judge it.
  feeds: ['id.distinct-identities', ...rulesOfAnswersAlone('createIdentity')],
  judgesItsRule: true,
  minimums: { 'id.ref-id.sequential-duplicate': 3 },
  // Its first ref_ids again after the random cases and at the end (and under --lifetime).
  later: laterRepeats,
  // The originals, 4 repeats of a body (5 when the run made an identity before), one repeat with
  // another body, a used ref_id in another letter case and its twin (asked when it is refused,
  // which a faithful target need not do); then its repeats later in the run.
  requests: (planning) =>
    (planning.identitiesBefore === undefined ? SEQUENTIAL_ORIGINALS + 8 : SEQUENTIAL_ORIGINALS + 4 + Math.min(1, planning.identitiesBefore) + 2) +
    laterRepeats.requests(planning),
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
    // The same ref_id with other details first: still one identity per ref_id, with its first data
    // (a server keyed on the body creates another, an upsert writes them; the plain repeat of the
    // same ref_id below shows an upsert that answered a refusal).
    const otherBody: TestCase = { ...identity(`repeat of the ref_id of identity ${own[1].id} with other details`), body: OTHER_DETAILS };
    const repeated = await context.exercise(context.stamp(duplicate(otherBody, 'id.ref-id.sequential-duplicate'), own[1].refId));
    if (!is2xx(repeated) || createdId(repeated) !== undefined) outcomes.push(repeatOutcome(repeated, own[1]));
    for (const [i, original] of repeats.entries()) {
      // The same body again, as a client that retries sends it.
      const retry: TestCase = { ...identity(`repeat ${i + 1}/${repeats.length}: the create of identity ${original.id} again`), body: original.body };
      const again = await context.exercise(context.stamp(duplicate(retry, 'id.ref-id.sequential-duplicate'), original.refId));
      const id = createdId(again);
      if (is2xx(again) && id === undefined) continue; // no id to compare: judge nothing
      outcomes.push(repeatOutcome(again, original));
    }
    // Another ref_id that differs in letter case only: judged by id.distinct-identities, a refusal is the target's limit.
    const last = own[own.length - 1];
    await context.exercise(context.stamp(caseVariant(last.refId), otherCase(last.refId)));
    return { outcomes };
  },
};

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

export const concurrentDuplicate: Scenario = {
  rule: 'id.ref-id.concurrent-duplicate',
  rejudge: concurrentRejudge,
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

/** A repeat of a used ref_id in recorded exchanges: its ref_id, when it is a repeat of `rule`'s scenario. */
function repeatedRefId(exchange: Exchange, rule: RuleId): string | undefined {
  return exchange.testCase.mode === 'duplicate' && exchange.testCase.exercises === rule ? sentRefId(exchange) : undefined;
}

/** The sequential scenario judged again: each repeat against the identity its ref_id made (an accepted repeat without an id judges nothing, as live). */
function sequentialRejudge(state: RejudgeState): ScenarioRejudge {
  const rule: RuleId = 'id.ref-id.sequential-duplicate';
  return {
    observe(exchange, at) {
      const refId = repeatedRefId(exchange, rule);
      const original = refId === undefined ? undefined : state.created.get(refId);
      if (!original || (is2xx(exchange) && createdId(exchange) === undefined)) return [];
      return [{ rule, problems: repeatOutcome(exchange, original).problems, at }];
    },
    finish: () => [],
  };
}

/** The concurrent scenario judged again: the creates of each round, by their shared ref_id, judged once all are in. */
function concurrentRejudge(): ScenarioRejudge {
  const rule: RuleId = 'id.ref-id.concurrent-duplicate';
  const rounds = new Map<string, { results: Exchange[]; at: number }>();
  return {
    observe(exchange, at) {
      const refId = repeatedRefId(exchange, rule);
      if (refId !== undefined) rounds.set(refId, { results: [...(rounds.get(refId)?.results ?? []), exchange], at });
      return [];
    },
    finish: () =>
      [...rounds].flatMap(([refId, round]) => {
        const outcome = raceOutcome(round.results, refId);
        return outcome ? [{ rule, problems: outcome.problems, at: round.at }] : [];
      }),
  };
}

/** Whether a recorded request is one of a race's concurrent creates (a replay sends them together again). */
export const isRaceCreate = (c: { exercises?: string | undefined; mode?: string }): boolean =>
  c.mode === 'duplicate' && c.exercises === concurrentDuplicate.rule;
