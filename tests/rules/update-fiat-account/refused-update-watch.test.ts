/**
 * What a refused update left behind, as the watch judges it (live and from recorded exchanges
 * alike): the next accepted answer shows none of the refused body's values that differ from
 * before; what it does not show, or what the watch cannot see, judges nothing and says why.
 */
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../../src/core/exchange.ts';
import { RefusedUpdateWatch, REFUSED_UPDATE_RULE } from '../../../src/rules/update-fiat-account/refused-update-watch.ts';
import { exchange, fiatAccountBody } from '../exchange-builders.ts';

const names = (first_name: string, last_name = 'Curie') => ({ fiat_account_owner: { person_details: { first_name, last_name } } });
const answer = (first: string, metadata: Record<string, unknown> = { note: 'x' }) => {
  const body = fiatAccountBody();
  const owner = body.fiat_account_owner as Record<string, Record<string, unknown>>;
  owner.person_details = { first_name: first, last_name: 'Curie' };
  owner.fiat_network_instructions = { ...owner.fiat_network_instructions, metadata };
  return body;
};

const step = (body: Record<string, unknown>, status: number, response: unknown, refused = false): Exchange =>
  exchange(
    { operation: 'updateFiatAccount', mode: refused ? 'invalid' : 'valid', exercises: REFUSED_UPDATE_RULE, label: refused ? 'refused update' : 'update', body },
    status,
    response,
  );

const REFUSED_BODY = { ...names('Lise', 'Meitner'), metadata: { 'refused-k1': 'refused-v1', ['k'.repeat(101)]: 'v' } };

function watched(...exchanges: Exchange[]) {
  const watch = new RefusedUpdateWatch();
  return exchanges.flatMap((e) => watch.observe(e));
}

describe('a refused update writes nothing', () => {
  it('passes when the answer after the refusal shows what the account held', () => {
    const [seen] = watched(step(names('Marie'), 200, answer('Marie')), step(REFUSED_BODY, 400, { error: 'x' }, true), step({}, 200, answer('Marie')));
    expect(seen).toMatchObject({ problems: [] });
  });

  it('fails on an owner name only the refused update sent, and on a metadata pair of it', () => {
    const [seen] = watched(
      step(names('Marie'), 200, answer('Marie')),
      step(REFUSED_BODY, 422, { error: 'x' }, true),
      step({}, 200, answer('Lise', { note: 'x', 'refused-k1': 'refused-v1' })),
    );
    expect('problems' in seen && seen.problems.map((p) => p.params)).toEqual([
      { field: '/fiat_account_owner/person_details/first_name', expected: 'Marie', received: 'Lise' },
      { field: '/metadata', expected: null, received: 'refused-v1' },
    ]);
    expect('problems' in seen && seen.problems[0].message).toMatch(
      /refused update was refused \(HTTP 422\), yet the account now shows owner first_name "Lise"/,
    );
  });

  it('does not count a value the account held before the refusal', () => {
    const [seen] = watched(step(names('Lise'), 200, answer('Lise')), step(REFUSED_BODY, 400, {}, true), step({}, 200, answer('Lise')));
    // first_name held before, last_name Curie still: judged by the last name, no problem.
    expect(seen).toMatchObject({ problems: [] });
  });

  it('says why when the target accepts the over-limit update, answers it with a 5xx, or shows nothing after it', () => {
    expect(watched(step(names('Marie'), 200, answer('Marie')), step(REFUSED_BODY, 200, answer('Lise'), true))).toEqual([
      { notJudged: expect.stringMatching(/refused update was accepted, though section 8 refuses it/) },
    ]);
    expect(watched(step(names('Marie'), 200, answer('Marie')), step(REFUSED_BODY, 500, {}, true), step({}, 200, answer('Lise')))).toEqual([
      { notJudged: expect.stringMatching(/got HTTP 500, not a refusal/) },
    ]);
    const bare = { id: 'x', created_at: '2024-01-02T03:04:05Z' };
    expect(watched(step(names('Marie'), 200, answer('Marie')), step(REFUSED_BODY, 400, {}, true), step({}, 200, bare))).toEqual([
      { notJudged: expect.stringMatching(/showed neither their owner names nor any metadata pair/) },
    ]);
    expect(watched(step(names('Marie'), 400, {}), step(REFUSED_BODY, 400, {}, true), step({}, 200, answer('Lise')))).toEqual([
      { notJudged: expect.stringMatching(/no answer before the refused update/) },
    ]);
  });

  it('takes a GET answered with the account as the next answer, and passes over one the target does not answer', () => {
    const get = (status: number, response: unknown) =>
      exchange(
        { operation: 'updateFiatAccount', mode: 'valid', around: 'fa.other-methods-refused', method: 'GET', exercises: REFUSED_UPDATE_RULE, label: 'GET' },
        status,
        response,
      );
    const [seen] = watched(step(names('Marie'), 200, answer('Marie')), step(REFUSED_BODY, 400, {}, true), get(200, answer('Lise')));
    expect('problems' in seen && seen.problems.map((p) => p.instancePath)).toEqual(['/fiat_account_owner/person_details/first_name']);
    // No GET on the target (405): the empty update after it judges.
    const later = watched(step(names('Marie'), 200, answer('Marie')), step(REFUSED_BODY, 400, {}, true), get(405, {}), step({}, 200, answer('Marie')));
    expect(later).toEqual([{ problems: [], exchange: expect.anything() }]);
  });

  it('leaves alone exchanges of other cases', () => {
    const other = exchange({ operation: 'updateFiatAccount', mode: 'invalid', label: 'x', body: REFUSED_BODY }, 400, {});
    expect(watched(step(names('Marie'), 200, answer('Marie')), other, step({}, 200, answer('Lise')))).toEqual([]);
  });
});
