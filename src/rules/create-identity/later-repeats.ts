/**
 * Repeats of the run's first ref_ids later in the run (sections 4.2 and 8: a ref_id is unique
 * among all identities the API user ever created, with no time window). The sequential scenario
 * repeats within milliseconds; an index kept in a cache forgets after a while. So the run's
 * oldest ref_ids are repeated again after the random cases and at the end (before the restore),
 * and under --lifetime once more when they are that old, waiting at the end if the run was shorter.
 * After the random cases come a few ref_ids of earlier runs too (--state, remembered-identities.ts).
 */
import type { RuleId } from '../../core/catalogue.ts';
import type { TestCase } from '../../core/case.ts';
import { formatDuration } from '../../core/duration.ts';
import type { LaterMoment, LaterPart, ScenarioContext, ScenarioOutcome } from '../scenarios.ts';
import { is2xx } from '../checks/exchange-facts.ts';
import { createdId, type CreatedIdentity } from './created-identities.ts';
import { minimalIdentity as identity } from './minimal-identity.ts';
import { duplicate, repeatOutcome } from './repeat-outcome.ts';
import { REMEMBERED_REPEATS, repeatRemembered } from './remembered-identities.ts';

const RULE: RuleId = 'id.ref-id.sequential-duplicate';

/** ref_ids repeated at each later moment: the run's oldest, on which a forgetting index shows first. */
export const LATER_REPEATS = 2;
/** ref_ids repeated under --lifetime once they are that old. */
export const LIFETIME_REPEATS = 2;
const MOMENTS: Record<LaterMoment, string> = { 'after-random-cases': 'after the random cases', 'at-end': 'at the end of the run' };

/** What the run sends later; it repeats only when its scenario could tell identities apart (else it judged nothing). */
export const laterRepeats: LaterPart = {
  requests: ({ lifetimeMs, remembered = 0 }) => 2 * LATER_REPEATS + (lifetimeMs ? LIFETIME_REPEATS : 0) + Math.min(REMEMBERED_REPEATS, remembered),
  async run(context, moment) {
    const { created, memory } = context;
    if (created.size < 2 || created.distinctIds < created.size) return [];
    const oldest = created.list();
    const outcomes = await repeatEach(context, oldest.slice(0, LATER_REPEATS), (i, n) => `later repeat ${i}/${n} (${MOMENTS[moment]})`);
    // Earlier runs' ref_ids (--state) midway: the oldest of all.
    if (moment === 'after-random-cases' && memory?.earlier.length) outcomes.push(...(await repeatRemembered(context, memory)));
    if (moment !== 'at-end' || !context.lifetimeMs) return outcomes;
    const aged = oldest.slice(0, LIFETIME_REPEATS);
    const now = context.now ?? Date.now;
    // Each of them at least that old: the youngest decides.
    const due = Math.max(...aged.map((c) => c.seenAt ?? now())) + context.lifetimeMs;
    await (context.wait ?? pause)(due - now());
    const lifetime = formatDuration(context.lifetimeMs);
    return [...outcomes, ...(await repeatEach(context, aged, (i, n) => `lifetime repeat ${i}/${n} (${lifetime} or more after its create, --lifetime)`))];
  },
};

/** Each identity's create sent again, as a client that retries sends it, judged against its first answer. */
async function repeatEach(context: ScenarioContext, originals: CreatedIdentity[], label: (i: number, n: number) => string): Promise<ScenarioOutcome[]> {
  const outcomes: ScenarioOutcome[] = [];
  for (const [i, original] of originals.entries()) {
    const retry: TestCase = { ...identity(`${label(i + 1, originals.length)}: the create of identity ${original.id} again`), body: original.body };
    const again = await context.exercise(context.stamp(duplicate(retry, RULE), original.refId));
    if (is2xx(again) && createdId(again) === undefined) continue; // no id to compare: judge nothing
    outcomes.push(repeatOutcome(again, original));
  }
  return outcomes;
}

const pause = (ms: number): Promise<void> => (ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve());
