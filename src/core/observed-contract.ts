/**
 * Operations on a target's observed contract (open-point.ts) that the engine and the reports
 * share, so a run and a merge of shard reports say the same thing the same way.
 */
import { OPERATION_IDS } from './operations.ts';
import { OPEN_KINDS, type ObservedContract, type ObservedLimit } from './open-point.ts';

/** The contract of a run that tried no open point. */
export const emptyContract = (): ObservedContract => ({ version: 1, limits: [] });

/** What names one open point: its operation, field and kind. */
export const limitKey = (limit: Pick<ObservedLimit, 'operation' | 'field' | 'kind'>): string => `${limit.operation} ${limit.field} ${limit.kind}`;

/** The contract's fixed order: operation as the operation table lists them, field (by code unit), kind as OPEN_KINDS lists them. */
export function compareLimits(a: ObservedLimit, b: ObservedLimit): number {
  return (
    OPERATION_IDS.indexOf(a.operation) - OPERATION_IDS.indexOf(b.operation) ||
    (a.field < b.field ? -1 : a.field > b.field ? 1 : 0) ||
    OPEN_KINDS.indexOf(a.kind) - OPEN_KINDS.indexOf(b.kind)
  );
}

/** Values a summary names; the rest are counted. */
const VALUES_SHOWN = 4;

/**
 * Alphabet probes by what they hold: "refused latin" on a server whose pattern takes A-Z would read
 * as a refusal of A-Z, while the probe holds accented letters only (rules/open-points/open-values.ts).
 */
const ALPHABET_WORDS: Readonly<Record<string, string>> = {
  letters: 'plain letters A-Z',
  latin: 'accented latin (é, ñ, ß)',
  'latin-extended': 'latin extended (Ł, ő, č)',
};

/** A value of the limit as a summary names it: an alphabet by what it holds, else as recorded. */
const named = (limit: Pick<ObservedLimit, 'kind'>, value: string): string => (limit.kind === 'alphabet' ? (ALPHABET_WORDS[value] ?? value) : value);

const listed = (values: readonly string[]): string =>
  values.length > VALUES_SHOWN ? `${values.slice(0, VALUES_SHOWN).join(', ')} (+${values.length - VALUES_SHOWN} more)` : values.join(', ');

const characters = (n: number): string => `${n} ${n === 1 ? 'character' : 'characters'}`;

/** What was accepted, in the kind's terms: a longest length, a range of dates, else the values. */
function acceptedPart(limit: Omit<ObservedLimit, 'summary'>): string | undefined {
  // Only the empty text accepted and no longer one judged: "up to 0 characters" would read as a limit, and so would "accepted empty".
  if (limit.kind === 'length' && limit.longestAccepted === 0) return 'accepted the empty text (no longer text was judged)';
  if (limit.kind === 'length' && limit.longestAccepted !== undefined) return `accepted up to ${characters(limit.longestAccepted)}`;
  if (limit.kind === 'date' && limit.earliestAccepted && limit.latestAccepted) {
    const range = limit.earliestAccepted === limit.latestAccepted ? limit.earliestAccepted : `${limit.earliestAccepted} to ${limit.latestAccepted}`;
    return `accepted ${range}`;
  }
  return limit.accepted.length ? `accepted ${listed(limit.accepted.map((v) => named(limit, v)))}` : undefined;
}

/**
 * One line for people of what the target did on one open point: `refuses over 35 characters
 * (accepted up to 35)` when every refused length lies above every accepted one, else `refused
 * cjk, astral; accepted latin`, `refused 1899-12-31; accepted 1930-01-01 to 2005-06-30`,
 * `accepted up to 200 characters`.
 */
export function summarizeLimit(limit: Omit<ObservedLimit, 'summary'>): string {
  // Each of null and the empty string: refused, ignored, written (the empty string) or not shown.
  if (limit.kind === 'null-or-empty') return [...limit.refused.map((r) => `${r.value} refused`), ...limit.accepted].join('; ') || 'nothing tried';
  if (limit.kind === 'uniqueness') return limit.refused.length ? 'refuses a value another identity holds' : 'accepts a value another identity holds';
  const { longestAccepted: longest, shortestRefused: shortest } = limit;
  if (limit.kind === 'length' && longest !== undefined && shortest !== undefined && shortest > longest) {
    return shortest === longest + 1
      ? `refuses over ${characters(longest)} (accepted up to ${longest})`
      : `refuses from ${characters(shortest)} (accepted up to ${longest})`;
  }
  const accepted = acceptedPart(limit);
  if (!limit.refused.length) return accepted ?? 'nothing tried';
  const refused = `refused ${listed(limit.refused.map((r) => named(limit, r.value)))}`;
  return accepted ? `${refused}; ${accepted}` : `${refused} (nothing accepted)`;
}

/** The items of the lists, the first of each key kept, in order of first sight. */
function union<T>(lists: readonly (readonly T[])[], key: (item: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const item of lists.flat()) if (!seen.has(key(item))) seen.set(key(item), item);
  return [...seen.values()];
}

/** Each bound and the way several runs widen it: dates compare as YYYY-MM-DD text. */
const BOUNDS = [
  ['longestAccepted', 'max'],
  ['shortestRefused', 'min'],
  ['earliestAccepted', 'min'],
  ['latestAccepted', 'max'],
] as const;

function extreme(values: readonly (number | string | undefined)[], pick: 'min' | 'max'): number | string | undefined {
  const known = values.filter((v) => v !== undefined);
  if (!known.length) return undefined;
  return known.reduce((a, b) => ((pick === 'min' ? b < a : b > a) ? b : a));
}

/** One point's limits from several runs joined: values united (first sight first), the bounds widened, the summary made again. */
function mergeLimits(limits: readonly ObservedLimit[]): ObservedLimit {
  const [first] = limits;
  const merged: Omit<ObservedLimit, 'summary'> = {
    operation: first.operation,
    field: first.field,
    kind: first.kind,
    accepted: union(
      limits.map((l) => l.accepted),
      (v) => v,
    ),
    // The first answer to a value speaks for it.
    refused: union(
      limits.map((l) => l.refused),
      (r) => r.value,
    ),
  };
  for (const [key, pick] of BOUNDS) {
    const value = extreme(
      limits.map((l) => l[key]),
      pick,
    );
    if (value !== undefined) Object.assign(merged, { [key]: value });
  }
  return { ...merged, summary: summarizeLimit(merged) };
}

/**
 * The contracts of several runs (the shards of one run) as one: a limit per operation, field and
 * kind, in the contract's order (mergeLimits joins a point's limits).
 */
export function mergeContracts(contracts: readonly ObservedContract[]): ObservedContract {
  const byPoint = new Map<string, ObservedLimit[]>();
  for (const limit of contracts.flatMap((c) => c.limits)) byPoint.set(limitKey(limit), [...(byPoint.get(limitKey(limit)) ?? []), limit]);
  return { version: 1, limits: [...byPoint.values()].map(mergeLimits).sort(compareLimits) };
}
