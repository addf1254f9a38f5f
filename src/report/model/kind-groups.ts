/**
 * A rule's failures by what they are (their `kind` and `params.field`, src/rules/problem-kinds.ts),
 * as a reader of conformance.json would group them: five schema errors at /status and one
 * unexpected status are two groups, not six lines to read. The console, summary.md and
 * report.html say a rule's groups where they list its failures (reason-groups.ts groups rules by
 * a shared reason the same way). A report before 1.11.0 has no kinds: no groups then.
 */
import type { ReportFailure } from './model.ts';
import { oneLine } from '../../core/text.ts';

export interface KindGroup {
  /** `schema at /status`, `status`, `header at content-type`. */
  label: string;
  failures: ReportFailure[];
}

/** Groups named in a line; the rest are left to report.html and conformance.json. */
const GROUPS_NAMED = 3;
/** A field longer than this is cut in a label: a pointer may hold a key the target chose. */
const FIELD_CHARS = 80;

/** The label of a failure's group: its kind, and the field it points at when it names one (on one line, cut). */
function labelOf(failure: ReportFailure): string | undefined {
  if (failure.kind === undefined) return undefined;
  const field = (failure.params as { field?: unknown }).field;
  return typeof field === 'string' && field !== '' ? `${failure.kind} at ${oneLine(field, FIELD_CHARS)}` : failure.kind;
}

/** Failures by kind and field, in the order each group is first seen; none when a failure has no kind (an older report). */
export function kindGroups(failures: readonly ReportFailure[]): KindGroup[] {
  const groups = new Map<string, ReportFailure[]>();
  for (const failure of failures) {
    const label = labelOf(failure);
    if (label === undefined) return [];
    const group = groups.get(label);
    if (group) group.push(failure);
    else groups.set(label, [failure]);
  }
  return [...groups].map(([label, members]) => ({ label, failures: members }));
}

/** `schema at /status ×3`: a group in a few words, with its count when more than one. */
export const kindGroupText = (group: KindGroup): string => `${group.label}${group.failures.length > 1 ? ` ×${group.failures.length}` : ''}`;

/**
 * What a line that shows a rule's first failure adds about the others: nothing for one failure,
 * ` (+4 more)` when all are of one kind and field, else the groups of the others,
 * ` (+4 more: schema at /status ×3, status)` (at most GROUPS_NAMED named, then `…`).
 */
export function moreFailuresText(failures: readonly ReportFailure[]): string {
  if (failures.length <= 1) return '';
  const more = ` (+${failures.length - 1} more`;
  if (kindGroups(failures).length <= 1) return `${more})`;
  const others = kindGroups(failures.slice(1));
  const named = others.slice(0, GROUPS_NAMED).map(kindGroupText);
  return `${more}: ${named.join(', ')}${others.length > GROUPS_NAMED ? ', …' : ''})`;
}
