/**
 * Identities earlier runs created for the same API user on the same target (--state, kept between
 * CI runs): a ref_id is unique among every identity the API user ever created (4.2, 8), so a
 * repeat of one of theirs must come back refused or as that identity with its data, never as a
 * new identity. A shared sandbox may be wiped between runs, though: when every remembered ref_id
 * comes back as a new identity, a reset cannot be told from an index that forgets, and nothing is
 * judged (the run says so, and the memory starts over). Some remembered and some new is a failure.
 */
import { createHash } from 'node:crypto';
import type { RuleId } from '../../core/catalogue.ts';
import type { TestCase } from '../../core/case.ts';
import type { Exchange } from '../../core/exchange.ts';
import type { ScenarioContext, ScenarioOutcome } from '../scenarios.ts';
import { is2xx } from '../checks/exchange-facts.ts';
import { createdId, idKey, type CreatedIdentity } from './created-identities.ts';
import { minimalIdentity as identity } from './minimal-identity.ts';
import { duplicate, repeatOutcome } from './repeat-outcome.ts';

const RULE: RuleId = 'id.ref-id.sequential-duplicate';

/** Remembered ref_ids a run repeats, at most: a few, chosen by the seed. */
export const REMEMBERED_REPEATS = 3;

/** An identity an earlier run created, as the state file keeps it. */
export interface RememberedIdentity extends Omit<CreatedIdentity, 'seenAt'> {
  /** When the run that created it started (ISO 8601): the run the note names. */
  runStartedAt: string;
}

/** What a run knows of the API user's earlier runs, and how it tells the run layer that they were forgotten. */
export interface IdentityMemory {
  /** Identities earlier runs created on this target for this API user, oldest first. */
  readonly earlier: readonly RememberedIdentity[];
  /** Every remembered ref_id repeated came back as a new identity: `note` says so in the run's output; the memory starts over. */
  forgotten(note: string): void;
  /** This run's identities (those kept whole), to remember after it. */
  keep(created: readonly CreatedIdentity[]): void;
}

/** What the label of a repeat of a remembered ref_id says: a HAR of the run holds no first identity to judge it against. */
const REMEMBERED_MARK = 'of a ref_id an earlier run created';

/** Whether a recorded case repeats a remembered ref_id (its first identity is in the state file, not in the run's exchanges). */
export const isRememberedRepeat = (c: { mode?: string; label: string }): boolean => c.mode === 'duplicate' && c.label.includes(REMEMBERED_MARK);

/** The remembered identities a run with `seed` repeats: the same few for the same seed and file. */
export function rememberedPicks(earlier: readonly RememberedIdentity[], seed: number): RememberedIdentity[] {
  const rank = (r: RememberedIdentity) => createHash('sha1').update(`${seed}\u0000${r.refId}`).digest('hex');
  return [...earlier].sort((a, b) => (rank(a) < rank(b) ? -1 : 1)).slice(0, REMEMBERED_REPEATS);
}

/** Repeats of remembered ref_ids: their outcomes, or none (and the memory told) when the target forgot them all. */
export async function repeatRemembered(context: ScenarioContext, memory: IdentityMemory): Promise<ScenarioOutcome[]> {
  const picks = rememberedPicks(memory.earlier, context.seed);
  const answers: { original: RememberedIdentity; again: Exchange }[] = [];
  for (const [i, original] of picks.entries()) {
    const label = `repeat ${i + 1}/${picks.length} ${REMEMBERED_MARK} (${original.runStartedAt}, --state): the create of identity ${original.id} again`;
    const retry: TestCase = { ...identity(label), body: original.body };
    answers.push({ original, again: await context.exercise(context.stamp(duplicate(retry, RULE), original.refId)) });
  }
  return judgeRemembered(answers, memory);
}

/** The outcomes of the repeats (an accepted one without an id judges nothing), unless every one came back as a new identity. */
export function judgeRemembered(answers: { original: RememberedIdentity; again: Exchange }[], memory: Pick<IdentityMemory, 'forgotten'>): ScenarioOutcome[] {
  const judged = answers.filter(({ again }) => !is2xx(again) || createdId(again) !== undefined);
  const isNew = ({ original, again }: (typeof answers)[number]) => {
    const id = createdId(again);
    return id !== undefined && idKey(id) !== original.key;
  };
  if (judged.length && judged.every(isNew)) {
    const runs = [...new Set(judged.map((a) => a.original.runStartedAt))].join(', ');
    memory.forgotten(
      `the target forgot every identity of the run${runs.includes(',') ? 's' : ''} of ${runs} that this run repeated (${judged.length}): a reset of the sandbox or a forgetting index, cannot tell; not judged, the state starts over`,
    );
    return [];
  }
  return judged.map(({ original, again }) => repeatOutcome(again, original));
}
