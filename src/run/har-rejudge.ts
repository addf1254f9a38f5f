/**
 * Re-judging exchanges.har offline: every entry's exchange rebuilt from its recorded request AND
 * response (status, headers, body text; an entry with `_error` is an exchange without an answer,
 * as the run recorded it), judged by the judge a replay uses (har-judge.ts), sending nothing. An
 * entry whose body the HAR cut cannot be judged: every rule of its operation is then listed as
 * not re-judged, never guessed. The fiat accounts are the report's own, no mapping.
 */
import { RULES, type RuleId } from '../core/catalogue.ts';
import type { Exchange, RecordedResponse, TransportError } from '../core/exchange.ts';
import { recordBody } from '../engine/transport/body-record.ts';
import { isRememberedRepeat } from '../rules/create-identity/remembered-identities.ts';
import type { HarEntry, HarHeader } from '../report/files/har.ts';
import type { ConformanceReport } from '../report/model/model.ts';
import { bodyOf, caseOfEntry, RecordedPool, recordedPool, twinLinksOf } from './har-case.ts';
import { type ReplayedRule, StreamingEntryJudge, statusAgrees, TwinOrder } from './har-judge.ts';
import type { HarEntrySource } from './har-survey.ts';

/** What re-judging a HAR's recorded exchanges found. */
export interface HarRejudge {
  rules: ReplayedRule[];
  /** The rules the HAR cannot judge again, each with why (a body it cut, a scenario it does not hold). */
  notRejudged: { id: RuleId; why: string }[];
  /** Entries whose exchange was rebuilt, and those left out with why (the reachability check, a body the HAR cut). */
  rebuilt: number;
  leftOut: { index: number; why: string }[];
}

/** Why a rule fed by an entry whose body the HAR cut is not re-judged. */
export const BODY_CUT = 'a body was cut';
/** Why a rule that judged repeats of earlier runs' ref_ids is not re-judged. */
export const REMEMBERED_ELSEWHERE = 'it repeated ref_ids earlier runs created (--state): their first identities are in the state file, not in the HAR';

const record = (headers: readonly HarHeader[]): Record<string, string> => Object.fromEntries(headers.map((h) => [h.name, h.value]));

/** `the harness kept 65536 of 900000 bytes received` (report/files/har.ts): the transport cut the body at its cap. */
const KEPT = /the harness kept (\d+) of (\d+) bytes received/;

/** The answer as the transport recorded it, its body read by the transport's own reader (body-record.ts): one the transport cut is no JSON. */
function recordedResponse(response: HarEntry['response']): RecordedResponse {
  const bytes = Buffer.from(response.content.text ?? '', 'utf8');
  const kept = KEPT.exec(response.content.comment ?? '');
  const body = recordBody({ bytes, receivedBytes: kept ? Math.max(Number(kept[2]), bytes.length + 1) : bytes.length });
  return {
    status: response.status,
    headers: record(response.headers),
    ...body,
    ...(kept ? { truncated: { keptBytes: Number(kept[1]), receivedBytes: Number(kept[2]) } } : {}),
    // U+FFFD stands in the text for the bytes that were not UTF-8: the HAR's comment says so.
    ...(response.content.comment?.includes('not valid UTF-8') ? { invalidUtf8: true } : {}),
  };
}

/** The exchange the run judged, rebuilt from one entry whose case rebuilds. */
function recordedExchange(entry: HarEntry, testCase: Exchange['testCase']): Exchange {
  const request = { method: entry.request.method, url: entry.request.url, headers: record(entry.request.headers), ...bodyOf(entry.request.postData?.text) };
  const base = {
    testCase,
    request,
    startedAt: entry.startedDateTime,
    durationMs: entry.time,
    ...(typeof entry._tokenGeneration === 'number' ? { tokenGeneration: entry._tokenGeneration } : {}),
  };
  if (entry._error) return { ...base, error: { kind: entry._error.kind as TransportError['kind'], message: entry._error.message } };
  return { ...base, response: recordedResponse(entry.response) };
}

/** Whether the HAR cut a body of the entry (the request's, or the answer's): `body cut to its first … characters`. */
const bodyCut = (entry: HarEntry): boolean => [entry.request.postData?.comment, entry.response.content.comment].some((c) => c?.includes('body cut') === true);

/** The rules an entry whose body was cut would have fed: every rule of its operation (none guessed). */
function rulesOfCutEntry(entry: HarEntry): RuleId[] {
  const operation = entry._case?.operation;
  return operation ? RULES.filter((r) => r.operation === operation).map((r) => r.id) : [];
}

/** Whether an entry's exchange can be rebuilt: the case it carried, or why it is left out. */
function rebuildable(entry: HarEntry): ReturnType<typeof caseOfEntry> {
  return bodyCut(entry) ? { why: `${BODY_CUT} in the HAR` } : caseOfEntry(entry);
}

/** Notes where an entry carrying a valid twin's input is, and its recorded verdict, when a rule judges its rebuilt exchange. */
function noteTwin(order: TwinOrder, entry: HarEntry, at: number): void {
  const input = entry._case?.input;
  if (!input) return;
  const rebuilt = rebuildable(entry);
  // Accepted as the rebuilt exchange would be (is2xx): an answer in 2xx, not a transport error.
  if ('testCase' in rebuilt && rebuilt.judged) order.add(input, at, !entry._error && entry.response.status >= 200 && entry.response.status < 300);
}

/** A re-judge as the entries come: each exchange rebuilt and judged in turn, nothing of it kept. */
class Rejudging {
  private readonly judge: StreamingEntryJudge;
  private readonly leftOut: HarRejudge['leftOut'] = [];
  private readonly cutRules = new Set<RuleId>();
  private readonly rememberedRules = new Set<RuleId>();
  private rebuilt = 0;

  constructor(fiatAccountIds: readonly string[], order: TwinOrder) {
    this.judge = new StreamingEntryJudge(fiatAccountIds, order);
  }

  entry(entry: HarEntry, at: number): void {
    const rebuilt = rebuildable(entry);
    if ('why' in rebuilt) {
      this.leftOut.push({ index: at, why: rebuilt.why });
      if (bodyCut(entry) && entry._case && !entry._case.restore) for (const id of rulesOfCutEntry(entry)) this.cutRules.add(id);
      this.judge.skip(at, entry._case?.input);
      return;
    }
    this.rebuilt++;
    this.judge.add({ exchange: recordedExchange(entry, rebuilt.testCase), at, judged: rebuilt.judged, links: twinLinksOf(entry) });
    if (isRememberedRepeat(rebuilt.testCase) && rebuilt.testCase.exercises) this.rememberedRules.add(rebuilt.testCase.exercises);
  }

  result(): HarRejudge {
    const notRejudged = [
      ...[...this.cutRules].map((id) => ({ id, why: BODY_CUT })),
      ...[...this.rememberedRules].filter((id) => !this.cutRules.has(id)).map((id) => ({ id, why: REMEMBERED_ELSEWHERE })),
    ];
    const skipped = new Set(notRejudged.map((r) => r.id));
    const rules = this.judge.finish().filter((r) => !skipped.has(r.id));
    return { rules, notRejudged, rebuilt: this.rebuilt, leftOut: this.leftOut };
  }
}

/**
 * Re-judges the recorded exchanges of a HAR's entries, in order; `fiatAccountIds` are the run's
 * pool (a report of a remote target names them; else the HAR's start reads do).
 */
export function rejudgeHar(entries: readonly HarEntry[], fiatAccountIds: readonly string[] = recordedPool(entries)): HarRejudge {
  const order = new TwinOrder();
  for (const [at, entry] of entries.entries()) noteTwin(order, entry, at);
  const rejudging = new Rejudging(fiatAccountIds, order);
  for (const [at, entry] of entries.entries()) rejudging.entry(entry, at);
  return rejudging.result();
}

/**
 * rejudgeHar over entries read as a stream (report/files/har-reader.ts), twice: where the valid
 * twins are (and the pool, when no accounts are given), then each entry judged in turn. Holds
 * one entry and what waits for a twin's entry, never the HAR (issue 33).
 */
export async function rejudgeHarStream(source: HarEntrySource, fiatAccountIds?: readonly string[]): Promise<HarRejudge> {
  const order = new TwinOrder();
  const pool = new RecordedPool();
  let at = 0;
  for await (const entry of source()) {
    noteTwin(order, entry, at++);
    if (!fiatAccountIds) pool.observe(entry);
  }
  const rejudging = new Rejudging(fiatAccountIds ?? pool.ids(), order);
  at = 0;
  for await (const entry of source()) rejudging.entry(entry, at++);
  return rejudging.result();
}

/** What the re-judge says of a rule, for the line of a disagreement. */
function saying(rule: ReplayedRule | undefined): string {
  if (!rule) return 'no recorded exchange judges it';
  if (rule.status === 'failed') {
    const where = rule.firstProblemAt !== undefined ? `entry ${rule.firstProblemAt}: ` : '';
    return `the recorded exchanges fail it (${where}${(rule.problems[0]?.message ?? '').split('\n')[0].slice(0, 160)})`;
  }
  if (rule.status === 'passed') return `the recorded exchanges pass it (${rule.cases} cases)`;
  return `a check crashed on the recorded exchanges (${rule.problems[0]?.message.split('\n')[0].slice(0, 160) ?? ''})`;
}

/**
 * The first rule whose status in the report disagrees with the re-judge, as one line, or
 * undefined: a failed rule must fail, a passed one pass, an inconclusive one not fail. Skipped
 * rules and those the HAR cannot judge again are left out.
 */
export function rejudgeDisagreement(report: Pick<ConformanceReport, 'rules'>, rejudged: HarRejudge): string | undefined {
  const byId = new Map(rejudged.rules.map((r) => [r.id as string, r]));
  const skip = new Set(rejudged.notRejudged.map((r) => r.id as string));
  for (const rule of report.rules) {
    if (skip.has(rule.id) || rule.status === 'skipped') continue;
    const again = byId.get(rule.id);
    if (!statusAgrees(rule.status, again?.status ?? 'not judged')) return `rule ${rule.id} says ${rule.status}, ${saying(again)}`;
  }
  return undefined;
}
