/**
 * The case of one exchanges.har entry, rebuilt from its request and `_case` (the intent the run
 * recorded), and the run's pool of fiat accounts as the HAR names it: what a replay (har-replay.ts)
 * sends again and a re-judge (har-rejudge.ts) judges from the recorded answer.
 */
import type { TestCase } from '../core/case.ts';
import { matchOperationPath, OPERATIONS, type Operation } from '../core/operations.ts';
import type { HarEntry } from '../report/files/har.ts';
import type { ReportFailure } from '../report/model/model.ts';
import { recordedCase } from '../report/model/recorded-case.ts';

/** The body as the case sent it: JSON that prints back the same is a body, any other text is sent verbatim. */
export function bodyOf(text: string | undefined): { body?: unknown; rawBody?: string } {
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
  if (!URL.canParse(entry.request.url)) return undefined;
  const pathname = new URL(entry.request.url).pathname;
  return (Object.keys(OPERATIONS) as Operation[]).find((op) => OPERATIONS[op].method === entry.request.method && matchOperationPath(pathname, op));
}

/** What a HAR entry's `_case` says of its case beyond operation, label and mode. */
const intentFields = (c: HarEntry['_case']) => ({
  ...(c?.violates ? { violates: c.violates } : {}),
  ...(c?.exercises ? { exercises: c.exercises } : {}),
  ...(c?.open ? { open: c.open } : {}),
  ...(c?.combined ? { combined: c.combined } : {}),
  ...(c?.around ? { around: c.around } : {}),
  ...(c?.auth ? { auth: c.auth } : {}),
});

/** The case of one HAR entry, or why it cannot be sent again. */
export function caseOfEntry(entry: HarEntry): { testCase: TestCase; judged: boolean } | { why: string } {
  if (entry.request.postData?.comment) return { why: 'its body was cut in the HAR' };
  const c = entry._case;
  const operation = c?.operation ?? operationOf(entry);
  if (!operation) return { why: entry.comment ?? 'no case and no operation of the document' };
  const failure = {
    case: { operation, label: c?.label ?? 'sent again', mode: c?.mode ?? 'valid', ...intentFields(c) },
    // The headers tell the body-less JSON request (Content-Type, no body) from the missing body (recorded-case.ts).
    request: {
      method: entry.request.method,
      url: entry.request.url,
      headers: Object.fromEntries(entry.request.headers.map((h) => [h.name, h.value])),
      ...bodyOf(entry.request.postData?.text),
    },
  } as unknown as ReportFailure;
  const rebuilt = recordedCase(failure);
  if ('problem' in rebuilt) return { why: rebuilt.problem };
  return {
    testCase: { ...rebuilt, ...(c?.restore ? { restore: c.restore } : {}), ...(c?.sequence ? { sequence: c.sequence } : {}) },
    judged: c !== undefined && c.restore === undefined,
  };
}

/** The fiat account a HAR entry's URL names, if any. */
function accountOf(entry: HarEntry): string | undefined {
  const rebuilt = caseOfEntry(entry);
  return 'testCase' in rebuilt ? rebuilt.testCase.fiatAccountId : undefined;
}

/** The twin links an entry's `_case` carries (twin-link.ts): `twin` on a case refused with a valid twin, `input` on that twin. */
export function twinLinksOf(entry: HarEntry): { twin?: string; input?: string } {
  const { twin, input } = entry._case ?? {};
  return { ...(twin ? { twin } : {}), ...(input ? { input } : {}) };
}

/**
 * The run's pool accounts, in the order the HAR first names them: the restore's start reads name
 * the pool, else the accounts that answered a 2xx. Entries are observed one at a time (a HAR read
 * as a stream); only the account ids are kept.
 */
export class RecordedPool {
  private readonly startReads = new Set<string>();
  private readonly answered = new Set<string>();

  observe(entry: HarEntry): void {
    const startRead = entry._case?.restore === 'start-read';
    if (!startRead && (this.startReads.size || entry.response.status < 200 || entry.response.status >= 300)) return;
    const id = accountOf(entry);
    if (id !== undefined) (startRead ? this.startReads : this.answered).add(id);
  }

  ids(): string[] {
    return [...(this.startReads.size ? this.startReads : this.answered)];
  }
}

/** The run's pool accounts of a HAR's entries (RecordedPool). */
export function recordedPool(entries: readonly HarEntry[]): string[] {
  const pool = new RecordedPool();
  for (const entry of entries) pool.observe(entry);
  return pool.ids();
}
