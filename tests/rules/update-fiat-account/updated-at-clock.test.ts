/** updated_at against the target's Date: what an update that changed a stored value must carry, and what is not judged. */
import { describe, expect, it } from 'vitest';
import { CLOCK_TOLERANCE_MS, ClockWitness } from '../../../src/rules/update-fiat-account/updated-at-clock.ts';
import { exchange, fiatAccountBody } from '../exchange-builders.ts';

const JSON_TYPE = { 'content-type': 'application/json' };
const names = (first_name: string) => ({ fiat_account_owner: { person_details: { first_name } } });

/** The answer to an update that sent first_name `sent`: it shows `shown` and `updatedAt`, with the Date `date` (none when undefined). */
function answer(sent: string | undefined, shown: string, updatedAt: string, date: string | undefined, status = 200) {
  const body = fiatAccountBody({ updated_at: updatedAt, fiat_account_owner: { person_details: { first_name: shown, last_name: 'Lovelace' } } });
  const headers = date === undefined ? JSON_TYPE : { ...JSON_TYPE, date };
  return exchange({ operation: 'updateFiatAccount', body: sent === undefined ? {} : names(sent) }, status, body, headers);
}

const messages = (w: ClockWitness, e: ReturnType<typeof answer>) => {
  const { judged, problems } = w.observe(e);
  return { judged, problems: problems.map((p) => p.message) };
};

describe('updated_at against the Date of the answer before', () => {
  it('passes an update stamped after the Date before it, and fails one stamped before it by more than the tolerance', () => {
    const w = new ClockWitness();
    expect(messages(w, answer('Katherine', 'Katherine', '2026-11-27T06:00:00.300Z', 'Fri, 27 Nov 2026 06:00:00 GMT'))).toEqual({ judged: false, problems: [] });
    expect(messages(w, answer('Dorothy', 'Dorothy', '2026-11-27T06:00:02.100Z', 'Fri, 27 Nov 2026 06:00:02 GMT'))).toEqual({ judged: true, problems: [] });
    const frozen = messages(w, answer('Mary', 'Mary', '2026-11-27T06:00:00.300Z', 'Fri, 27 Nov 2026 06:00:02 GMT'));
    expect(frozen.judged).toBe(true);
    expect(frozen.problems).toEqual([
      'updated_at 2026-11-27T06:00:00.300Z of an update that changed first_name to "Mary" is before the request: an answer received before it was sent had Date Fri, 27 Nov 2026 06:00:02 GMT (more than 1 s later than updated_at), so the update did not move it',
    ]);
  });

  it('leaves within the tolerance an updated_at stamped by a clock up to a second behind the Date (a front proxy ahead of the database)', () => {
    const w = new ClockWitness();
    w.observe(answer('Katherine', 'Katherine', '2026-11-27T06:00:00.000Z', 'Fri, 27 Nov 2026 06:00:05 GMT'));
    const late = messages(w, answer('Dorothy', 'Dorothy', new Date(Date.parse('2026-11-27T06:00:05Z') - CLOCK_TOLERANCE_MS).toISOString(), undefined));
    expect(late).toEqual({ judged: true, problems: [] });
  });

  it('passes a target whose Date lags its own stamps (a front proxy a second behind)', () => {
    const w = new ClockWitness();
    w.observe(answer('Katherine', 'Katherine', '2026-11-27T06:00:01.500Z', 'Fri, 27 Nov 2026 06:00:00 GMT'));
    expect(messages(w, answer('Dorothy', 'Dorothy', '2026-11-27T06:00:01.700Z', 'Fri, 27 Nov 2026 06:00:00 GMT'))).toEqual({ judged: true, problems: [] });
  });

  it('judges nothing without a Date before, on an update that changed nothing, or that the answer does not show', () => {
    const noDate = new ClockWitness();
    noDate.observe(answer('Katherine', 'Katherine', '2020-01-01T00:00:00Z', undefined));
    expect(messages(noDate, answer('Dorothy', 'Dorothy', '2020-01-01T00:00:00Z', undefined))).toEqual({ judged: false, problems: [] });

    const w = new ClockWitness();
    w.observe(answer('Katherine', 'Katherine', '2020-01-01T00:00:00Z', 'Fri, 27 Nov 2026 06:00:00 GMT'));
    // The same name again: a server may keep updated_at on a write that changes nothing.
    expect(messages(w, answer('Katherine', 'Katherine', '2020-01-01T00:00:00Z', 'Fri, 27 Nov 2026 06:00:00 GMT'))).toEqual({ judged: false, problems: [] });
    // The answer does not show the name sent: nothing says the update changed it.
    expect(messages(w, answer('Dorothy', 'Katherine', '2020-01-01T00:00:00Z', 'Fri, 27 Nov 2026 06:00:00 GMT'))).toEqual({ judged: false, problems: [] });
    // A refusal, then a 5xx (the account may have changed unseen): the next update has no answer before to compare with.
    expect(messages(w, answer('Mary', 'Katherine', '2020-01-01T00:00:00Z', 'Fri, 27 Nov 2026 06:00:00 GMT', 400))).toEqual({ judged: false, problems: [] });
    w.observe(answer('Mary', 'Katherine', '2020-01-01T00:00:00Z', 'Fri, 27 Nov 2026 06:00:00 GMT', 500));
    expect(messages(w, answer('Mary', 'Mary', '2020-01-01T00:00:00Z', 'Fri, 27 Nov 2026 06:00:00 GMT'))).toEqual({ judged: false, problems: [] });
  });

  it('does not judge an updated_at without an offset: it is read in no known time zone (fa.timestamps.rfc3339 judges its form)', () => {
    const w = new ClockWitness();
    w.observe(answer('Katherine', 'Katherine', '2026-11-27T06:00:00.300Z', 'Fri, 27 Nov 2026 06:00:02 GMT'));
    expect(messages(w, answer('Dorothy', 'Dorothy', '2026-11-27T04:00:03', 'Fri, 27 Nov 2026 06:00:03 GMT'))).toEqual({ judged: false, problems: [] });
  });

  it('waits after an answer until the next Date must be past its updated_at by the tolerance, and not when it already is', () => {
    const w = new ClockWitness();
    const first = answer('Katherine', 'Katherine', '2026-11-27T06:00:00.300Z', 'Fri, 27 Nov 2026 06:00:00 GMT');
    w.observe(first);
    // Past 06:00:01.300 (updated_at and the tolerance) by the next whole second: 06:00:02, two seconds after the Date.
    expect(w.waitBeforeNext(first.request.url)).toBe(2000);
    const old = new ClockWitness();
    old.observe(answer('Katherine', 'Katherine', '2026-11-20T06:00:00Z', 'Fri, 27 Nov 2026 06:00:00 GMT'));
    expect(old.waitBeforeNext(first.request.url)).toBe(0);
    const undated = new ClockWitness();
    undated.observe(answer('Katherine', 'Katherine', '2026-11-27T06:00:00.300Z', undefined));
    expect(undated.waitBeforeNext(first.request.url)).toBe(0);
  });
});
