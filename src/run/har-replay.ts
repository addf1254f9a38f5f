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
 * reachability check is not sent.
 *
 * A replay is a guest (docs/design.md, "A guest in a shared sandbox"): it reads the accounts it
 * will write before the first request and puts them back at the end, also after an error or
 * Ctrl-C (replay-restore.ts); it sends only to the accounts the user named or the embedded
 * server's (replay-accounts.ts); to a live target only the documented operations' methods, and
 * not the recorded run's restore. A redacted HAR (bundle --redact-personal) replays against the
 * embedded server only (the CLI refuses it against a live target): its stand-ins have the shape
 * of the values.
 */
import type { TestCase } from '../core/case.ts';
import { getRule, type RuleId } from '../core/catalogue.ts';
import type { HarEntry } from '../report/files/har.ts';
import type { RunConfig } from './run-config.ts';
import { OPERATIONS } from '../core/operations.ts';
import { MetadataState } from '../rules/update-fiat-account/metadata-state.ts';
import { targetTransport } from './prepare-run.ts';
import type { Transport } from '../engine/transport/transport.ts';
import { startTarget } from './target.ts';
import { isRaceCreate } from '../rules/create-identity/ref-id-scenarios.ts';
import { SCENARIOS } from '../rules/scenarios.ts';
import { ClockPacing } from '../rules/update-fiat-account/updated-at-scenario.ts';
import { bodyOf, caseOfEntry, recordedPool, twinLinksOf } from './har-case.ts';
import { type EntryExchange, judgeEntryExchanges, type ReplayedRule, statusAgrees } from './har-judge.ts';
import { ReplayAccounts } from './replay-accounts.ts';
import { FreshRefIds } from './har-ref-ids.ts';
import { ReplayRestore, type ReplayRestoreResult } from './replay-restore.ts';
import { journalInFreshFolder } from '../engine/restore/restore-journal.ts';

export { caseOfEntry } from './har-case.ts';
export type { ReplayedRule, ReplayStatus } from './har-judge.ts';

/** What a replay of a HAR found. */
export interface HarReplay {
  rules: ReplayedRule[];
  /** The rules a HAR cannot judge again, each with why. */
  notRejudged: { id: RuleId; why: string }[];
  /** Entries sent again, and those left out with why (the reachability check, a body the HAR cut, what a guest does not send). */
  sent: number;
  leftOut: { index: number; why: string }[];
  /** What the replay's restore did with the target's accounts it wrote, and those it left changed. */
  restore: ReplayRestoreResult;
  /** Set when Ctrl-C stopped the sending: the rules are judged from what was sent. */
  interrupted?: boolean;
  /** Where the requests went. */
  target: { baseUrl: string; embedded: boolean };
}

/** A burst of the concurrent ref_id scenario: this entry's ref_id when it is one of the race's creates. */
function raceRefId(entry: HarEntry): string | undefined {
  return entry._case && isRaceCreate(entry._case) ? bodyRefId(entry) : undefined;
}

/** How a replay is run: Ctrl-C, and where the target is told before anything is sent. */
export interface HarReplayOptions {
  /** Aborted when the user interrupts the replay: no request is sent any more, the accounts are put back. */
  signal?: AbortSignal;
  /** Told the target (its URL, whether it is the embedded server and with what reading) before anything is sent to it. */
  announce?(target: { baseUrl: string; embedded: boolean; reading?: Record<string, string> }): void;
}

/** One entry ready to send. */
interface Ready {
  at: number;
  entry: HarEntry;
  testCase: TestCase;
  judged: boolean;
}

/**
 * The rules an entry's case was sent for, for the rules a replay left without their requests: its
 * own, and the scenario rule it serves (the refused-update scenario's GET is around the update and
 * exercises that scenario's rule).
 */
const rulesOfEntry = (entry: HarEntry): RuleId[] => {
  const c = entry._case;
  return [...new Set([c?.around ?? c?.violates, c?.exercises].filter((r): r is RuleId => r !== undefined))];
};

/**
 * The entries a replay sends, and those it leaves out with why: what cannot be sent again, and,
 * against a live target, what a guest does not send (another method than the documented
 * operation's, the recorded run's own restore, an account nobody named).
 */
function entriesToSend(entries: readonly HarEntry[], accounts: ReplayAccounts, live: boolean): { ready: Ready[]; leftOut: HarReplay['leftOut'] } {
  const ready: Ready[] = [];
  // The recorded run's identities may still be on the target: each create gets a fresh ref_id.
  const refIds = new FreshRefIds();
  const leftOut: HarReplay['leftOut'] = [];
  for (const [at, entry] of entries.entries()) {
    const rebuilt = caseOfEntry(entry);
    if ('why' in rebuilt) {
      leftOut.push({ index: at, why: rebuilt.why });
      continue;
    }
    const recorded = rebuilt.testCase;
    if (live && recorded.restore) {
      leftOut.push({ index: at, why: "the recorded run's restore: a replay reads and puts back the target's accounts itself" });
      continue;
    }
    const method = recorded.method ?? OPERATIONS[recorded.operation].method;
    if (live && method !== OPERATIONS[recorded.operation].method) {
      leftOut.push({ index: at, why: `${method}: not a documented operation (a live target gets only ${documentedOperations()})` });
      continue;
    }
    const choice = recorded.fiatAccountId !== undefined ? accounts.choose(recorded.fiatAccountId) : undefined;
    if (choice && 'skip' in choice) {
      leftOut.push({ index: at, why: `no account to send it to: ${choice.skip}` });
      continue;
    }
    ready.push({ at, entry, testCase: refIds.restamp(choice ? { ...recorded, fiatAccountId: choice.id } : recorded), judged: rebuilt.judged });
  }
  return { ready, leftOut };
}

const documentedOperations = (): string =>
  Object.values(OPERATIONS)
    .map((o) => `${o.method} ${o.pathTemplate}`)
    .join(' and ');

/**
 * Sends the ready entries in the HAR's order, one at a time; the creates of one concurrent round
 * (consecutive, one ref_id) go out together, as the run sent them: a race needs them at once.
 * An update of an account the restore could not read first is left out; Ctrl-C stops the sending.
 */
async function sendAll(
  ready: readonly Ready[],
  transport: Transport,
  guard: { restore: ReplayRestore; accounts: ReplayAccounts; metadata: MetadataState; signal?: AbortSignal },
): Promise<{ sent: EntryExchange[]; leftOut: HarReplay['leftOut']; interrupted: boolean }> {
  const sent: EntryExchange[] = [];
  const leftOut: HarReplay['leftOut'] = [];
  const clock = new ClockPacing();
  const sendOne = async ({ at, entry, testCase: recorded, judged }: Ready): Promise<EntryExchange> => {
    const testCase = guard.restore.fit(recorded);
    if (testCase.fiatAccountId && guard.accounts.isTargetAccount(testCase.fiatAccountId)) guard.restore.wrote(testCase.fiatAccountId);
    // The updated_at scenario's one wait, as the run made it (updated-at-scenario.ts).
    const pause = clock.waitBefore(testCase);
    if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
    const exchange = await transport.send(testCase, testCase.auth ? { auth: testCase.auth } : undefined);
    clock.sent(exchange);
    guard.restore.sent(exchange);
    guard.metadata.observe(exchange);
    return { exchange, at, judged, links: twinLinksOf(entry) };
  };
  const unread = (r: Ready) =>
    r.testCase.fiatAccountId !== undefined && guard.accounts.isTargetAccount(r.testCase.fiatAccountId) && !guard.restore.mayWrite(r.testCase.fiatAccountId);
  const tokens = new TokenGenerations(transport);
  for (let i = 0; i < ready.length; ) {
    if (guard.signal?.aborted) return { sent, leftOut, interrupted: true };
    await tokens.before(ready[i].entry);
    const refId = raceRefId(ready[i].entry);
    let end = i + 1;
    while (refId !== undefined && end < ready.length && raceRefId(ready[end].entry) === refId) end++;
    const batch = ready.slice(i, end);
    for (const r of batch.filter(unread))
      leftOut.push({ index: r.at, why: `the start read of ${r.testCase.fiatAccountId} gave no account: what it holds is unknown, so it is not written` });
    sent.push(...(await Promise.all(batch.filter((r) => !unread(r)).map(sendOne))));
    i = end;
  }
  return { sent, leftOut, interrupted: guard.signal?.aborted === true };
}

/**
 * The run's token renewals, replayed: an entry the recorded run sent on a later token than the
 * entries before it goes on a new token of the replay too (a scenario repeats ref_ids across
 * tokens), when the replay fetches its tokens; one token request each.
 */
class TokenGenerations {
  private last: number | undefined;
  constructor(private readonly transport: Pick<Transport, 'renewToken'>) {}

  async before(entry: HarEntry): Promise<void> {
    const generation = entry._tokenGeneration;
    if (generation === undefined) return;
    if (this.last !== undefined && generation > this.last) await this.transport.renewToken?.();
    this.last = Math.max(this.last ?? generation, generation);
  }
}

/**
 * The rules a replay cannot judge when the recorded run renewed its token and the replay's token
 * cannot be renewed (a static --token): the scenarios' that need a renewal, and the rules of any
 * repeat of a ref_id first sent on an earlier token (the later repeats of the run's first ref_ids):
 * on one token, a target that keeps its index per token answers them otherwise.
 */
function unrenewable(entries: readonly HarEntry[], transport: Pick<Transport, 'renewToken'>): HarReplay['notRejudged'] {
  if (transport.renewToken || new Set(entries.map((e) => e._tokenGeneration).filter((g) => g !== undefined)).size < 2) return [];
  const rules = new Set<RuleId>([...SCENARIOS.flatMap((s) => s.credentialNeeds?.rules ?? []), ...repeatsAcrossRenewals(entries)]);
  return [...rules].map((id) => ({ id, why: "the recorded run renewed its token; the replay's static token cannot be renewed" }));
}

/** The rules of the entries that repeat a ref_id the recorded run first sent on an earlier token. */
function repeatsAcrossRenewals(entries: readonly HarEntry[]): RuleId[] {
  const firstOn = new Map<string, number>();
  const rules = new Set<RuleId>();
  for (const entry of entries) {
    const generation = entry._tokenGeneration;
    const refId = entry._case && OPERATIONS[entry._case.operation].stampsRefId ? bodyRefId(entry) : undefined;
    if (generation === undefined || refId === undefined) continue;
    const first = firstOn.get(refId);
    if (first === undefined) firstOn.set(refId, generation);
    else if (generation > first) for (const rule of rulesOfEntry(entry)) rules.add(rule);
  }
  return [...rules];
}

const bodyRefId = (entry: HarEntry): string | undefined => {
  const refId = (bodyOf(entry.request.postData?.text).body as { ref_id?: unknown } | undefined)?.ref_id;
  return typeof refId === 'string' ? refId : undefined;
};

/** Runs `send`, then puts the accounts back however it ended (an error is thrown again after the restore). */
async function putBackAfter<T>(restore: ReplayRestore, send: () => Promise<T>): Promise<T & { restored: ReplayRestoreResult }> {
  let result: T;
  try {
    result = await send();
  } catch (error) {
    await restore.finish().catch(() => undefined);
    throw error;
  }
  return { ...result, restored: await restore.finish() };
}

/** The rules whose requests a replay left out and that no request sent judged: they are not re-judged, with why. */
function leftWithoutRequests(entries: readonly HarEntry[], leftOut: HarReplay['leftOut'], rules: readonly ReplayedRule[]): HarReplay['notRejudged'] {
  const judged = new Set(rules.filter((r) => r.cases > 0).map((r) => r.id));
  const why = new Map<RuleId, string>();
  for (const { index, why: reason } of leftOut) {
    for (const rule of rulesOfEntry(entries[index]))
      if (!judged.has(rule) && !why.has(rule)) why.set(rule, `its requests were left out: ${reason.split(':')[0]}`);
  }
  return [...why].map(([id, reason]) => ({ id, why: reason }));
}

/**
 * Sends the HAR's entries again, in order, to the target of `config` (none: a fresh embedded
 * server) and judges them. Reads the target's accounts first and puts them back at the end, also
 * after an error or Ctrl-C (replay-restore.ts).
 */
export async function replayHar(entries: readonly HarEntry[], config: RunConfig, options: HarReplayOptions = {}): Promise<HarReplay> {
  const target = await startTarget(config);
  try {
    options.announce?.({ baseUrl: target.baseUrl, embedded: target.embedded, ...(target.reading ? { reading: target.reading } : {}) });
    const live = !target.embedded;
    const accounts = new ReplayAccounts(target.fiatAccountIds, recordedPool(entries));
    const planned = entriesToSend(entries, accounts, live);
    const transport = targetTransport(config, target, options.signal);
    await transport.authenticate();
    const metadata = new MetadataState();
    const written = [
      ...new Set(planned.ready.map((r) => r.testCase.fiatAccountId).filter((id): id is string => id !== undefined && accounts.isTargetAccount(id))),
    ];
    const journal = { target: target.baseUrl, ...(live ? { file: await journalInFreshFolder('conformance-replay-') } : {}) };
    const restore = new ReplayRestore(written, transport, () => metadata.semantics, options.signal, journal);
    const outcome = await putBackAfter(restore, async () => {
      await restore.readStart();
      // Sent first, judged after: a refused case's twin goes after it, and its verdict decides the case.
      return sendAll(planned.ready, transport, { restore, accounts, metadata, ...(options.signal ? { signal: options.signal } : {}) });
    });
    const restored = outcome.restored;
    const leftOut = [...planned.leftOut, ...outcome.leftOut].sort((a, b) => a.index - b.index);
    const rules = judgeEntryExchanges(outcome.sent, target.fiatAccountIds);
    return {
      rules,
      notRejudged: [...leftWithoutRequests(entries, leftOut, rules), ...unrenewable(entries, transport)],
      sent: outcome.sent.length,
      leftOut,
      restore: restored,
      ...(outcome.interrupted ? { interrupted: true } : {}),
      target: { baseUrl: target.baseUrl, embedded: target.embedded },
    };
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
