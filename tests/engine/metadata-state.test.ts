/** What the harness knows of the accounts' metadata, without a server: recorded exchanges only. */
import { describe, expect, it } from 'vitest';
import type { TestCase } from '../../src/core/case.ts';
import { MetadataState } from '../../src/engine/metadata-state.ts';
import { exchange, fiatAccountBody } from '../rules/exchange-builders.ts';

const A = 'acc-a';

/** An update of account A answered 200 with `held` as the account's metadata (the nested placement). */
function answered(c: Partial<TestCase>, held: Record<string, string>, account = A) {
  const body = fiatAccountBody({ id: account });
  const owner = body.fiat_account_owner as Record<string, Record<string, unknown>>;
  owner.fiat_network_instructions = { ...owner.fiat_network_instructions, metadata: held };
  return exchange({ operation: 'updateFiatAccount', fiatAccountId: account, ...c }, 200, body);
}

/** A state that knows account A merges and holds `held`. */
function merging(held: Record<string, string>): MetadataState {
  const state = new MetadataState();
  state.observe(answered({ body: { metadata: { p1: 'x' } } }, { p1: 'x' }));
  state.observe(answered({ body: { metadata: { p2: 'y' } } }, { p1: 'x', p2: 'y' }));
  expect(state.semantics).toBe('merge');
  state.observe(answered({ body: {} }, held));
  return state;
}

const sixNew = { n1: '1', n2: '2', n3: '3', n4: '4', n5: '5', n6: '6' };
const update = (metadata: unknown, extra: Partial<TestCase> = {}): TestCase => ({
  operation: 'updateFiatAccount',
  mode: 'valid',
  label: 'u',
  body: { fiat_account_owner: { person_details: { first_name: 'Ada' } }, metadata },
  ...extra,
});
const sixPairs = (metadata: unknown) => update(metadata, { mode: 'boundary', exercises: 'fa.metadata.max-pairs-accepted' });
const longKey = 'é'.repeat(100);
const atLength = (metadata: unknown) => update(metadata, { mode: 'boundary', exercises: 'fa.metadata.max-length-accepted' });
const metadataOf = (c: TestCase) => (c.body as { metadata: Record<string, string> }).metadata;

describe('MetadataState', () => {
  it('learns the keys an account holds from an invalid update the target accepted', () => {
    const state = merging({ a: '1' });
    // Seven pairs accepted (a faulty target that keeps six): the account now holds what the answer shows.
    const seven = { ...sixNew, n7: '7' };
    const kept = { a: '1', n1: '1', n2: '2', n3: '3', n4: '4', n5: '5' };
    state.observe(answered({ mode: 'invalid', violates: 'fa.metadata.over-pairs-rejected', body: { metadata: seven } }, kept));
    expect(state.mergeMayExceedLimit(answered({ body: { metadata: { fresh: 'v' } } }, {}))).toBe(true);
    expect(state.mergeMayExceedLimit(answered({ body: { metadata: { n1: 'v' } } }, {}))).toBe(false);
  });

  it('ignores an answer that is not JSON', () => {
    const state = merging({ a: '1' });
    state.observe(exchange({ operation: 'updateFiatAccount', fiatAccountId: A, body: { metadata: sixNew } }, 200, '<html>'));
    expect(state.mergeMayExceedLimit(answered({ body: { metadata: { b: '1' } } }, {}))).toBe(false);
  });

  it('fits a 6-pair case to an account that holds one key: the held key replaces the first new key, the values stay', () => {
    const state = merging({ held: 'x' });
    const fitted = state.fitToAccount(sixPairs(sixNew), A);
    expect(metadataOf(fitted)).toEqual({ held: '1', n2: '2', n3: '3', n4: '4', n5: '5', n6: '6' });
    // The rest of the body and of the case is unchanged.
    expect((fitted.body as Record<string, unknown>).fiat_account_owner).toEqual({ person_details: { first_name: 'Ada' } });
    expect(fitted).toMatchObject({ mode: 'boundary', exercises: 'fa.metadata.max-pairs-accepted', label: 'u' });
  });

  it('swaps only as many keys as the held ones take, and keeps keys the account already holds', () => {
    const state = merging({ n1: 'a', h1: 'b', h2: 'c' });
    expect(metadataOf(state.fitToAccount(sixPairs(sixNew), A))).toEqual({ n1: '1', h1: '2', h2: '3', n4: '4', n5: '5', n6: '6' });
    const full = merging({ h1: 'a', h2: 'b', h3: 'c', h4: 'd', h5: 'e', h6: 'f' });
    expect(Object.keys(metadataOf(full.fitToAccount(sixPairs(sixNew), A)))).toEqual(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
  });

  it('keeps the 100-character key of a length case and reuses held keys for the others', () => {
    const state = merging({ h1: 'a', h2: 'b', h3: 'c' });
    const metadata = { 'o-1': 'x', 'o-2': 'y', 'o-3': 'z', [longKey]: 'v' };
    expect(metadataOf(state.fitToAccount(atLength(metadata), A))).toEqual({ h1: 'x', 'o-2': 'y', 'o-3': 'z', [longKey]: 'v' });
    // A full account leaves no room for a new long key: the case goes as generated.
    const full = merging({ h1: 'a', h2: 'b', h3: 'c', h4: 'd', h5: 'e', h6: 'f' });
    const c = atLength({ [longKey]: 'v' });
    expect(full.fitToAccount(c, A)).toBe(c);
  });

  it('leaves a case alone when it fits, when the target replaces or is not known to merge, and when it is invalid', () => {
    const state = merging({ held: 'x' });
    const fits = sixPairs({ n1: '1', n2: '2' });
    expect(state.fitToAccount(fits, A)).toBe(fits);
    const seven = update({ ...sixNew, n7: '7' }, { mode: 'invalid', violates: 'fa.metadata.over-pairs-rejected' });
    expect(state.fitToAccount(seven, A)).toBe(seven);
    const unknown = new MetadataState();
    unknown.observe(answered({ body: {} }, { held: 'x' }));
    const c = sixPairs(sixNew);
    expect(unknown.fitToAccount(c, A)).toBe(c);
    const replacing = new MetadataState();
    replacing.observe(answered({ body: { metadata: { p1: 'x' } } }, { p1: 'x' }));
    replacing.observe(answered({ body: { metadata: { p2: 'y' } } }, { p2: 'y' }));
    expect(replacing.semantics).toBe('replace');
    expect(replacing.fitToAccount(c, A)).toBe(c);
  });

  it('never sends a key whose value the server keeps as no string (its own counter)', () => {
    const state = merging({});
    state.observe(answered({ body: {} }, { attempt: 1 as unknown as string, h1: 'a' }));
    // Two held keys, one the server's (it still counts): the client key is reused, the counter is not.
    const fiveNew = { n1: '1', n2: '2', n3: '3', n4: '4', n5: '5' };
    expect(metadataOf(state.fitToAccount(update(fiveNew), A))).toEqual({ h1: '1', n2: '2', n3: '3', n4: '4', n5: '5' });
    state.observe(answered({ body: {} }, { attempt: 1 as unknown as string, h1: 'a', h2: 'b', h3: 'c', h4: 'd', h5: 'e' }));
    const c = sixPairs(sixNew);
    expect(state.fitToAccount(c, A)).toBe(c);
  });

  it('sends a case that fits nowhere as sent to the fullest account where it fits once fitted', () => {
    const state = merging({ h1: 'a', h2: 'b', h3: 'c', h4: 'd', h5: 'e', h6: 'f' });
    state.observe(answered({ body: {} }, { h1: 'a' }, 'acc-b'));
    const inTurn = () => 'next';
    expect(state.accountFor(sixPairs(sixNew), [A, 'acc-b'], inTurn)).toBe(A);
    // One that fits as sent goes where it adds the fewest keys, unchanged.
    expect(state.accountFor(sixPairs({ n1: '1' }), [A, 'acc-b'], inTurn)).toBe('acc-b');
    // A new long key fits only where there is room for it.
    expect(state.accountFor(atLength({ 'o-1': 'x', [longKey]: 'v' }), [A, 'acc-b'], inTurn)).toBe('acc-b');
  });
});
