/**
 * Stateful scenarios: rules that one exchange cannot show. Each returns outcomes for its rule;
 * every exchange it makes is also judged by all checks like any other.
 */
import type { TestCase } from '../core/case.ts';
import type { Exchange } from '../core/exchange.ts';
import type { Problem } from '../rules/check.ts';
import type { RuleId } from '../core/catalogue.ts';
import { is2xx } from '../rules/checks/exchange-facts.ts';

export interface ScenarioContext {
  /** Sends one case as it is (an update without an id goes to the next account of the pool) and judges it. */
  exercise(c: TestCase): Promise<Exchange>;
  /** Sends cases at the same moment, as they are (no ref_id stamping). */
  sendTogether(cases: TestCase[]): Promise<Exchange[]>;
  freshRefId(): string;
  stamp(c: TestCase, refId: string): TestCase;
  concurrentDuplicates: number;
  fiatAccountIds: readonly string[];
}

export interface ScenarioOutcome {
  problems: Problem[];
  exchange: Exchange;
}

export interface Scenario {
  rule: RuleId;
  /** Other rules whose cases the scenario sends (the auth scenario feeds the 401 rules). */
  feeds: RuleId[];
  run(context: ScenarioContext): Promise<ScenarioOutcome[]>;
}

/** A minimal valid identity: the tax rule satisfied the simplest way. */
const identity = (label: string): TestCase => ({
  operation: 'createIdentity',
  mode: 'valid',
  label,
  body: { person_details: { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1990-01-01' }, tax_details_not_required: true },
});

/**
 * A repeat of a used ref_id: neither valid nor invalid by itself, so it is sent as an invalid
 * case of the duplicate rule (a rejection is fine, and only that rule judges a 2xx).
 */
const duplicate = (c: TestCase, rule: RuleId): TestCase => ({ ...c, mode: 'invalid', violates: rule });

/**
 * The id of a created identity, or undefined when none can be read (`successBody` ignores
 * invalid cases, so read the body here). Without ids two identities cannot be told apart: the
 * scenarios then judge nothing rather than pass.
 */
const identityId = (e: Exchange): string | undefined => {
  const id = is2xx(e) && e.response?.json ? (e.response.body as { id?: unknown } | null)?.id : undefined;
  return typeof id === 'string' && id !== '' ? id : undefined;
};

const sequentialDuplicate: Scenario = {
  rule: 'id.ref-id.sequential-duplicate',
  feeds: [],
  async run(context) {
    const refId = context.freshRefId();
    const first = await context.exercise(context.stamp(identity('first create with a new ref_id'), refId));
    if (identityId(first) === undefined) return []; // not created, or no id: the acceptance and id rules report it
    const outcomes: ScenarioOutcome[] = [];
    for (const attempt of [2, 3]) {
      const again = await context.exercise(
        context.stamp(duplicate(identity(`create #${attempt} with the same ref_id`), 'id.ref-id.sequential-duplicate'), refId),
      );
      if (is2xx(again) && identityId(again) === undefined) continue; // cannot tell: judge nothing
      const secondIdentity = is2xx(again) && identityId(again) !== identityId(first);
      outcomes.push({
        exchange: again,
        problems: secondIdentity
          ? [{ message: `ref_id ${refId} was used again and a second identity ${JSON.stringify(identityId(again))} was created (first: ${JSON.stringify(identityId(first))})` }]
          : [],
      });
    }
    return outcomes;
  },
};

/** Several rounds: a race shows only sometimes. */
const CONCURRENT_ROUNDS = 3;

const concurrentDuplicate: Scenario = {
  rule: 'id.ref-id.concurrent-duplicate',
  feeds: [],
  async run(context) {
    const outcomes: ScenarioOutcome[] = [];
    for (let round = 1; round <= CONCURRENT_ROUNDS; round++) {
      const refId = context.freshRefId();
      const cases = Array.from({ length: context.concurrentDuplicates }, (_, i) =>
        context.stamp(
          duplicate(identity(`concurrent create ${i + 1}/${context.concurrentDuplicates} with one ref_id (round ${round})`), 'id.ref-id.concurrent-duplicate'),
          refId,
        ),
      );
      const results = await context.sendTogether(cases);
      const accepted = results.filter(is2xx);
      if (!accepted.length) continue; // all rejected: nothing was created twice
      if (accepted.some((e) => identityId(e) === undefined)) continue; // ids unreadable: cannot tell
      const created = new Set(accepted.map(identityId));
      const evidence = accepted.find((e) => identityId(e) !== identityId(accepted[0])) ?? accepted[0];
      outcomes.push({
        exchange: evidence,
        problems:
          created.size > 1
            ? [{ message: `${context.concurrentDuplicates} concurrent creates with ref_id ${refId} created ${created.size} identities: ${[...created].map(String).join(', ')}` }]
            : [],
      });
    }
    return outcomes;
  },
};

/** Requests without credentials and with a wrong token; the 401 rules judge them. */
const authentication: Scenario = {
  rule: 'fa.auth-401',
  feeds: ['id.auth-401'],
  async run(context) {
    const update: TestCase = { operation: 'updateFiatAccount', mode: 'valid', label: '', body: {} };
    for (const auth of ['none', 'invalid'] as const) {
      const how = auth === 'none' ? 'without Authorization' : 'with a wrong bearer token';
      await context.exercise({ ...update, auth, label: `update ${how}` });
      await context.exercise({ ...identity(`create ${how}`), auth });
    }
    return [];
  },
};

export const SCENARIOS: readonly Scenario[] = [sequentialDuplicate, concurrentDuplicate, authentication];
