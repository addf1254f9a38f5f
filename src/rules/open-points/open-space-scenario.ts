/**
 * The documented rules judged over the open space (combinations.ts): after the fixed cases showed
 * what the target accepts on the open points, each rule's own case is sent again with those values
 * in. The checks judge each answer like any other; this scenario judges one thing no check can:
 * a ref_id the target accepted as new though it differs from a used one in letter case only must,
 * repeated, give back its own identity or a refusal, never the other one's (sections 4.2 and 8).
 */
import type { RuleId } from '../../core/catalogue.ts';
import type { TestCase } from '../../core/case.ts';
import type { Problem } from '../check.ts';
import { is2xx } from '../checks/exchange-facts.ts';
import { createdId, idKey, shownId } from '../create-identity/created-identities.ts';
import { repeatOutcome } from '../create-identity/repeat-outcome.ts';
import type { Scenario, ScenarioContext, ScenarioOutcome, ScenarioPlanning } from '../scenarios.ts';
import { COMBINED_RULES, combinationCases, combinationsPerRule, combinedValues, learningCases, plannedCombinations } from './combinations.ts';
import { OPERATIONS, type Operation } from '../../core/operations.ts';
import type { AcceptedOpenValue } from './open-point-book.ts';

const REPEAT_RULE: RuleId = 'id.ref-id.sequential-duplicate';

/** The accepted ref_ids in another letter case (the sequential ref_id scenario sends one). */
const caseVariants = (accepted: readonly AcceptedOpenValue[]): AcceptedOpenValue[] =>
  accepted.filter((v) => v.operation === 'createIdentity' && v.field === 'ref_id' && v.kind === 'letter-case' && typeof v.value === 'string');

/** Whether the fixed cases send an operation's open examples: its family of valid requests is planned (unknown: assumed). */
const examplesSent = (planning: ScenarioPlanning) => (operation: Operation) =>
  planning.families === undefined || planning.families.has(OPERATIONS[operation].validAcceptedRule);

/** Whether a rule is judged (unknown: all are). */
const selected = (planning: ScenarioPlanning) => (rule: string) => planning.selectedIds === undefined || planning.selectedIds.has(rule);

/** The repeat of a ref_id in another letter case: when the sequential scenario, which makes one, runs before (unknown: assumed). */
const plannedRepeats = (planning: ScenarioPlanning): number => (planning.scenarios === undefined || planning.scenarios.has(REPEAT_RULE) ? 1 : 0);

export const openSpaceCombinations: Scenario = {
  // Named by its first rule; the checks judge every rule it combines.
  rule: 'id.tax.absent-rejected',
  alsoJudges: [REPEAT_RULE],
  feeds: COMBINED_RULES.map((r) => r.rule).filter((r) => r !== 'id.tax.absent-rejected'),
  judgesItsRule: false,
  minimums: {},
  requests: (planning) => plannedCombinations(planning.runs, examplesSent(planning), selected(planning)).requests + plannedRepeats(planning),
  creates: (planning) => plannedCombinations(planning.runs, examplesSent(planning), selected(planning)).creates,
  async run(context) {
    const space = context.openSpace;
    // Without the run's open points (a context that keeps none) there is nothing to combine.
    if (!space) return { outcomes: [] };
    // The repeats first: the run's ledger keeps its latest identities, and the combinations make many.
    const outcomes: ScenarioOutcome[] = [];
    for (const variant of caseVariants(space.accepted())) {
      const outcome = await repeatVariant(context, variant);
      if (outcome) outcomes.push(outcome);
    }
    for (const c of learningCases(space.tried)) await context.exercise(context.stamp(c, context.freshRefId()));
    const accepted = space.accepted();
    const cap = combinationsPerRule(context.runs);
    space.judged.bound(cap);
    for (const rule of COMBINED_RULES)
      for (const c of combinationCases(rule, accepted, cap)) {
        const sent = c.operation === 'createIdentity' ? context.stamp(c, context.freshRefId()) : c;
        space.judged.note(rule.rule, c, await context.exercise(sent));
      }
    return { outcomes };
  },
};

/**
 * The create of an accepted ref_id in another letter case, sent again: its own identity back or a
 * refusal is right; the identity of the ref_id it differs from in case only is a ref_id compared
 * without regard to case after all, and the repeat is given someone else's identity.
 */
async function repeatVariant(context: ScenarioContext, variant: AcceptedOpenValue): Promise<ScenarioOutcome | undefined> {
  const refId = variant.value as string;
  const made = context.created.get(refId);
  if (!made) return undefined;
  const repeat: TestCase = {
    operation: 'createIdentity',
    mode: 'duplicate',
    exercises: REPEAT_RULE,
    label: `repeat of ref_id ${refId}, which the target took as new though it differs from a used one in letter case only`,
    body: made.body,
    combined: combinedValues([variant]),
  };
  const again = await context.exercise(context.stamp(repeat, refId));
  context.openSpace?.judged.note(REPEAT_RULE, repeat, again);
  const id = createdId(again);
  if (is2xx(again) && id === undefined) return undefined; // no id to compare: judge nothing
  // Another identity is the case folded; the same one must still show its first data (repeat-outcome.ts).
  if (id !== undefined && idKey(id) !== made.key) return { exchange: again, rule: REPEAT_RULE, problems: [otherIdentity(refId, made.id, id)] };
  return { ...repeatOutcome(again, made), rule: REPEAT_RULE };
}

/** The repeat answered with another identity than the one its ref_id made. */
function otherIdentity(refId: string, own: string, returned: string): Problem {
  return {
    message: `ref_id ${refId} was used again and identity ${shownId(returned)} came back, not ${own} that its create made: the target took the ref_id as new, then matched its repeat to another ref_id without regard to letter case`,
    kind: 'identity-duplicated',
    params: { refId, ids: [own, shownId(returned)] },
  };
}
