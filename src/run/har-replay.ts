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
import { MetadataState } from '../rules/update-fiat-account/metadata-state.ts';
import { targetTransport } from './prepare-run.ts';
import type { Transport } from '../engine/transport/transport.ts';
import { startTarget } from './target.ts';
import { isRaceCreate } from '../rules/create-identity/ref-id-scenarios.ts';
import { SCENARIOS } from '../rules/scenarios.ts';
import { ClockPacing } from '../rules/update-fiat-account/updated-at-scenario.ts';
import { twinLinksOf } from './har-case.ts';
import { type EntryExchange, type ReplayedRule, StreamingEntryJudge, statusAgrees } from './har-judge.ts';
import { bodyRefId, entriesInMemory, type HarEntrySource, type HarSurvey, rulesOfEntry, sendable, surveyHar } from './har-survey.ts';
import { ReplayAccounts } from './replay-accounts.ts';
import { FreshRefIds } from './har-ref-ids.ts';
import { ReplayRestore, type ReplayRestoreResult } from './replay-restore.ts';
import { journalInFreshFolder } from '../engine/restore/restore-journal.ts';

export { caseOfEntry } from './har-case.ts';
export type { ReplayedRule, ReplayStatus } from './har-judge.ts';
export type { HarEntrySource } from './har-survey.ts';

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

/** An entry left out, with why, and the rules it was sent for (for the rules left without their requests). */
interface LeftOut {
  index: number;
  why: string;
  rules: RuleId[];
}

/** Where the entries go and what judges them as they come back. */
interface Sending {
  transport: Transport;
  restore: ReplayRestore;
  accounts: ReplayAccounts;
  metadata: MetadataState;
  judge: StreamingEntryJudge;
  refIds: FreshRefIds;
  live: boolean;
  signal?: AbortSignal;
}

/**
 * An entry ready to send, or why it is left out: what cannot be sent again, an account nobody
 * named and, against a live target, what a guest does not send (har-survey.ts sendable). Each
 * create gets a fresh ref_id: the recorded run's identities may still be on the target.
 */
function readyOf(entry: HarEntry, at: number, s: Pick<Sending, 'accounts' | 'refIds' | 'live'>): Ready | { why: string } {
  const sent = sendable(entry, s.live);
  if ('why' in sent) return sent;
  const recorded = sent.testCase;
  const choice = recorded.fiatAccountId !== undefined ? s.accounts.choose(recorded.fiatAccountId) : undefined;
  if (choice && 'skip' in choice) return { why: `no account to send it to: ${choice.skip}` };
  return { at, entry, testCase: s.refIds.restamp(choice ? { ...recorded, fiatAccountId: choice.id } : recorded), judged: sent.judged };
}

/** The creates of one concurrent round (consecutive, one ref_id) go out together, as the run sent them: a race needs them at once; any other entry alone. */
class RaceBatches {
  private batch: Ready[] = [];
  private refId: string | undefined;

  /** Adds an entry; returns the batch before it when the entry begins another. */
  add(ready: Ready): Ready[] | undefined {
    const refId = raceRefId(ready.entry);
    if (this.batch.length && refId !== undefined && refId === this.refId) {
      this.batch.push(ready);
      return undefined;
    }
    const done = this.flush();
    this.batch = [ready];
    this.refId = refId;
    return done;
  }

  flush(): Ready[] | undefined {
    const done = this.batch.length ? this.batch : undefined;
    this.batch = [];
    return done;
  }
}

/** Sends the batches, each fitted by the restore; an update of an account the restore could not read first is left out. */
class EntrySender {
  sent = 0;
  private readonly clock = new ClockPacing();
  private readonly tokens: TokenGenerations;

  constructor(
    private readonly s: Sending,
    private readonly leave: (entry: HarEntry, at: number, why: string) => void,
  ) {
    this.tokens = new TokenGenerations(s.transport);
  }

  async send(batch: readonly Ready[]): Promise<void> {
    await this.tokens.before(batch[0].entry);
    const { accounts, restore } = this.s;
    const unread = (r: Ready) =>
      r.testCase.fiatAccountId !== undefined && accounts.isTargetAccount(r.testCase.fiatAccountId) && !restore.mayWrite(r.testCase.fiatAccountId);
    for (const r of batch.filter(unread))
      this.leave(r.entry, r.at, `the start read of ${r.testCase.fiatAccountId} gave no account: what it holds is unknown, so it is not written`);
    const sent = await Promise.all(batch.filter((r) => !unread(r)).map((r) => this.sendOne(r)));
    this.sent += sent.length;
    for (const exchange of sent) this.s.judge.add(exchange);
  }

  private async sendOne({ at, entry, testCase: recorded, judged }: Ready): Promise<EntryExchange> {
    const { accounts, restore, transport, metadata } = this.s;
    const testCase = restore.fit(recorded);
    if (testCase.fiatAccountId && accounts.isTargetAccount(testCase.fiatAccountId)) restore.wrote(testCase.fiatAccountId);
    // The updated_at scenario's one wait, as the run made it (updated-at-scenario.ts).
    const pause = this.clock.waitBefore(testCase);
    if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
    const exchange = await transport.send(testCase, testCase.auth ? { auth: testCase.auth } : undefined);
    this.clock.sent(exchange);
    restore.sent(exchange);
    metadata.observe(exchange);
    return { exchange, at, judged, links: twinLinksOf(entry) };
  }
}

/**
 * Sends the entries again in the HAR's order, read one at a time, each judged as soon as what
 * decides it has come back (StreamingEntryJudge): nothing of an entry is kept once it is judged.
 * Ctrl-C stops the sending.
 */
async function sendAll(source: HarEntrySource, s: Sending): Promise<{ sent: number; leftOut: LeftOut[]; interrupted: boolean }> {
  const leftOut: LeftOut[] = [];
  const leave = (entry: HarEntry, index: number, why: string) => {
    leftOut.push({ index, why, rules: rulesOfEntry(entry) });
    s.judge.skip(index, entry._case?.input);
  };
  const batches = new RaceBatches();
  const sender = new EntrySender(s, leave);
  let at = 0;
  for await (const entry of source()) {
    if (s.signal?.aborted) break;
    const ready = readyOf(entry, at, s);
    if ('why' in ready) leave(entry, at, ready.why);
    else {
      const done = batches.add(ready);
      if (done) await sender.send(done);
    }
    at++;
  }
  const last = batches.flush();
  if (last && !s.signal?.aborted) await sender.send(last);
  return { sent: sender.sent, leftOut, interrupted: s.signal?.aborted === true };
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
function unrenewable(survey: HarSurvey, transport: Pick<Transport, 'renewToken'>): HarReplay['notRejudged'] {
  if (transport.renewToken || !survey.renewed) return [];
  const rules = new Set<RuleId>([...SCENARIOS.flatMap((s) => s.credentialNeeds?.rules ?? []), ...survey.repeatsAcrossRenewals]);
  return [...rules].map((id) => ({ id, why: "the recorded run renewed its token; the replay's static token cannot be renewed" }));
}

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
function leftWithoutRequests(leftOut: readonly LeftOut[], rules: readonly ReplayedRule[]): HarReplay['notRejudged'] {
  const judged = new Set(rules.filter((r) => r.cases > 0).map((r) => r.id));
  const why = new Map<RuleId, string>();
  for (const { rules: ofEntry, why: reason } of leftOut) {
    for (const rule of ofEntry) if (!judged.has(rule) && !why.has(rule)) why.set(rule, `its requests were left out: ${reason.split(':')[0]}`);
  }
  return [...why].map(([id, reason]) => ({ id, why: reason }));
}

/** The target's accounts the replay will write: those the sendable entries' recorded accounts stand for. */
function writtenAccounts(survey: HarSurvey, accounts: ReplayAccounts): string[] {
  const chosen = survey.accounts.map((id) => accounts.choose(id)).flatMap((c) => ('id' in c && accounts.isTargetAccount(c.id) ? [c.id] : []));
  return [...new Set(chosen)];
}

/**
 * Sends the HAR's entries again, in order, to the target of `config` (none: a fresh embedded
 * server) and judges them. The entries are read twice (what the HAR holds, then each sent and
 * judged in turn), never held all: a file's come from report/files/har-reader.ts. Reads the
 * target's accounts first and puts them back at the end, also after an error or Ctrl-C
 * (replay-restore.ts).
 */
export async function replayHar(entries: readonly HarEntry[] | HarEntrySource, config: RunConfig, options: HarReplayOptions = {}): Promise<HarReplay> {
  const source = typeof entries === 'function' ? entries : entriesInMemory(entries);
  const live = config.baseUrl !== undefined;
  const survey = await surveyHar(source, live);
  const target = await startTarget(config);
  try {
    options.announce?.({ baseUrl: target.baseUrl, embedded: target.embedded, ...(target.reading ? { reading: target.reading } : {}) });
    const accounts = new ReplayAccounts(target.fiatAccountIds, survey.pool);
    const transport = targetTransport(config, target, options.signal);
    await transport.authenticate();
    const metadata = new MetadataState();
    const journal = { target: target.baseUrl, ...(live ? { file: await journalInFreshFolder('conformance-replay-') } : {}) };
    const restore = new ReplayRestore(writtenAccounts(survey, accounts), transport, () => metadata.semantics, options.signal, journal);
    const judge = new StreamingEntryJudge(target.fiatAccountIds, survey.twins);
    const sending = { transport, restore, accounts, metadata, judge, refIds: new FreshRefIds(), live, ...(options.signal ? { signal: options.signal } : {}) };
    const outcome = await putBackAfter(restore, async () => {
      await restore.readStart();
      return sendAll(source, sending);
    });
    const leftOut = outcome.leftOut.sort((a, b) => a.index - b.index);
    const rules = judge.finish();
    return {
      rules,
      notRejudged: [...leftWithoutRequests(leftOut, rules), ...unrenewable(survey, transport)],
      sent: outcome.sent,
      leftOut: leftOut.map(({ index, why }) => ({ index, why })),
      restore: outcome.restored,
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
