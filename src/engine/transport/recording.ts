/**
 * The top of the stack: turns a test case into a request (document section 4) and what came back
 * into the Exchange the checks judge. The target's misbehaviour, and any failure to send, is
 * recorded, never thrown; only a RunStop from below (no token mid-run) passes through.
 */
import type { TestCase, UnauthenticatedKind } from '../../core/case.ts';
import { bodyText, type Exchange, type RecordedRequest, type SentRecorder, type UnjudgedExchange } from '../../core/exchange.ts';
import { OPERATIONS, operationUrl } from '../../core/operations.ts';
import { USER_AGENT } from '../../core/version.ts';
import type { Outcome, Request, Send } from './send.ts';
import { RunStop } from '../run-stop.ts';

export type SendCase = (testCase: TestCase, options?: { auth?: UnauthenticatedKind }) => Promise<Exchange>;

/** `record` hears every request that went on the wire (exchanges.har): the exchange, and the attempts sent again before it. */
export function recording(baseUrl: string, record: SentRecorder = () => undefined): (next: Send) => SendCase {
  return (next) => async (testCase, options) => {
    const started = Date.now();
    // A case about HTTP around the operation may go with another method (docs/design.md section 2).
    const method = testCase.method ?? OPERATIONS[testCase.operation].method;
    const url = operationUrl(baseUrl, testCase);
    const finish = (request: RecordedRequest, result: Pick<Outcome, 'response' | 'error' | 'tokenGeneration'>): Exchange => ({
      testCase,
      request,
      ...(result.response ? { response: result.response } : {}),
      ...(result.error ? { error: result.error } : {}),
      ...(result.tokenGeneration !== undefined ? { tokenGeneration: result.tokenGeneration } : {}),
      startedAt: new Date(started).toISOString(),
      durationMs: Date.now() - started,
    });
    let outcome: Outcome;
    // Copies that went on the wire: one a 429 waited out or a 401 before a renewal, one the last.
    let wired = 0;
    try {
      outcome = await next({ ...caseRequest(testCase, method, url, options?.auth ?? testCase.auth), onWire: () => wired++ });
    } catch (error) {
      // A run that must stop (the token endpoint failed) stops; nothing is recorded for this case.
      if (error instanceof RunStop) throw error;
      // A body JSON cannot hold (a BigInt) or a bug of ours: recorded, not thrown.
      return finish({ method, url, headers: {} }, { error: { kind: 'other', message: `the request could not be sent: ${(error as Error).message}` } });
    }
    // The headers as the last request carried them (credentials already redacted by bearerAuth);
    // the body as the case holds it, so the record shows JSON, not its serialization.
    const body = testCase.rawBody !== undefined ? { rawBody: testCase.rawBody } : testCase.body !== undefined ? { body: testCase.body } : {};
    const recorded = (o: Outcome): RecordedRequest => ({ method: o.request.method, url: o.request.url, headers: { ...o.request.headers }, ...body });
    const exchange = finish(recorded(outcome), outcome);
    // Attempts sent again: kept beside the exchange (exchanges.har, the count), judged by no rule.
    const resent = (outcome.earlier ?? []).map(
      (o): UnjudgedExchange => ({
        unjudged: 'sent-again',
        request: recorded(o),
        ...(o.response ? { response: o.response } : {}),
        ...(o.error ? { error: o.error } : {}),
        ...(o.tokenGeneration !== undefined ? { tokenGeneration: o.tokenGeneration } : {}),
        startedAt: o.startedAt ?? exchange.startedAt,
        durationMs: o.durationMs ?? 0,
      }),
    );
    for (const attempt of resent) record(attempt);
    // The last copy may never have gone (the run was interrupted while it waited for its slot).
    if (wired > resent.length) record(exchange);
    return resent.length ? { ...exchange, resent } : exchange;
  };
}

/**
 * The request a case makes; throws when its body cannot be serialized. A case without a body
 * (the missing-body case, a GET) goes without Content-Type, unless it is the body-less JSON
 * request; an empty raw body keeps it.
 */
function caseRequest(testCase: TestCase, method: string, url: string, auth: Request['auth']): Request {
  const body = bodyText(testCase);
  const json = body !== undefined || testCase.bodylessJson === true;
  return {
    method,
    url,
    headers: { ...(json ? { 'content-type': 'application/json' } : {}), accept: 'application/json', 'user-agent': USER_AGENT },
    ...(body !== undefined ? { body } : {}),
    ...(auth ? { auth } : {}),
  };
}
