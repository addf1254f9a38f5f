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
import type { HarEntry, HarHeader } from '../report/files/har.ts';
import type { ConformanceReport } from '../report/model/model.ts';
import { bodyOf, caseOfEntry, recordedPool, twinLinksOf } from './har-case.ts';
import { type EntryExchange, judgeEntryExchanges, type ReplayedRule, statusAgrees } from './har-judge.ts';
import { isRememberedRepeat } from '../rules/create-identity/remembered-identities.ts';

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

/**
 * Re-judges the recorded exchanges of a HAR's entries, in order; `fiatAccountIds` are the run's
 * pool (a report of a remote target names them; else the HAR's start reads do).
 */
export function rejudgeHar(entries: readonly HarEntry[], fiatAccountIds: readonly string[] = recordedPool(entries)): HarRejudge {
  const exchanges: EntryExchange[] = [];
  const leftOut: HarRejudge['leftOut'] = [];
  const cutRules = new Set<RuleId>();
  const rememberedRules = new Set<RuleId>();
  for (const [at, entry] of entries.entries()) {
    const rebuilt = caseOfEntry(entry);
    if (bodyCut(entry)) {
      leftOut.push({ index: at, why: `${BODY_CUT} in the HAR` });
      if (entry._case && !entry._case.restore) for (const id of rulesOfCutEntry(entry)) cutRules.add(id);
    } else if ('why' in rebuilt) leftOut.push({ index: at, why: rebuilt.why });
    else {
      exchanges.push({ exchange: recordedExchange(entry, rebuilt.testCase), at, judged: rebuilt.judged, links: twinLinksOf(entry) });
      if (isRememberedRepeat(rebuilt.testCase) && rebuilt.testCase.exercises) rememberedRules.add(rebuilt.testCase.exercises);
    }
  }
  const notRejudged = [
    ...[...cutRules].map((id) => ({ id, why: BODY_CUT })),
    ...[...rememberedRules].filter((id) => !cutRules.has(id)).map((id) => ({ id, why: REMEMBERED_ELSEWHERE })),
  ];
  const skipped = new Set(notRejudged.map((r) => r.id));
  const rules = judgeEntryExchanges(exchanges, fiatAccountIds).filter((r) => !skipped.has(r.id));
  return { rules, notRejudged, rebuilt: exchanges.length, leftOut };
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
