/**
 * Is anything answering at the base URL? Asked once before a run. A flaky sandbox drops a
 * connection now and then: one bad answer must not end the run, so the question is asked again
 * after a pause before the target is called unreachable. Once answered, it is asked once more on
 * the connection the first answer opened: that round trip, not the first (which paid for opening
 * the connection, TCP and TLS), is the one the run's time estimate uses.
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

/** The reachability check's requests: the first answered one and the warm one after it. */
export const REACHABILITY_ASKS = 2;

/**
 * Resolves on the first answer of any kind (a 404, a 500, a broken one), with the round trip of a
 * second ask on the open connection (the first's, if the second got no answer); throws
 * UnreachableError when no attempt got one (refused, reset, timed out, unknown host). `record`
 * hears every attempt: the target received it (or was sent it), so exchanges.har keeps it beside
 * the cases. `now`: the clock the round trips are read on.
 */
export async function checkReachable(
  send: Send,
  baseUrl: string,
  delaysMs: readonly number[] = REACHABILITY_DELAYS_MS,
  wait: (ms: number) => Promise<void> = sleep,
  record: SentRecorder = () => undefined,
  now: () => number = Date.now,
): Promise<{ roundTripMs: number }> {
  const request = { method: 'GET', url: `${baseUrl}/`, headers: { accept: 'application/json', 'user-agent': USER_AGENT } };
  const ask = async () => {
    const started = now();
    const outcome = await send(request);
    const durationMs = now() - started;
    record({
      unjudged: 'reachability-check',
      request: { method: request.method, url: request.url, headers: { ...request.headers } },
      ...(outcome.response ? { response: outcome.response } : {}),
      ...(outcome.error ? { error: outcome.error } : {}),
      startedAt: new Date(started).toISOString(),
      durationMs,
    });
    return { outcome, durationMs, answered: !outcome.error || brokeFraming(outcome) };
  };
  for (let attempt = 0; ; attempt++) {
    const first = await ask();
    if (first.answered) {
      const warm = await ask();
      return { roundTripMs: warm.answered ? warm.durationMs : first.durationMs };
    }
    if (attempt >= delaysMs.length) {
      const attempts = attempt + 1;
      const tried = attempts > 1 ? ` (${attempts} attempts)` : '';
      throw new UnreachableError(`cannot reach ${displayUrl(baseUrl)}: ${noAnswerReason({ ...first.outcome, error: first.outcome.error! })}${tried}`);
    }
    await wait(delaysMs[attempt]);
  }
}
