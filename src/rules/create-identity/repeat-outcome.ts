/**
 * A repeat of a used ref_id and its judgement (sections 4.2 and 8), shared by the scenario that
 * repeats ref_ids at once, its repeats later in the run, and their rejudge from recorded exchanges.
 */
import type { TestCase } from '../../core/case.ts';
import type { Exchange } from '../../core/exchange.ts';
import type { RuleId } from '../../core/catalogue.ts';
import { cutText } from '../../core/cut-text.ts';
import { isObject, isRfc3339 } from '../checks/exchange-facts.ts';
import type { ScenarioOutcome } from '../scenarios.ts';
import { createdId, idKey, shownId, type CreatedIdentity } from './created-identities.ts';
import { changedData } from './identity-data.ts';

/** A repeat of a used ref_id: a rejection and the same identity back are both right. */
export const duplicate = (c: TestCase, rule: RuleId): TestCase => ({ ...c, mode: 'duplicate', exercises: rule });

/** A value in a message: its JSON, cut. */
const shown = (value: unknown): string => cutText(JSON.stringify(value) ?? 'undefined', 80);

/**
 * A repeat judged against the identity its ref_id made: another identity id is a second identity;
 * the same id created at another instant was created again (created_at is set once, 2.5); the same
 * id showing other data than its first answer (names, date of birth, tax details, metadata ...)
 * was updated by the repeat (identity-data.ts). One function for the live run and its rejudge.
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
  const changed = id === undefined ? undefined : changedData(original.data, again.response?.body);
  if (changed)
    return {
      exchange: again,
      problems: [
        {
          message: `ref_id ${original.refId} was used again and identity ${original.id} came back with other data: ${changed.field} ${shown(changed.received)}, first ${shown(changed.first)} (a repeat gives the identity back, it does not update it)`,
          instancePath: changed.field,
          kind: 'mismatch',
          params: { field: changed.field, expected: changed.first, received: changed.received },
        },
      ],
    };
  return { exchange: again, problems: [] };
}
