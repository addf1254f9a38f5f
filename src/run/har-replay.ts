/**
 * Replaying exchanges.har: every entry's request sent again, in the HAR's order, to a target (by
 * default a fresh embedded server: the run's pool accounts, named by the restore's start reads,
 * stand for its own), then judged by the rules as the run judged it (har-judge.ts, shared with
 * the offline re-judge of the recorded answers, har-rejudge.ts): every check
 * (src/rules/judge.ts), the identities created so far (id.distinct-identities, with its
 * precedence over the checks that compare an answer with its request), a refusal only when its
 * valid twin (linked by `_case.twin`, report/files/twin-link.ts) was accepted, the open points'
 * observed contract, the metadata state; the scenarios' rules from their entries: each ref_id
 * repeat against the identity its ref_id made, each concurrent round (sent together again) by the
 * identities it made, each update sequence against the model of what it stored. Entries of the
 * restore (`_case.restore`) and attempts sent again are re-sent but judged by no rule; the
 * reachability check is not sent. A redacted HAR (bundle --redact-personal) replays the same way:
 * its stand-ins have the shape of the values.
 */
import type { TestCase } from '../core/case.ts';
import { getRule, type RuleId } from '../core/catalogue.ts';
import type { HarEntry } from '../report/files/har.ts';
import type { RunConfig } from './run-config.ts';
import { UsageError } from '../core/errors.ts';
import { targetTransport } from './prepare-run.ts';
import type { Transport } from '../engine/transport/transport.ts';
import { startTarget } from './target.ts';
import { bodyOf, caseOfEntry, recordedPool, twinLinksOf } from './har-case.ts';
import { type EntryExchange, judgeEntryExchanges, NOT_REJUDGED, type ReplayedRule, statusAgrees } from './har-judge.ts';

export { caseOfEntry } from './har-case.ts';
export { NOT_REJUDGED, type ReplayedRule, type ReplayStatus } from './har-judge.ts';

const CONCURRENT = 'id.ref-id.concurrent-duplicate';

/** What a replay of a HAR found. */
export interface HarReplay {
  rules: ReplayedRule[];
  /** The rules a HAR cannot judge again, each with why. */
  notRejudged: { id: RuleId; why: string }[];
  /** Entries sent again, and those left out with why (the reachability check, a body the HAR cut). */
  sent: number;
  leftOut: { index: number; why: string }[];
}

/**
 * The run's pool accounts, in the order the HAR first names them, paired with the target's: the
 * restore's start reads name the pool (else the accounts that answered a 2xx); a fresh embedded
 * server has as many accounts, with ids of its own. An id outside the pool (an unknown-id probe)
 * is sent as it was; so is every id when the target names no accounts (a remote one given none).
 */
function accountMap(entries: readonly HarEntry[], targetIds: readonly string[]): Map<string, string> {
  // A remote target given no account ids: the HAR's own accounts, as recorded.
  if (!targetIds.length) return new Map();
  const pool = recordedPool(entries);
  if (pool.length > targetIds.length)
    throw new UsageError(`the HAR updates ${pool.length} fiat accounts and the target has ${targetIds.length}: give as many --fiat-account-id`);
  return new Map(pool.map((id, i) => [id, targetIds[i]]));
}

/** A burst of the concurrent ref_id scenario: this entry's ref_id when it is one of the race's creates. */
function raceRefId(entry: HarEntry): string | undefined {
  if (entry._case?.exercises !== CONCURRENT) return undefined;
  const refId = (bodyOf(entry.request.postData?.text).body as { ref_id?: unknown } | undefined)?.ref_id;
  return typeof refId === 'string' ? refId : undefined;
}

/**
 * Sends every entry that can be sent again, in the HAR's order, one at a time; the creates of one
 * concurrent round (consecutive, one ref_id) go out together, as the run sent them: a race needs them at once.
 */
async function sendAll(
  entries: readonly HarEntry[],
  transport: Transport,
  accounts: ReadonlyMap<string, string>,
): Promise<{ sent: EntryExchange[]; leftOut: HarReplay['leftOut'] }> {
  const sent: EntryExchange[] = [];
  const leftOut: HarReplay['leftOut'] = [];
  const ready: { at: number; entry: HarEntry; testCase: TestCase; judged: boolean }[] = [];
  for (const [at, entry] of entries.entries()) {
    const rebuilt = caseOfEntry(entry);
    if ('why' in rebuilt) leftOut.push({ index: at, why: rebuilt.why });
    else {
      const recorded = rebuilt.testCase;
      const mapped = recorded.fiatAccountId !== undefined ? accounts.get(recorded.fiatAccountId) : undefined;
      ready.push({ at, entry, testCase: mapped ? { ...recorded, fiatAccountId: mapped } : recorded, judged: rebuilt.judged });
    }
  }
  const sendOne = async ({ at, entry, testCase, judged }: (typeof ready)[number]): Promise<EntryExchange> => {
    const exchange = await transport.send(testCase, testCase.auth ? { auth: testCase.auth } : undefined);
    return { exchange, at, judged, links: twinLinksOf(entry) };
  };
  for (let i = 0; i < ready.length; ) {
    const refId = raceRefId(ready[i].entry);
    let end = i + 1;
    while (refId !== undefined && end < ready.length && raceRefId(ready[end].entry) === refId) end++;
    sent.push(...(await Promise.all(ready.slice(i, end).map(sendOne))));
    i = end;
  }
  return { sent, leftOut };
}

/** Sends the HAR's entries again, in order, to the target of `config` (none: a fresh embedded server) and judges them. */
export async function replayHar(entries: readonly HarEntry[], config: RunConfig): Promise<HarReplay> {
  const target = await startTarget(config);
  try {
    const transport = targetTransport(config, target);
    await transport.authenticate();
    // Sent first, judged after: a refused case's twin goes after it, and its verdict decides the case.
    const { sent, leftOut } = await sendAll(entries, transport, accountMap(entries, target.fiatAccountIds));
    const rules = judgeEntryExchanges(sent, target.fiatAccountIds);
    return { rules, notRejudged: [...NOT_REJUDGED], sent: sent.length, leftOut };
  } finally {
    await target.close();
  }
}

/**
 * Where a replay disagrees with the report's rule statuses, one line per rule: a rule the report
 * failed must fail again, a passed one must be judged and pass, an inconclusive one must not fail.
 * Skipped rules and the rules a HAR cannot judge again are left out.
 */
export function replayDisagreements(reported: readonly { id: string; status: string }[], replayed: HarReplay): string[] {
  const byId = new Map(replayed.rules.map((r) => [r.id as string, r]));
  const skip = new Set(replayed.notRejudged.map((r) => r.id as string));
  const lines: string[] = [];
  for (const rule of reported) {
    if (skip.has(rule.id) || rule.status === 'skipped') continue;
    const status = byId.get(rule.id)?.status ?? 'not judged';
    if (!statusAgrees(rule.status, status)) lines.push(`${rule.id} (${getRule(rule.id).section}): the report says ${rule.status}, the replay ${status}`);
  }
  return lines;
}
