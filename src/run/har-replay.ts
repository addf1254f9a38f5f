/**
 * Replaying exchanges.har: every entry's request sent again, in the HAR's order, to a target (by
 * default a fresh embedded server, whose seeded fiat accounts have the ids the HAR's URLs hold),
 * and judged by the rules as the run judged it: every check (src/rules/judge.ts), the identities
 * created so far (id.distinct-identities, with the same precedence over the checks that compare
 * an answer with its request), the metadata state. Entries of the restore (`_case.restore`) and
 * the attempts sent again are re-sent but judged by no rule; the reachability check is not sent.
 *
 * Not re-judged, and said so: the rules their scenarios judge across several answers
 * (fa.sequence.*, id.ref-id.*-duplicate); the valid-twin precedence (a refusal whose twin was
 * refused too is judged here as a refusal); the open points' observed contract. A redacted HAR
 * (bundle --redact-personal) replays the same way: its stand-ins have the shape of the values.
 */
import type { TestCase, UnauthenticatedKind } from '../core/case.ts';
import { getRule, type RuleId } from '../core/catalogue.ts';
import type { Exchange } from '../core/exchange.ts';
import { matchOperationPath, OPERATIONS, type Operation } from '../core/operations.ts';
import { MetadataState } from '../engine/metadata-state.ts';
import { SCENARIOS, scenarioRules } from '../engine/scenarios.ts';
import type { HarEntry } from '../report/files/har.ts';
import type { ReportFailure } from '../report/model/model.ts';
import { recordedCase } from '../report/model/recorded-case.ts';
import type { Problem } from '../rules/check.ts';
import { CreatedIdentities } from '../rules/created-identities.ts';
import { judge } from '../rules/judge.ts';
import { comparesWithRequest } from '../rules/rule-facts.ts';
import type { RunConfig } from './run-config.ts';
import { UsageError } from '../core/errors.ts';
import { targetTransport } from './prepare-run.ts';
import { startTarget } from './target.ts';

/** The status of a rule from a replay: failed, passed (judged, no problem), error (a check crashed), or not judged by any entry. */
export type ReplayStatus = 'passed' | 'failed' | 'error' | 'not judged';

export interface ReplayedRule {
  id: RuleId;
  status: ReplayStatus;
  cases: number;
  problems: Problem[];
}

export interface HarReplay {
  rules: ReplayedRule[];
  /** The rules a HAR cannot judge again, each with why. */
  notRejudged: { id: RuleId; why: string }[];
  /** Entries sent again, and those left out with why (the reachability check, a body the HAR cut). */
  sent: number;
  leftOut: { index: number; why: string }[];
}

/** Rules judged by their scenario across several answers: a HAR entry alone does not judge them. */
export const NOT_REJUDGED: readonly { id: RuleId; why: string }[] = SCENARIOS.filter((s) => s.judgesItsRule).flatMap((s) =>
  scenarioRules(s).map((id) => ({ id, why: `judged by the scenario of ${s.rule} across several answers, not by one entry` })),
);

interface Tally {
  cases: number;
  problems: Problem[];
  crashed: boolean;
}

/** The body as the case sent it: JSON that prints back the same is a body, any other text is sent verbatim. */
function bodyOf(text: string | undefined): { body?: unknown; rawBody?: string } {
  if (text === undefined) return {};
  try {
    const body = JSON.parse(text) as unknown;
    if (JSON.stringify(body) === text) return { body };
  } catch {
    // Malformed on purpose: sent as it was.
  }
  return { rawBody: text };
}

/** The operation a request without a case went to (an attempt sent again), by its method and path. */
function operationOf(entry: HarEntry): Operation | undefined {
  const pathname = new URL(entry.request.url).pathname;
  return (Object.keys(OPERATIONS) as Operation[]).find((op) => OPERATIONS[op].method === entry.request.method && matchOperationPath(pathname, op));
}

/** The case of one HAR entry, or why it cannot be sent again. */
export function caseOfEntry(entry: HarEntry): { testCase: TestCase; judged: boolean } | { why: string } {
  if (entry.request.postData?.comment) return { why: 'its body was cut in the HAR' };
  const c = entry._case;
  const operation = c?.operation ?? operationOf(entry);
  if (!operation) return { why: entry.comment ?? 'no case and no operation of the document' };
  const failure = {
    case: { operation, label: c?.label ?? 'sent again', mode: c?.mode ?? 'valid', ...pick(c) },
    request: { method: entry.request.method, url: entry.request.url, headers: {}, ...bodyOf(entry.request.postData?.text) },
  } as unknown as ReportFailure;
  const rebuilt = recordedCase(failure);
  if ('problem' in rebuilt) return { why: rebuilt.problem };
  const testCase: TestCase = { ...rebuilt, ...(c?.restore ? { restore: c.restore } : {}), ...(c?.auth ? { auth: c.auth as UnauthenticatedKind } : {}) };
  return { testCase, judged: c !== undefined && c.restore === undefined };
}

const pick = (c: HarEntry['_case']) => ({
  ...(c?.violates ? { violates: c.violates } : {}),
  ...(c?.exercises ? { exercises: c.exercises } : {}),
  ...(c?.open ? { open: c.open } : {}),
  ...(c?.around ? { around: c.around } : {}),
  ...(c?.auth ? { auth: c.auth } : {}),
});

/** The fiat account a HAR entry's URL names, if any. */
function accountOf(entry: HarEntry): string | undefined {
  const rebuilt = caseOfEntry(entry);
  return 'testCase' in rebuilt ? rebuilt.testCase.fiatAccountId : undefined;
}

/**
 * The run's pool accounts, in the order the HAR first names them, paired with the target's: the
 * restore's start reads name the pool (else the accounts that answered a 2xx); a fresh embedded
 * server has as many accounts, with ids of its own. An id outside the pool (an unknown-id probe)
 * is sent as it was.
 */
function accountMap(entries: readonly HarEntry[], targetIds: readonly string[]): Map<string, string> {
  const startReads = entries.filter((e) => e._case?.restore === 'start-read');
  const naming = startReads.length ? startReads : entries.filter((e) => e.response.status >= 200 && e.response.status < 300);
  const pool = [...new Set(naming.map(accountOf).filter((id): id is string => id !== undefined))];
  if (pool.length > targetIds.length)
    throw new UsageError(`the HAR updates ${pool.length} fiat accounts and the target has ${targetIds.length}: give as many --fiat-account-id`);
  return new Map(pool.map((id, i) => [id, targetIds[i]]));
}

/** Judges one re-sent exchange as the run's exchange judge does, minus twins and open points (see the file's comment). */
function judgeEntry(exchange: Exchange, context: { fiatAccountIds: readonly string[]; metadata: MetadataState; created: CreatedIdentities }) {
  let judgements = judge(exchange, { fiatAccountIds: context.fiatAccountIds, mergeMayExceedLimit: (e) => context.metadata.mergeMayExceedLimit(e) });
  const distinct = exchange.testCase.around === undefined ? context.created.observe(exchange) : null;
  if (distinct) judgements.push({ rule: 'id.distinct-identities', problems: distinct });
  if (distinct?.length) judgements = judgements.filter((j) => !comparesWithRequest(j.rule));
  context.metadata.observe(exchange);
  return judgements;
}

/** Sends the HAR's entries again, in order, to the target of `config` (none: a fresh embedded server) and judges them. */
export async function replayHar(entries: readonly HarEntry[], config: RunConfig): Promise<HarReplay> {
  const target = await startTarget(config);
  try {
    const transport = targetTransport({ ...config, rateLimitPerSecond: config.rateLimitPerSecond, concurrency: 1 }, target);
    await transport.authenticate();
    const tallies = new Map<RuleId, Tally>();
    const context = { fiatAccountIds: target.fiatAccountIds, metadata: new MetadataState(), created: new CreatedIdentities() };
    const leftOut: HarReplay['leftOut'] = [];
    const accounts = accountMap(entries, target.fiatAccountIds);
    let sent = 0;
    for (const [index, entry] of entries.entries()) {
      const rebuilt = caseOfEntry(entry);
      if ('why' in rebuilt) {
        leftOut.push({ index, why: rebuilt.why });
        continue;
      }
      const recorded = rebuilt.testCase;
      const mapped = recorded.fiatAccountId !== undefined ? accounts.get(recorded.fiatAccountId) : undefined;
      const testCase = mapped ? { ...recorded, fiatAccountId: mapped } : recorded;
      const exchange = await transport.send(testCase, testCase.auth ? { auth: testCase.auth } : undefined);
      sent++;
      if (!rebuilt.judged) continue;
      for (const j of judgeEntry(exchange, context)) {
        const tally = tallies.get(j.rule) ?? { cases: 0, problems: [], crashed: false };
        tally.cases++;
        tally.problems.push(...j.problems);
        tally.crashed ||= j.crashed === true;
        tallies.set(j.rule, tally);
      }
    }
    const rules = [...tallies.entries()].map(
      ([id, t]): ReplayedRule => ({ id, status: t.crashed ? 'error' : t.problems.length ? 'failed' : 'passed', cases: t.cases, problems: t.problems }),
    );
    return { rules: rules.sort((a, b) => a.id.localeCompare(b.id)), notRejudged: [...NOT_REJUDGED], sent, leftOut };
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
    const agrees =
      rule.status === 'failed'
        ? status === 'failed'
        : rule.status === 'passed'
          ? status === 'passed'
          : rule.status === 'error'
            ? status === 'error'
            : status !== 'failed';
    if (!agrees) lines.push(`${rule.id} (${getRule(rule.id).section}): the report says ${rule.status}, the replay ${status}`);
  }
  return lines;
}
