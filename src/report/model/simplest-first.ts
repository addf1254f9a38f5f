/**
 * The order a rule's failures are shown in: per finding (the same cause), the simplest case first
 * (the document's sample or the shortest shrunk case, not a random 254-character name that
 * happened to be found first), so the example a reader sees first is the easiest to read and to
 * reproduce. The findings keep the order the run found them in (the first is what the rule is
 * reported for). Within a finding: the shrunk case and the fixed ones (written from the document)
 * in the order found (the shrunk one leads), then the random ones, the shortest request body first.
 */
import type { ReportFailure } from './model.ts';

const sizeOf = (f: ReportFailure): number => {
  const { body, rawBody } = f.request;
  return body !== undefined ? (JSON.stringify(body)?.length ?? 0) : (rawBody?.length ?? 0);
};

/** A case fast-check drew and nothing shrank (labelled `random …`, no replay path): a shrunk one ranks with the fixed. */
const isRandom = (f: ReportFailure): boolean => f.path === undefined && /^random\b/.test(f.case.label);

export function simplestFirst(failures: readonly ReportFailure[]): ReportFailure[] {
  const byCause = new Map<string, ReportFailure[]>();
  for (const f of failures) byCause.set(failureCause(f), [...(byCause.get(failureCause(f)) ?? []), f]);
  return [...byCause.values()].flatMap((same) =>
    same
      .map((f, i) => ({ f, i, size: isRandom(f) ? sizeOf(f) : -1 }))
      .sort((a, b) => a.size - b.size || a.i - b.i)
      .map(({ f }) => f),
  );
}

/**
 * A failure's headline: its cause, without the label of the case that carried it (`<label>: <cause>`);
 * the case is named on its own line. A message that is nothing but its label stays whole.
 */
export function failureCause(f: Pick<ReportFailure, 'message' | 'case'>): string {
  const prefix = `${f.case.label}: `;
  return f.message.startsWith(prefix) && f.message.length > prefix.length ? f.message.slice(prefix.length) : f.message;
}
