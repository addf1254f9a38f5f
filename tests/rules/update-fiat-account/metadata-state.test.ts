/** What the harness knows of the accounts' metadata, without a server: recorded exchanges only. */
import { describe, expect, it } from 'vitest';
import type { TestCase } from '../../../src/core/case.ts';
import { MetadataState } from '../../../src/rules/update-fiat-account/metadata-state.ts';
import { exchange, fiatAccountBody } from '../exchange-builders.ts';

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

  it('keeps the 100-character key of a length case and reuses held keys for all the others', () => {
    const state = merging({ h1: 'a', h2: 'b', h3: 'c' });
    const metadata = { 'o-1': 'x', 'o-2': 'y', 'o-3': 'z', [longKey]: 'v' };
    expect(metadataOf(state.fitToAccount(atLength(metadata), A))).toEqual({ h1: 'x', h2: 'y', h3: 'z', [longKey]: 'v' });
    // A full account leaves no room for a new long key: the case goes as generated.
    const full = merging({ h1: 'a', h2: 'b', h3: 'c', h4: 'd', h5: 'e', h6: 'f' });
    const c = atLength({ [longKey]: 'v' });
    expect(full.fitToAccount(c, A)).toBe(c);
  });

  it('reuses held keys even where new ones would fit, and while merge is only possible; leaves replace and invalid cases alone', () => {
    const state = merging({ held: 'x' });
    expect(metadataOf(state.fitToAccount(sixPairs({ n1: '1', n2: '2' }), A))).toEqual({ held: '1', n2: '2' });
    const seven = update({ ...sixNew, n7: '7' }, { mode: 'invalid', violates: 'fa.metadata.over-pairs-rejected' });
    expect(state.fitToAccount(seven, A)).toBe(seven);
    // Not known yet whether the target merges: a key sent may stay, so the case is built as under merge.
    const unknown = new MetadataState();
    unknown.observe(answered({ body: {} }, { held: 'x' }));
    const c = sixPairs(sixNew);
    expect(unknown.semantics).toBe('unknown');
    expect(metadataOf(unknown.fitToAccount(c, A))).toEqual({ held: '1', n2: '2', n3: '3', n4: '4', n5: '5', n6: '6' });
    const replacing = new MetadataState();
    replacing.observe(answered({ body: { metadata: { p1: 'x' } } }, { p1: 'x' }));
    replacing.observe(answered({ body: { metadata: { p2: 'y' } } }, { p2: 'y' }));
    expect(replacing.semantics).toBe('replace');
    expect(replacing.fitToAccount(c, A)).toBe(c);
  });

  it('does not take a server key that comes back in every answer (its own counter) for a merge', () => {
    const state = new MetadataState();
    state.observe(answered({ body: {} }, { attempt: 1 as unknown as string }));
    state.observe(answered({ body: { metadata: { k1: 'v1' } } }, { attempt: 1 as unknown as string, k1: 'v1' }));
    expect(state.semantics).toBe('unknown');
    state.observe(answered({ body: { metadata: { k2: 'v2' } } }, { attempt: 1 as unknown as string, k2: 'v2' }));
    expect(state.semantics).toBe('replace');
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

  it('sends a case where it adds the fewest keys, a tie going to the account with the most room', () => {
    const state = merging({ h1: 'a', h2: 'b', h3: 'c', h4: 'd', h5: 'e', h6: 'f' });
    state.observe(answered({ body: {} }, { h1: 'a' }, 'acc-b'));
    const inTurn = () => 'next';
    const accountOf = (c: TestCase) => {
      const placed = state.place(c, [A, 'acc-b'], inTurn);
      return 'testCase' in placed ? placed.testCase.fiatAccountId : placed.unsent;
    };
    // Six held keys take all six pairs: nothing added on A, five on acc-b.
    expect(accountOf(sixPairs(sixNew))).toBe(A);
    // One pair adds nothing anywhere: the account with room left takes it.
    expect(accountOf(sixPairs({ n1: '1' }))).toBe('acc-b');
    // A new long key fits only where there is room for it.
    expect(accountOf(atLength({ 'o-1': 'x', [longKey]: 'v' }))).toBe('acc-b');
  });

  it('does not send a case whose own key fits on no account, and says which keys the accounts hold', () => {
    const state = merging({ h1: 'a', h2: 'b', h3: 'c', h4: 'd', h5: 'e', h6: 'f' });
    state.heldAtStart('acc-b', ['b1', 'b2', 'b3', 'b4', 'b5', longKey]);
    const placed = state.place(atLength({ [longKey.replace('é', 'a')]: 'v' }), [A, 'acc-b'], () => 'next');
    expect(placed).toEqual({ unsent: expect.stringContaining('no fiat account has room for the new metadata key') });
    const reason = (placed as { unsent: string }).unsent;
    expect(reason).toContain('the target merges metadata');
    expect(reason).toContain(`${A} holds "h1", "h2", "h3", "h4", "h5", "h6"`);
    expect(reason).toContain('acc-b holds "b1", "b2", "b3", "b4", "b5", "éééééééééééé…(100)"');
    // A long key the account already holds adds nothing: sent there, the rest on held keys.
    const held = state.place(atLength({ 'o-1': 'x', [longKey]: 'v' }), [A, 'acc-b'], () => 'next');
    expect(held).toEqual({ testCase: expect.objectContaining({ fiatAccountId: 'acc-b' }) });
    expect(metadataOf((held as { testCase: TestCase }).testCase)).toEqual({ b1: 'x', [longKey]: 'v' });
    // An account whose keys are unknown may have room: the case goes in turn, as generated.
    const c = atLength({ fresh: 'v', [longKey.replace('é', 'b')]: 'v' });
    expect(state.place(c, [A, 'acc-b', 'acc-c'], () => 'acc-c')).toEqual({ testCase: { ...c, fiatAccountId: 'acc-c' } });
  });

  it('builds on the keys held at the start, and remembers the keys the run added (not those refused)', () => {
    const state = new MetadataState();
    state.heldAtStart(A, ['a1', 'a2', 'a3']);
    expect(metadataOf(state.fitToAccount(sixPairs(sixNew), A))).toEqual({ a1: '1', a2: '2', a3: '3', n4: '4', n5: '5', n6: '6' });
    expect(state.addedKeys(A)).toEqual([]);
    state.observe(answered({ body: { metadata: { a1: 'x', n1: 'y' } } }, { a1: 'x', a2: 'b', a3: 'c', n1: 'y' }));
    expect(state.semantics).toBe('merge');
    // A refusal stored nothing; an update that got no answer may have stored its keys.
    state.observe(exchange({ operation: 'updateFiatAccount', fiatAccountId: A, body: { metadata: { r1: 'x' } } }, 400, { error: 'no' }));
    state.observe(exchange({ operation: 'updateFiatAccount', fiatAccountId: A, body: { metadata: { lost: 'x' } } }, 500, { error: 'internal' }));
    expect(state.addedKeys(A).sort()).toEqual(['lost', 'n1']);
    expect(state.addedKeys('acc-b')).toEqual([]);
  });

  it("in the sample's placement counts the client's top-level map only: the instructions' own map (the server's) takes no room", () => {
    const state = new MetadataState();
    state.heldAtStart(A, ['a1', 'a2', 'a3']);
    // The sample: client metadata at the top, the server's own map (a text entry, an integer counter) in the instructions.
    const sample = (metadata: Record<string, string>) => {
      const body = fiatAccountBody({ id: A });
      const owner = body.fiat_account_owner as Record<string, Record<string, unknown>>;
      owner.fiat_network_instructions = { ...owner.fiat_network_instructions, metadata: { source: 'sample', attempt: 1 } };
      return { ...body, metadata };
    };
    state.observe(
      exchange(
        { operation: 'updateFiatAccount', fiatAccountId: A, body: { metadata: { a1: 'x', k4: 'y' } } },
        200,
        sample({ a1: 'x', a2: 'b', a3: 'c', k4: 'y' }),
      ),
    );
    expect(state.semantics).toBe('merge');
    // Four client keys held: a 6-pair case fits (on all four, two keys added); counting source and attempt it would not.
    expect(metadataOf(state.fitToAccount(sixPairs(sixNew), A))).toEqual({ a1: '1', a2: '2', a3: '3', k4: '4', n5: '5', n6: '6' });
    expect(state.mergeMayExceedLimit(answered({ body: { metadata: { n5: '5', n6: '6' } } }, {}))).toBe(false);
  });

  it('without a start read, takes the start from the first answer to an update that sent no metadata', () => {
    const state = new MetadataState();
    state.observe(answered({ body: {} }, { s1: 'x' }));
    state.observe(answered({ body: { metadata: { k1: 'v' } } }, { s1: 'x', k1: 'v' }));
    expect(state.addedKeys(A)).toEqual(['k1']);
  });

  it('probes the semantics on keys an account holds, where it holds two, so that the probe adds no key', () => {
    const state = new MetadataState();
    state.heldAtStart(A, ['a1']);
    state.heldAtStart('acc-b', ['b1', 'b2', 'b3', 'b4', 'b5', 'b6']);
    expect(state.semanticsProbe([A, 'acc-b'])).toEqual({ accountId: 'acc-b', keys: ['b1', 'b2'] });
    // Fresh accounts: the first, with k1 and k2 (as before any account held keys).
    expect(new MetadataState().semanticsProbe([A, 'acc-b'])).toEqual({ accountId: A, keys: ['k1', 'k2'] });
    // One held key: it goes first; a server's own key is never sent.
    const one = new MetadataState();
    one.observe(answered({ body: {} }, { attempt: 1 as unknown as string, h1: 'a' }));
    expect(one.semanticsProbe([A])).toEqual({ accountId: A, keys: ['h1', 'k1'] });
  });
});
