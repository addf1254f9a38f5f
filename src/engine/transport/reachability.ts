/**
 * Is anything answering at the base URL? Asked once before a run. A flaky sandbox drops a
 * connection now and then: one bad answer must not end the run, so the question is asked again
 * after a pause before the target is called unreachable.
 */
import { UnreachableError } from '../../core/errors.ts';
import { displayUrl } from '../../core/url.ts';
import { USER_AGENT } from '../../core/version.ts';
import type { SentRecorder } from '../../core/exchange.ts';
import type { Outcome, Send } from './send.ts';
import { noAnswerReason } from './http-call.ts';

/** Pauses between attempts: three attempts over 1.5 s. */
export const REACHABILITY_DELAYS_MS: readonly number[] = [500, 1000];

/**
 * node's HTTP parser refused the answer (HPE_HEADER_OVERFLOW, HPE_UNEXPECTED_CONTENT_LENGTH,
 * HPE_INVALID_*): bytes came back, so a server is there; the run records such answers as
 * transport failures of the rules.
 */
export const brokeFraming = (outcome: Pick<Outcome, 'code'>): boolean => outcome.code?.startsWith('HPE_') ?? false;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Resolves on the first answer of any kind (a 404, a 500, a broken one); throws UnreachableError
 * when no attempt got one (refused, reset, timed out, unknown host). `record` hears every attempt:
 * the target received it (or was sent it), so exchanges.har keeps it beside the cases.
 */
export async function checkReachable(
  send: Send,
  baseUrl: string,
  delaysMs: readonly number[] = REACHABILITY_DELAYS_MS,
  wait: (ms: number) => Promise<void> = sleep,
  record: SentRecorder = () => undefined,
): Promise<void> {
  const request = { method: 'GET', url: `${baseUrl}/`, headers: { accept: 'application/json', 'user-agent': USER_AGENT } };
  for (let attempt = 0; ; attempt++) {
    const started = Date.now();
    const outcome = await send(request);
    record({
      unjudged: 'reachability-check',
      request: { method: request.method, url: request.url, headers: { ...request.headers } },
      ...(outcome.response ? { response: outcome.response } : {}),
      ...(outcome.error ? { error: outcome.error } : {}),
      startedAt: new Date(started).toISOString(),
      durationMs: Date.now() - started,
    });
    if (!outcome.error || brokeFraming(outcome)) return;
    if (attempt >= delaysMs.length) {
      const attempts = attempt + 1;
      const tried = attempts > 1 ? ` (${attempts} attempts)` : '';
      throw new UnreachableError(`cannot reach ${displayUrl(baseUrl)}: ${noAnswerReason({ ...outcome, error: outcome.error })}${tried}`);
    }
    await wait(delaysMs[attempt]);
  }
}
