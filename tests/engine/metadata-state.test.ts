/** What the harness knows of the accounts' metadata, without a server: recorded exchanges only. */
import { describe, expect, it } from 'vitest';
import type { TestCase } from '../../src/core/case.ts';
import { MetadataState } from '../../src/engine/metadata-state.ts';
import { exchange, fiatAccountBody } from '../rules/exchange-builders.ts';

const A = 'acc-a';

/** An update of account A answered 200 with `held` as the account's metadata (the nested placement). */
function answered(c: Partial<TestCase>, held: Record<string, string>) {
  const body = fiatAccountBody();
  const owner = body.fiat_account_owner as Record<string, Record<string, unknown>>;
  owner.fiat_network_instructions = { ...owner.fiat_network_instructions, metadata: held };
  return exchange({ operation: 'updateFiatAccount', fiatAccountId: A, ...c }, 200, body);
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
});
