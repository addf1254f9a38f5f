/** The model of a sequence: what each answer must show after what the sequence stored, and what it must not be blamed for. */
import { describe, expect, it } from 'vitest';
import { AccountModel, type AnswerJudgement } from '../../../../src/rules/update-fiat-account/sequences/account-model.ts';
import type { MetadataSemantics } from '../../../../src/rules/update-fiat-account/metadata-state.ts';
import { exchange, fiatAccountBody } from '../../exchange-builders.ts';

const JSON_TYPE = { 'content-type': 'application/json' };
const owner = (first_name: string, last_name = 'Lovelace') => ({ fiat_account_owner: { person_details: { first_name, last_name } } });

/** The answer an update got: the sample account with these names, metadata, timestamps and headers. */
function answer(
  request: Record<string, unknown>,
  shown: { names?: [string, string]; metadata?: Record<string, unknown>; body?: Record<string, unknown> },
  headers: Record<string, string> = JSON_TYPE,
) {
  const [first_name, last_name] = shown.names ?? ['Ada', 'Lovelace'];
  const body = fiatAccountBody({
    fiat_account_owner: { person_details: { first_name, last_name }, fiat_network_instructions: { status: 'PENDING', metadata: shown.metadata ?? {} } },
    ...shown.body,
  });
  return exchange({ operation: 'updateFiatAccount', body: request }, 200, body, headers);
}

const problems = (j: AnswerJudgement) => [...j.problems].flatMap(([rule, list]) => list.map((p) => `${rule}: ${p.message}`));

function model(accounts = 2, semantics: MetadataSemantics = 'replace') {
  return new AccountModel(accounts, () => semantics);
}

describe('a sequence model', () => {
  it('passes an account that shows what it was sent, and judges all three rules once two accounts were written', () => {
    const m = model();
    expect(problems(m.observe(0, answer(owner('Ada'), { names: ['Ada', 'Lovelace'] })))).toEqual([]);
    expect(problems(m.observe(1, answer(owner('Grace', 'Hopper'), { names: ['Grace', 'Hopper'] })))).toEqual([]);
    const read = m.observe(0, answer({}, { names: ['Ada', 'Lovelace'] }));
    expect(problems(read)).toEqual([]);
    expect([...read.judged].sort()).toEqual(['fa.sequence.isolation', 'fa.sequence.persisted', 'fa.sequence.timestamps']);
  });

  it('calls a value that only another account was sent a leak, and another value a lost update', () => {
    const m = model();
    m.observe(0, answer(owner('Ada'), { names: ['Ada', 'Lovelace'] }));
    m.observe(1, answer(owner('Grace', 'Hopper'), { names: ['Grace', 'Hopper'] }));
    expect(problems(m.observe(0, answer({}, { names: ['Grace', 'Lovelace'] })))).toEqual([
      'fa.sequence.isolation: account 1 shows fiat_account_owner.person_details.first_name "Grace", which only account 2 was sent (account 1 holds "Ada")',
    ]);
    expect(problems(m.observe(1, answer({}, { names: ['Grace', 'Turing'] })))).toEqual([
      'fa.sequence.persisted: fiat_account_owner.person_details.last_name stored "Hopper" by an earlier update and not sent since, now shows "Turing"',
    ]);
  });

  it('does not judge a field the answer leaves out, a field the update itself sent, or text in another normal form', () => {
    const m = model(1);
    m.observe(0, answer(owner('Zoë'), { names: ['Zoë', 'Lovelace'] }));
    const body = fiatAccountBody();
    delete body.fiat_account_owner;
    expect(problems(m.observe(0, exchange({ operation: 'updateFiatAccount', body: {} }, 200, body, JSON_TYPE)))).toEqual([]);
    expect(problems(m.observe(0, answer(owner('Max'), { names: ['Max', 'Lovelace'] })))).toEqual([]);
    expect(problems(m.observe(0, answer({}, { names: ['Max'.normalize('NFD'), 'Lovelace'] })))).toEqual([]);
  });

  it('keeps metadata pairs under replace until metadata is sent again, and every pair under merge', () => {
    const replace = model(1, 'replace');
    replace.observe(0, answer({ metadata: { a: '1' } }, { metadata: { a: '1' } }));
    replace.observe(0, answer({ metadata: { b: '2' } }, { metadata: { b: '2' } }));
    expect(problems(replace.observe(0, answer({}, { metadata: { b: '2' } })))).toEqual([]);
    expect(problems(replace.observe(0, answer({}, { metadata: { b: '3' } })))).toEqual([
      'fa.sequence.persisted: metadata pair "b" stored "2" by an earlier update and not sent since, now shows "3"',
    ]);

    const merge = model(1, 'merge');
    merge.observe(0, answer({ metadata: { a: '1' } }, { metadata: { a: '1' } }));
    expect(problems(merge.observe(0, answer({ metadata: { b: '2' } }, { metadata: { b: '2' } })))).toEqual([
      'fa.sequence.persisted: metadata pair "a" stored "1" by an earlier update and not sent since, now shows absent',
    ]);
  });

  it('takes an answer without any pair of the client as one that does not show metadata (a replace may clear it)', () => {
    const m = model(1);
    m.observe(0, answer({ metadata: { a: '1' } }, { metadata: { a: '1' } }));
    expect(problems(m.observe(0, answer({}, { metadata: { attempt: 3 } })))).toEqual([]);
  });

  it('forgets what it knew of an account after a 5xx, no answer, or a rejected review', () => {
    const m = model(1);
    m.observe(0, answer(owner('Ada'), { names: ['Ada', 'Lovelace'] }));
    m.observe(0, exchange({ operation: 'updateFiatAccount', body: owner('Max') }, 500, { error: 'internal' }));
    expect(problems(m.observe(0, answer({}, { names: ['Max', 'Lovelace'] })))).toEqual([]);
    m.observe(0, answer(owner('Ada'), { names: ['Ada', 'Lovelace'], body: { status: 'REJECTED' } }));
    expect(problems(m.observe(0, answer({}, { names: ['Max', 'Lovelace'] })))).toEqual([]);
  });

  it('holds created_at to one instant, updated_at to never going back, and a fresh update to the Date of its answer', () => {
    const m = model(1);
    const at = (created_at: string, updated_at: string, date?: string) =>
      answer({}, { body: { created_at, updated_at } }, date ? { ...JSON_TYPE, date } : JSON_TYPE);
    expect(problems(m.observe(0, at('2024-01-02T03:04:05Z', '2024-03-01T10:00:00Z')))).toEqual([]);
    expect(problems(m.observe(0, at('2024-01-02T03:04:05.000+00:00', '2024-03-01T10:00:00Z')))).toEqual([]);
    expect(problems(m.observe(0, at('2024-01-02T03:04:06Z', '2024-02-29T10:00:00Z')))).toEqual([
      'fa.sequence.timestamps: created_at changed from 2024-01-02T03:04:05Z to 2024-01-02T03:04:06Z between two updates',
      'fa.sequence.timestamps: updated_at went back from 2024-03-01T10:00:00Z to 2024-02-29T10:00:00Z after an update',
    ]);
    const fresh = model(1);
    expect(problems(fresh.observe(0, at('2024-01-02T03:04:05Z', '2024-03-01T09:58:00Z', 'Fri, 01 Mar 2024 10:00:00 GMT')))).toEqual([]);
    expect(problems(fresh.observe(0, at('2024-01-02T03:04:05Z', '2024-03-01T09:58:00Z', 'Fri, 01 Mar 2024 10:30:00 GMT')))).toEqual([
      "fa.sequence.timestamps: updated_at 2024-03-01T09:58:00Z of an account just updated is older than the answer's Date Fri, 01 Mar 2024 10:30:00 GMT by more than 5 minutes: the update did not move it",
    ]);
  });
});
