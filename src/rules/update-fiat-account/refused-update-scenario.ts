/**
 * A refused update writes nothing (fa.refused-update.writes-nothing): on one pool account, an
 * update of the owner names shows what the account holds; then, twice, an update the document's
 * own limits refuse (section 8: 7 metadata pairs, a 101-character key) that also carries
 * distinctive valid parts (other owner names, a metadata pair), and a read of the account after
 * it: a GET, or where the target has none an empty update (refused-update-watch.ts judges). Like every update of the run
 * it is journaled before and restored after (engine/restore/): a partial write is put back too.
 */
import type { TestCase } from '../../core/case.ts';
import type { RuleId } from '../../core/catalogue.ts';
import type { Exchange } from '../../core/exchange.ts';
import { is2xx, isObject } from '../checks/exchange-facts.ts';
import type { Scenario, ScenarioOutcome, ScenarioRejudge } from '../scenarios.ts';
import { METADATA_LIMITS, plainPairs } from './metadata-cases.ts';
import { REFUSED_UPDATE_RULE, RefusedUpdateWatch } from './refused-update-watch.ts';

const rule: RuleId = REFUSED_UPDATE_RULE;

/** Owner names no other case sends: one that shows after a refusal came from the refused update. */
const BEFORE = { first_name: 'Marie', last_name: 'Curie' };
/** The refusals of section 8 it looks behind, each with the rule of its limit (the documentation of the step). */
const REFUSALS: { limit: RuleId; names: { first_name: string; last_name: string }; metadata: Record<string, string>; what: string }[] = [
  {
    limit: 'fa.metadata.over-pairs-rejected',
    names: { first_name: 'Lise', last_name: 'Meitner' },
    metadata: Object.fromEntries(Object.entries(plainPairs(METADATA_LIMITS.maxPairs + 1)).map(([k, v]) => [`refused-${k}`, `refused-${v}`])),
    what: `${METADATA_LIMITS.maxPairs + 1} metadata pairs`,
  },
  {
    limit: 'fa.metadata.over-length-rejected',
    names: { first_name: 'Rosalind', last_name: 'Franklin' },
    metadata: { 'refused-pair': 'refused-value', ['k'.repeat(METADATA_LIMITS.maxLength + 1)]: 'v' },
    what: `a metadata key of ${METADATA_LIMITS.maxLength + 1} characters`,
  },
];

/** What lets the scenario judge: the document's refusals first, then a read of the account. */
const REMEDY =
  'make the target refuse updates past the metadata limits (section 8) and show the account after them (a GET, or an empty update): the rule looks behind those refusals';

/** The scenario's steps to a faithful target: the first shows the account, each refusal is followed by a read (a GET; an empty update where the target has none). */
const STEPS = 1 + 2 * REFUSALS.length;

/**
 * A step of the scenario. A refused one is invalid without `violates`: it asks no valid twin (a
 * twin would write the very names it carries), so its limit rule, which judges a refusal only
 * with a twin accepted, leaves it to the limit's own cases.
 */
const step = (label: string, body: Record<string, unknown>, refused = false): TestCase => ({
  operation: 'updateFiatAccount',
  mode: refused ? 'invalid' : 'valid',
  exercises: rule,
  label,
  body,
});

/**
 * A GET of the account after refused update `n`: the "get" operation the document names (section
 * 1), a case about HTTP around the update (its rule judges only that it is no 5xx).
 */
const readAfter = (n: number): TestCase => ({
  operation: 'updateFiatAccount',
  mode: 'valid',
  around: 'fa.other-methods-refused',
  method: 'GET',
  exercises: rule,
  label: `a GET of the account after refused update ${n} (shows what it holds)`,
});

/** Whether an answer is a FiatAccount: a target without GET answers 404 or 405. */
const isAccount = (e: Exchange): boolean => is2xx(e) && e.response?.json === true && isObject(e.response.body);

const owner = (names: object) => ({ fiat_account_owner: { person_details: names } });

export const refusedUpdate: Scenario = {
  rule,
  rejudge: refusedUpdateRejudge,
  feeds: [],
  judgesItsRule: true,
  // One refusal looked behind judges the rule; the second, of another kind, judges it where a target accepts the first.
  minimums: { [rule]: 1 },
  requests: () => STEPS,
  fiatAccounts: 1,
  async run(context) {
    const account = context.fiatAccountIds[0];
    if (account === undefined) return { outcomes: [], notJudged: 'no fiat account to update' };
    const watch = new RefusedUpdateWatch();
    const outcomes: ScenarioOutcome[] = [];
    const notes: string[] = [];
    let validRefused = false;
    const send = async (c: TestCase): Promise<Exchange> => {
      const exchange = await context.exercise({ ...c, fiatAccountId: account });
      if (c.mode === 'valid' && c.method === undefined && !is2xx(exchange)) validRefused = true;
      for (const seen of watch.observe(exchange)) {
        if ('notJudged' in seen) notes.push(seen.notJudged);
        else outcomes.push(seen);
      }
      return exchange;
    };
    await send(step(`owner names ${BEFORE.first_name} ${BEFORE.last_name} (shows what the account holds before the refusals)`, owner(BEFORE)));
    let reads = true;
    for (const [i, refusal] of REFUSALS.entries()) {
      const { first_name, last_name } = refusal.names;
      const what = `refused update ${i + 1}/${REFUSALS.length}: ${refusal.what}, owner names ${first_name} ${last_name}`;
      await send(step(what, { ...owner(refusal.names), metadata: refusal.metadata }, true));
      // A GET writes nothing; where the target has none, an empty update shows the account (it wipes it where PUT replaces the record).
      if (reads) reads = isAccount(await send(readAfter(i + 1)));
      if (!reads) await send(step(`an empty update after refused update ${i + 1} (shows what the account holds)`, {}));
    }
    // Its valid updates refused: the refusals of the operation are the cause, said once for every rule they starve.
    if (validRefused) return { outcomes };
    const why = notes.join('; ');
    if (!outcomes.length) return { outcomes, notJudged: why || 'no refusal could be looked behind', remedy: REMEDY };
    return { outcomes, ...(outcomes.length < REFUSALS.length && why ? { notes: { [rule]: why }, remedies: { [rule]: REMEDY } } : {}) };
  },
};

/** The scenario judged again: its exchanges, in order, through the same watch. */
function refusedUpdateRejudge(): ScenarioRejudge {
  const watch = new RefusedUpdateWatch();
  return {
    observe: (exchange, at) => watch.observe(exchange).flatMap((seen) => ('problems' in seen ? [{ rule, problems: seen.problems, at }] : [])),
    finish: () => [],
  };
}
