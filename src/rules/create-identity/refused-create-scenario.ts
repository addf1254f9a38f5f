/**
 * A refused create leaves its ref_id free (id.refused-create.ref-id-free; sections 4.2 and 8): a
 * create the tax rule refuses (4.2) under a fresh ref_id, then a valid create with that ref_id,
 * which must be accepted: ref_id is "unique among identities created", and the refusal created
 * none. A valid create with a fresh ref_id (its twin), sent in every round, tells a refusal of
 * the ref_id kept as used (the twin accepted) from a target that refuses the create for another
 * reason (the twin refused: nothing is judged, and the run says why).
 */
import type { TestCase } from '../../core/case.ts';
import type { RuleId } from '../../core/catalogue.ts';
import type { Exchange } from '../../core/exchange.ts';
import type { Problem } from '../check.ts';
import { describeStatus, is2xx, is4xx, isObject, statusFinding } from '../checks/exchange-facts.ts';
import { sentRefId } from './created-identities.ts';
import { minimalIdentity } from './minimal-identity.ts';
import type { Scenario, ScenarioContext, ScenarioOutcome, ScenarioRejudge } from '../scenarios.ts';

const rule: RuleId = 'id.refused-create.ref-id-free';

/** The document's refusals used: tax_details absent, with tax_details_not_required absent, then false (4.2). */
const REFUSALS: { limit: RuleId; notRequired?: false; what: string }[] = [
  { limit: 'id.tax.absent-rejected', what: 'without tax_details and tax_details_not_required' },
  { limit: 'id.tax.absent-false-rejected', notRequired: false, what: 'without tax_details, tax_details_not_required false' },
];

/** What lets the rounds judge: the document's refusal first, then a valid create accepted. */
const REMEDY = 'make the target refuse a create without tax details (4.2) and accept a valid one: the rule looks behind that refusal';

const marked = (c: TestCase): TestCase => ({ ...c, exercises: rule });

function refusedRequest(refusal: (typeof REFUSALS)[number], round: number): TestCase {
  const { tax_details_not_required: _dropped, ...body } = minimalIdentity('').body as Record<string, unknown>;
  // Invalid without `violates`: no valid twin is asked, and the tax rules, which judge a refusal only with its twin accepted, leave it to their own cases.
  return marked({
    operation: 'createIdentity',
    mode: 'invalid',
    label: `refused create ${round}/${REFUSALS.length}: ${refusal.what}`,
    body: { ...body, ...(refusal.notRequired === false ? { tax_details_not_required: false } : {}) },
  });
}

/**
 * What one round decided: an outcome of the rule, or why it judged nothing (`validRefused`: its
 * valid creates were refused, a cause the run states once for every rule it starves).
 */
type RoundResult = ScenarioOutcome | { notJudged: string; validRefused?: true };

/** The create with the refused ref_id against its refusal and, when it was refused, its twin's answer (a valid create with a fresh ref_id). */
export function refusedRefIdOutcome(refusal: Exchange, reuse: Exchange, twin: Exchange): RoundResult {
  const refId = sentRefId(reuse) ?? '';
  if (is2xx(reuse)) return { exchange: reuse, problems: [] };
  if (!is4xx(reuse))
    return { validRefused: true, notJudged: `the valid create with the ref_id of a refused create got ${describeStatus(reuse)}, not an answer to judge` };
  if (!is2xx(twin))
    return {
      validRefused: true,
      notJudged: `the valid create with the ref_id of a refused create was refused (${describeStatus(reuse)}), and so was one with a fresh ref_id (${describeStatus(twin)}): the target refuses it for another reason`,
    };
  const problem: Problem = {
    message: `ref_id ${refId} was refused (${describeStatus(reuse)}) to a valid create, though its only use was a create refused with ${describeStatus(refusal)} (${refusal.testCase.label}), which created no identity; the same create with a fresh ref_id was accepted`,
    ...statusFinding(reuse, '2xx'),
  };
  return { exchange: reuse, problems: [problem] };
}

/** Why the refused create leaves nothing to follow, or undefined when it was refused. */
function noRefusal(refusal: Exchange, limit: RuleId): string | undefined {
  if (is4xx(refusal)) return undefined;
  if (is2xx(refusal)) return `${refusal.testCase.label} was accepted, though 4.2 refuses it (${limit} judges that): its ref_id is used, not free`;
  return `${refusal.testCase.label} got ${describeStatus(refusal)}, not a refusal: whether it created an identity cannot be told`;
}

async function round(context: ScenarioContext, refusal: (typeof REFUSALS)[number], index: number): Promise<RoundResult> {
  const refId = context.freshRefId();
  const refused = await context.exercise(context.stamp(refusedRequest(refusal, index + 1), refId));
  const why = noRefusal(refused, refusal.limit);
  if (why) return { notJudged: why };
  const reuse = await context.exercise(context.stamp(marked(minimalIdentity(`a valid create with the ref_id of refused create ${index + 1}`)), refId));
  // Sent whatever the answer, so that a HAR of the run holds it: sent again, the round is judged on the target it goes to.
  const twin = await context.exercise(
    context.stamp(marked(minimalIdentity(`the same valid create with a fresh ref_id (twin of round ${index + 1})`)), context.freshRefId()),
  );
  return refusedRefIdOutcome(refused, reuse, twin);
}

export const refusedCreate: Scenario = {
  rule,
  rejudge: refusedCreateRejudge,
  feeds: [],
  judgesItsRule: true,
  // One round judges the rule; the second, of another kind, judges it where a target accepts the first.
  minimums: { [rule]: 1 },
  // Each round: the refused create, the valid one with its ref_id and its twin with a fresh ref_id.
  requests: () => 3 * REFUSALS.length,
  creates: () => 2 * REFUSALS.length,
  async run(context) {
    const outcomes: ScenarioOutcome[] = [];
    const notes: string[] = [];
    for (const [i, refusal] of REFUSALS.entries()) {
      const result = await round(context, refusal, i);
      if (!('notJudged' in result)) outcomes.push(result);
      // Valid creates refused: the refusals of the operation are the cause, said once for every rule they starve.
      else if (!result.validRefused) notes.push(result.notJudged);
    }
    const why = notes.join('; ');
    if (!outcomes.length) return why ? { outcomes, notJudged: why, remedy: REMEDY } : { outcomes };
    return { outcomes, ...(why ? { notes: { [rule]: why }, remedies: { [rule]: REMEDY } } : {}) };
  },
};

/** The scenario judged again: a refused create opens a round by its ref_id, the create with that ref_id and then its twin close it. */
function refusedCreateRejudge(): ScenarioRejudge {
  const refusals = new Map<string, Exchange>();
  let waiting: { refusal: Exchange; reuse: Exchange } | undefined;
  const ours = (e: Exchange) => e.testCase.exercises === rule && e.testCase.operation === 'createIdentity' && isObject(e.testCase.body);
  return {
    observe(exchange, at) {
      if (!ours(exchange)) return [];
      const refId = sentRefId(exchange);
      if (exchange.testCase.mode === 'invalid') {
        if (refId !== undefined && is4xx(exchange)) refusals.set(refId, exchange);
        return [];
      }
      const refusal = refId === undefined ? undefined : refusals.get(refId);
      if (refusal) {
        refusals.delete(refId!);
        waiting = { refusal, reuse: exchange };
        return [];
      }
      const round = waiting;
      waiting = undefined;
      const decided = round && refusedRefIdOutcome(round.refusal, round.reuse, exchange);
      return decided && 'problems' in decided ? [{ rule, problems: decided.problems, at }] : [];
    },
    finish: () => [],
  };
}
