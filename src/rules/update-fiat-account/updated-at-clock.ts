/**
 * `fa.updated-at.moves` (2.1, updated_at: "time of the most recent update of the record"): an
 * accepted update that changed a stored value carries an updated_at no earlier than the request,
 * as the target's own clock tells it. That clock is the Date header (RFC 9110 section 6.6.1:
 * whole seconds, truncated): an answer received before a request was sent, with Date D, proves
 * the target's clock read at least D when the request arrived, so the update's updated_at is at
 * least D. One judgement, shared by the live scenario and the judging of recorded exchanges.
 *
 * Not judged: an update that changed nothing (a server may keep updated_at on a no-op write, as
 * Rails does): changed means the account's previous answer showed another first_name than the one
 * sent and this answer shows the one sent; an update with no earlier answer carrying a Date (no
 * word of the target's clock); an answer without an RFC 3339 updated_at (the field is optional; one
 * without an offset is fa.timestamps.rfc3339's finding, and read in no known zone).
 */
import type { Exchange } from '../../core/exchange.ts';
import type { Problem } from '../check.ts';
import { dig, is2xx, isRfc3339, requestBody, sameText, successBody } from '../checks/exchange-facts.ts';

/**
 * How far updated_at may trail the Date before the request: the Date may come from a front proxy
 * or a web tier whose clock runs a little ahead of the database's that stamps updated_at. NTP keeps
 * such clocks well within a second of each other; a frozen updated_at trails by far more once the
 * scenario has waited (updated-at-scenario.ts).
 */
export const CLOCK_TOLERANCE_MS = 1000;

/** The Date header's granularity (RFC 9110 section 5.6.7: IMF-fixdate has whole seconds). */
const DATE_GRANULARITY_MS = 1000;

interface Instant {
  text: string;
  at: number;
}

/** What one answer showed of its account. */
interface Shown {
  firstName: unknown;
  updatedAt?: Instant;
}

export interface ClockJudgement {
  judged: boolean;
  problems: Problem[];
}

const NOT_JUDGED: ClockJudgement = { judged: false, problems: [] };

/** The answers of one run of the scenario, in the order they came back (its requests go one at a time). */
export class ClockWitness {
  /** The latest Date of the answers so far, as the target sent it and as an instant. */
  private latest?: Instant;
  /** Per account (the request's URL): what its last 2xx answer showed. */
  private readonly shown = new Map<string, Shown>();

  /** Judges the answer to one update against the answers before it, then learns from it. */
  observe(e: Exchange): ClockJudgement {
    const judgement = this.judge(e);
    const date = dateOf(e);
    if (date && (!this.latest || date.at > this.latest.at)) this.latest = date;
    const body = is2xx(e) ? successBody(e) : null;
    if (body) this.shown.set(e.request.url, { firstName: firstNameOf(body), updatedAt: stamp(body.updated_at) });
    else if (!e.response || e.response.status >= 500) this.shown.delete(e.request.url); // the account may have changed unseen
    return judgement;
  }

  /**
   * How long after the last answer to wait so that the next answer's Date is past the updated_at
   * the account last showed by more than the tolerance: then a later update judged against that Date
   * shows an updated_at that never moves. 0 when it already is, or nothing is known to wait for.
   */
  waitBeforeNext(url: string): number {
    const updatedAt = this.shown.get(url)?.updatedAt;
    if (!this.latest || !updatedAt) return 0;
    // The target's clock read at least the Date at the last answer; the next whole second past updated_at + tolerance is the goal.
    const goal = (Math.floor((updatedAt.at + CLOCK_TOLERANCE_MS) / DATE_GRANULARITY_MS) + 1) * DATE_GRANULARITY_MS;
    return Math.max(0, goal - this.latest.at);
  }

  private judge(e: Exchange): ClockJudgement {
    const before = this.shown.get(e.request.url);
    const body = is2xx(e) ? successBody(e) : null;
    const sent = dig(requestBody(e), 'fiat_account_owner', 'person_details', 'first_name');
    if (!body || !before || !this.latest || typeof sent !== 'string') return NOT_JUDGED;
    // Changed: the account showed another name before, and shows the one sent now.
    if (sameText(before.firstName, sent) || !sameText(firstNameOf(body), sent)) return NOT_JUDGED;
    const updated = stamp(body.updated_at);
    if (!updated) return NOT_JUDGED;
    const date = this.latest;
    if (updated.at >= date.at - CLOCK_TOLERANCE_MS) return { judged: true, problems: [] };
    return {
      judged: true,
      problems: [
        {
          message: `updated_at ${updated.text} of an update that changed first_name to ${JSON.stringify(sent)} is before the request: an answer received before it was sent had Date ${date.text} (more than ${CLOCK_TOLERANCE_MS / 1000} s later than updated_at), so the update did not move it`,
          instancePath: '/updated_at',
          kind: 'timestamp-order',
          params: { field: '/updated_at', received: updated.text, notBefore: date.text, toleranceMs: CLOCK_TOLERANCE_MS },
        },
      ],
    };
  }
}

const firstNameOf = (body: Record<string, unknown>): unknown => dig(body, 'fiat_account_owner', 'person_details', 'first_name');

function dateOf(e: Exchange): Instant | undefined {
  const text = e.response?.headers.date;
  return text === undefined ? undefined : instant(text);
}

/** An updated_at with its offset (RFC 3339): one without is read in no known zone (fa.timestamps.rfc3339's finding), so it is not judged. */
const stamp = (value: unknown): Instant | undefined => (isRfc3339(value) ? instant(value) : undefined);

function instant(value: unknown): Instant | undefined {
  if (typeof value !== 'string') return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : { text: value, at };
}
