/**
 * What a replay must know of a HAR before it sends anything (har-replay.ts), learnt in a first
 * read of its entries, keeping only ids and numbers (issue 33: a 95,000-entry HAR is read twice,
 * never held): the recorded run's pool, the accounts the replay will write, where each valid twin
 * is, whether the run renewed its token, and the rules of the repeats sent on a later token than
 * their ref_id's first create.
 */
import type { TestCase } from '../core/case.ts';
import type { RuleId } from '../core/catalogue.ts';
import { DigestTable } from '../core/digest-table.ts';
import { OPERATIONS } from '../core/operations.ts';
import type { HarEntry } from '../report/files/har.ts';
import { bodyOf, caseOfEntry, RecordedPool } from './har-case.ts';
import { TwinOrder } from './har-judge.ts';

/** Entries of a HAR, read again for each pass: a file is streamed (report/files/har-reader.ts), an array given as it is. */
export type HarEntrySource = () => AsyncIterable<HarEntry>;

/** The source of entries already in memory. */
export const entriesInMemory = (entries: readonly HarEntry[]): HarEntrySource =>
  async function* () {
    yield* entries;
  };

/** An entry as a replay would send it, before its account is chosen; or why it is not sent. */
export type Sendable = { testCase: TestCase; judged: boolean } | { why: string };

/** Whether an entry can be sent again, and to a live target by a guest (no other method than the documented operation's, not the run's restore). */
export function sendable(entry: HarEntry, live: boolean): Sendable {
  const rebuilt = caseOfEntry(entry);
  if ('why' in rebuilt) return rebuilt;
  const recorded = rebuilt.testCase;
  if (live && recorded.restore) return { why: "the recorded run's restore: a replay reads and puts back the target's accounts itself" };
  const method = recorded.method ?? OPERATIONS[recorded.operation].method;
  if (live && method !== OPERATIONS[recorded.operation].method)
    return { why: `${method}: not a documented operation (a live target gets only ${documentedOperations()})` };
  return rebuilt;
}

const documentedOperations = (): string =>
  Object.values(OPERATIONS)
    .map((o) => `${o.method} ${o.pathTemplate}`)
    .join(' and ');

/**
 * The rules an entry's case was sent for, for the rules a replay left without their requests: its
 * own, and the scenario rule it serves (the refused-update scenario's GET is around the update and
 * exercises that scenario's rule).
 */
export const rulesOfEntry = (entry: HarEntry): RuleId[] => {
  const c = entry._case;
  return [...new Set([c?.around ?? c?.violates, c?.exercises].filter((r): r is RuleId => r !== undefined))];
};

export const bodyRefId = (entry: HarEntry): string | undefined => {
  const refId = (bodyOf(entry.request.postData?.text).body as { ref_id?: unknown } | undefined)?.ref_id;
  return typeof refId === 'string' ? refId : undefined;
};

/** What the first read of a HAR learnt. */
export interface HarSurvey {
  entries: number;
  /** The recorded run's pool accounts (har-case.ts RecordedPool). */
  pool: string[];
  /** The recorded accounts the sendable entries go to, in the order they first do. */
  accounts: string[];
  /** Where the valid twins are, among the sendable entries a rule judges. */
  twins: TwinOrder;
  /** Whether the recorded run renewed its token (its entries carry two token generations or more). */
  renewed: boolean;
  /** The rules of the entries that repeat a ref_id the recorded run first sent on an earlier token. */
  repeatsAcrossRenewals: RuleId[];
}

/** Reads the entries once and keeps what a replay needs before sending (`live`: to a live target). */
export async function surveyHar(source: HarEntrySource, live: boolean): Promise<HarSurvey> {
  const pool = new RecordedPool();
  const accounts = new Set<string>();
  const twins = new TwinOrder();
  const generations = new Set<number>();
  const renewals = new RenewedRepeats();
  let at = 0;
  for await (const entry of source()) {
    pool.observe(entry);
    const sent = sendable(entry, live);
    if ('testCase' in sent) {
      if (sent.testCase.fiatAccountId !== undefined) accounts.add(sent.testCase.fiatAccountId);
      const input = entry._case?.input;
      if (sent.judged && input) twins.add(input, at);
    }
    if (entry._tokenGeneration !== undefined) generations.add(entry._tokenGeneration);
    renewals.observe(entry);
    at++;
  }
  return { entries: at, pool: pool.ids(), accounts: [...accounts], twins, renewed: generations.size >= 2, repeatsAcrossRenewals: renewals.rules() };
}

/** The rules of the entries that repeat a ref_id the recorded run first sent on an earlier token; ref_ids kept as digests. */
class RenewedRepeats {
  private readonly refIds = new DigestTable();
  /** The token generation each ref_id was first sent on, by its number in `refIds`. */
  private readonly firstOn: number[] = [];
  private readonly found = new Set<RuleId>();

  observe(entry: HarEntry): void {
    const generation = entry._tokenGeneration;
    if (generation === undefined || !entry._case || !OPERATIONS[entry._case.operation].stampsRefId) return;
    const refId = bodyRefId(entry);
    if (refId === undefined) return;
    const { id, added } = this.refIds.add(refId);
    if (added) this.firstOn[id] = generation;
    else if (generation > this.firstOn[id]) for (const rule of rulesOfEntry(entry)) this.found.add(rule);
  }

  rules(): RuleId[] {
    return [...this.found];
  }
}
