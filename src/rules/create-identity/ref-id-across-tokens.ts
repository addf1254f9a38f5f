/**
 * ref_ids across access tokens (sections 4.2, 5 and 8): a ref_id is unique among the identities
 * of the API user, and the API user is the client, not one of its tokens. With OAuth client
 * credentials the run asks the token endpoint for a new token (one token request) and repeats
 * ref_ids used on the earlier token: a refusal or the same identity back, never a second one.
 * A static token cannot be renewed: the rule is then ruled out by the configuration, with its fix.
 */
import type { TestCase } from '../../core/case.ts';
import type { Exchange } from '../../core/exchange.ts';
import type { RuleId } from '../../core/catalogue.ts';
import { is2xx } from '../checks/exchange-facts.ts';
import { createdId, sentRefId, type CreatedIdentity } from './created-identities.ts';
import { minimalIdentity as identity } from './minimal-identity.ts';
import { cannotTellIdentitiesApart, repeatOutcome } from './ref-id-scenarios.ts';
import type { RejudgeState, Scenario, ScenarioContext, ScenarioOutcome, ScenarioRejudge, ScenarioResult } from '../scenarios.ts';

const RULE: RuleId = 'id.ref-id.across-tokens';

/**
 * ref_ids repeated on the new token: the two newest identities the run made before it, so that
 * only the token differs from a repeat right after the create (time is the later repeats' part).
 */
const REPEATS = 2;

/** The creates of its own before the renewal: up to two, fewer when the run made identities before (at most two when unknown). */
const ownCreates = (identitiesBefore = 0): number => Math.max(0, REPEATS - identitiesBefore);

/** What rules the rule out when the run's token is not fetched: the setting and the change that judges it. */
const TOKEN_NEEDS = {
  rules: [RULE],
  setting: '--token',
  fix: 'give OAuth client credentials (--auth-url, --client-id, --client-secret) instead of a static --token: the run then renews its token',
};

/** A token endpoint that hands back the token the run holds: nothing in the run's settings would judge the rule. */
const SAME_TOKEN = {
  setting: 'the token endpoint',
  fix: 'a token endpoint that issues a new access token at each token request judges it (this one handed back the token the run held)',
};

export const acrossTokens: Scenario = {
  rule: RULE,
  rejudge: acrossTokensRejudge,
  feeds: [],
  judgesItsRule: true,
  minimums: { [RULE]: REPEATS },
  // Creates of its own until the run made two identities, then the repeats on the new token (and
  // one token request, not to the base URL); nothing with a static token, which cannot be renewed.
  requests: ({ identitiesBefore, fetchesTokens }) => (fetchesTokens === false ? 0 : ownCreates(identitiesBefore) + REPEATS),
  creates: ({ identitiesBefore, fetchesTokens }) => (fetchesTokens === false ? 0 : ownCreates(identitiesBefore)),
  tokenRequests: 1,
  credentialNeeds: TOKEN_NEEDS,
  async run(context) {
    if (!context.renewToken) return ruledOut('the run holds a static token (or none): no renewal, no request on another token', TOKEN_NEEDS);
    for (let i = context.created.size; i < REPEATS; i++) {
      await context.exercise(context.stamp(identity(`create ${i + 1}/${REPEATS} with a new ref_id (before the token renewal)`), context.freshRefId()));
    }
    const why = cannotTellIdentitiesApart(context.created);
    if (why) return { outcomes: [], notJudged: why };
    const originals = withoutCaseTwins(context.created.list()).slice(-REPEATS);
    const renewal = await context.renewToken();
    if (renewal.kind === 'failed')
      return { outcomes: [], notJudged: `the token endpoint issued no new token when asked (${renewal.what}): no repeat on another token` };
    if (renewal.kind === 'same-token') return ruledOut('the token endpoint handed back the same access token: no renewal happened', SAME_TOKEN);
    return { outcomes: await repeatOnNewToken(context, originals, renewal.generation) };
  },
};

/**
 * The identities whose ref_id no other differs from in letter case only: a repeat of such a pair
 * is the open space's question (open-space-scenario.ts), not the token's.
 */
function withoutCaseTwins(made: readonly CreatedIdentity[]): CreatedIdentity[] {
  const folded = (c: CreatedIdentity) => c.refId.toLowerCase();
  return made.filter((c) => made.filter((o) => folded(o) === folded(c)).length === 1);
}

function ruledOut(notJudged: string, by: { setting: string; fix: string }): ScenarioResult {
  return { outcomes: [], notJudged, remedy: by.fix, ruledOutBy: by.setting };
}

/** Each original's create again, as a client that retries sends it, now on token `generation`. */
async function repeatOnNewToken(context: ScenarioContext, originals: CreatedIdentity[], generation: number): Promise<ScenarioOutcome[]> {
  const outcomes: ScenarioOutcome[] = [];
  for (const [i, original] of originals.entries()) {
    const retry: TestCase = {
      ...identity(`repeat ${i + 1}/${originals.length} on a renewed token: the create of identity ${original.id} again`),
      body: original.body,
      mode: 'duplicate',
      exercises: RULE,
    };
    const again = await context.exercise(context.stamp(retry, original.refId));
    // Another token carried it (a 401 in between may have renewed it again: later still).
    if (judgesNothing(again) || again.tokenGeneration === undefined || again.tokenGeneration < generation) continue;
    outcomes.push(repeatOutcome(again, original));
  }
  return outcomes;
}

/** An accepted repeat without a readable id: nothing to compare. */
const judgesNothing = (again: Exchange): boolean => is2xx(again) && createdId(again) === undefined;

/**
 * The rule judged again from recorded exchanges: each repeat against the identity its ref_id
 * made, when the recorded token generations show another token carried it.
 */
function acrossTokensRejudge(state: RejudgeState): ScenarioRejudge {
  // The token generation of the create that made each ref_id's identity.
  const madeOn = new Map<string, number>();
  return {
    observe(exchange, at) {
      const c = exchange.testCase;
      const refId = c.operation === 'createIdentity' ? sentRefId(exchange) : undefined;
      if (refId === undefined) return [];
      if (c.mode !== 'duplicate') {
        if (!madeOn.has(refId) && createdId(exchange) !== undefined && exchange.tokenGeneration !== undefined) madeOn.set(refId, exchange.tokenGeneration);
        return [];
      }
      const original = c.exercises === RULE ? state.created.get(refId) : undefined;
      const first = madeOn.get(refId);
      if (!original || first === undefined || exchange.tokenGeneration === undefined || exchange.tokenGeneration <= first || judgesNothing(exchange)) return [];
      return [{ rule: RULE, problems: repeatOutcome(exchange, original).problems, at }];
    },
    finish: () => [],
  };
}
