/** The account pool, without a server: the one place that gives updates their fiat account. */
import { describe, expect, it } from 'vitest';
import type { TestCase } from '../../src/core/case.ts';
import { AccountPool, onAccount, usesPool } from '../../src/engine/account-pool.ts';
import { caseFamilies } from '../../src/rules/cases/families.ts';
import { MetadataState } from '../../src/rules/update-fiat-account/metadata-state.ts';

const POOL = ['acc-a', 'acc-b', 'acc-c'];
const update = (body: unknown = {}): TestCase => ({ operation: 'updateFiatAccount', mode: 'valid', label: 'u', body });
const create: TestCase = { operation: 'createIdentity', mode: 'valid', label: 'c', body: {} };

describe('AccountPool', () => {
  it('gives updates without an id the accounts in turn while the semantics are unknown, and leaves creates and own ids alone', () => {
    const pool = new AccountPool(POOL, new MetadataState(), caseFamilies());
    expect([1, 2, 3, 4].map(() => pool.assign(update()).fiatAccountId)).toEqual(['acc-a', 'acc-b', 'acc-c', 'acc-a']);
    expect(pool.assign(create)).toBe(create);
    const own = { ...update(), fiatAccountId: 'unknown-id' };
    expect(pool.assign(own)).toBe(own);
  });

  it('plans no account before the semantics are known (replace); then each family counts from where it stands in the list', () => {
    const families = caseFamilies();
    const pool = new AccountPool(POOL, new MetadataState(), families);
    expect(pool.planned(families[0], update())).toBeUndefined();
    pool.inPlanOrder = true;
    const second = families[1];
    const turns = [1, 2, 3].map(() => pool.planned(second, update()));
    expect(turns).toEqual([POOL[1 % 3], POOL[2 % 3], POOL[3 % 3]]);
    // Another family's turns are its own: the first family starts at the first account.
    expect(pool.planned(families[0], update())).toBe(POOL[0]);
    // A create needs no account, nor an update with an id of its own.
    expect(pool.planned(second, create)).toBeUndefined();
    expect(pool.planned(second, { ...update(), fiatAccountId: 'x' })).toBeUndefined();
  });

  it('a case uses the pool when it or its twin is an update without an id; onAccount places only such updates', () => {
    const invalid: TestCase = { ...update(), fiatAccountId: 'malformed', control: update() };
    expect(usesPool(update())).toBe(true);
    expect(usesPool(create)).toBe(false);
    expect(usesPool(invalid)).toBe(true);
    expect(onAccount(update(), 'acc-b').fiatAccountId).toBe('acc-b');
    expect(onAccount(create, 'acc-b')).toBe(create);
    expect(onAccount(update(), undefined).fiatAccountId).toBeUndefined();
  });
});
