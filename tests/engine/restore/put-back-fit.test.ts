/** An update fitted to what the restore can put back: no value on a field the account showed empty at the start. */
import { describe, expect, it } from 'vitest';
import type { TestCase } from '../../../src/core/case.ts';
import { accountState } from '../../../src/engine/restore/account-state.ts';
import { fitToPutBack, unrestorableSubject } from '../../../src/engine/restore/put-back-fit.ts';

const ADDRESS = { country: 'USA', address1: '100 Main Street', address2: '', city: 'Springfield', province: 'IL', zip_code: '62701' };

/** An account as the sample nests it: the instructions inside the owner, address2 empty. */
const nested = (address2 = '') =>
  accountState({
    id: 'a1',
    fiat_account_owner: {
      person_details: { first_name: 'Ada', last_name: 'Lovelace' },
      fiat_network_instructions: {
        wire: { account_number: '1000000000', fiat_account_owner_address: { ...ADDRESS, address2 }, routing_details: { routing_number: '021000021' } },
        metadata: {},
      },
    },
  });

const update = (body: unknown, more: Partial<TestCase> = {}): TestCase => ({
  operation: 'updateFiatAccount',
  mode: 'valid',
  label: 'an update',
  fiatAccountId: 'a1',
  body,
  ...more,
});
const addressUpdate = (address2: unknown) => ({
  fiat_account_owner: { person_details: { first_name: 'Grace' } },
  fiat_network_instructions: { wire: { fiat_account_owner_address: { ...ADDRESS, address1: '2 Side Street', address2 } } },
  metadata: { k1: 'v' },
});

describe('fitToPutBack', () => {
  it('leaves out a value for a field the account showed empty, and keeps every other field', () => {
    const fitted = fitToPutBack(update(addressUpdate('Suite 3')), nested());
    expect(fitted.body).toEqual({
      fiat_account_owner: { person_details: { first_name: 'Grace' } },
      fiat_network_instructions: {
        wire: { fiat_account_owner_address: { country: 'USA', address1: '2 Side Street', city: 'Springfield', province: 'IL', zip_code: '62701' } },
      },
      metadata: { k1: 'v' },
    });
  });

  it("fits an invalid case's valid twin as the twin will be sent, the invalid body as generated (exchanges.har links a case to its twin by what the twin sent)", () => {
    const twin = update(addressUpdate('Suite 3'));
    const invalid = update({ ...addressUpdate('Suite 3'), metadata: 'not an object' }, { mode: 'invalid', control: twin });
    const fitted = fitToPutBack(invalid, nested());
    expect(fitted.body).toEqual(invalid.body);
    expect(fitted.control).toEqual(fitToPutBack(twin, nested()));
    expect(fitted.control!.body).not.toEqual(twin.body);
  });

  it('sends the value where the account showed one (the restore writes it back), and an empty value as it is', () => {
    const filled = update(addressUpdate('Suite 3'));
    expect(fitToPutBack(filled, nested('Apt 1'))).toBe(filled);
    for (const empty of ['', null]) {
      const c = update(addressUpdate(empty));
      expect(fitToPutBack(c, nested())).toBe(c);
    }
  });

  it('leaves out a whole object the account did not show, and a parent it empties', () => {
    const c = update({ fiat_network_instructions: { wire: { routing_details: { bank_address: { ...ADDRESS, address2: 'Floor 2' } } } }, metadata: {} });
    expect(fitToPutBack(c, nested()).body).toEqual({ metadata: {} });
  });

  it('reads the instructions at the top level too (2.1 shape note)', () => {
    const top = accountState({ id: 'a1', fiat_network_instructions: { wire: { fiat_account_owner_address: ADDRESS } } });
    const fitted = fitToPutBack(update({ fiat_network_instructions: { wire: { fiat_account_owner_address: { address2: 'Suite 3', city: 'Paris' } } } }), top);
    expect(fitted.body).toEqual({ fiat_network_instructions: { wire: { fiat_account_owner_address: { city: 'Paris' } } } });
  });

  it("keeps the open case's own field, and sends invalid cases and unjournaled accounts as generated", () => {
    const open = update(addressUpdate('Suite 3'), {
      open: { field: 'fiat_network_instructions.wire.fiat_account_owner_address.address2', kind: 'length', value: '7 characters' },
    });
    expect(fitToPutBack(open, nested())).toBe(open);
    const invalid = update(addressUpdate('Suite 3'), { mode: 'invalid' });
    expect(fitToPutBack(invalid, nested())).toBe(invalid);
    const valid = update(addressUpdate('Suite 3'));
    expect(fitToPutBack(valid, undefined)).toBe(valid);
  });
});

describe('unrestorableSubject', () => {
  const subjectCase = (address2: unknown) =>
    update(addressUpdate(address2), {
      open: { field: 'fiat_network_instructions.wire.fiat_account_owner_address.address2', kind: 'length', value: '7 characters' },
    });

  it('names the open case that would set its own field where the account showed it empty', () => {
    expect(unrestorableSubject(subjectCase('Suite 3'), nested())).toMatch(
      /^not sent: it would set fiat_network_instructions\.wire\.fiat_account_owner_address\.address2, which fiat account a1 showed empty when journaled, and only "" or null could put it back/,
    );
  });

  it('lets it go where the account showed a value, where it sends an empty value, and when another field is left out', () => {
    expect(unrestorableSubject(subjectCase('Suite 3'), nested('Apt 1'))).toBeUndefined();
    expect(unrestorableSubject(subjectCase(null), nested())).toBeUndefined();
    const other = update(addressUpdate('Suite 3'), {
      open: { field: 'fiat_network_instructions.wire.fiat_account_owner_address.city', kind: 'length', value: '11 characters' },
    });
    expect(unrestorableSubject(other, nested())).toBeUndefined();
    expect(unrestorableSubject(update(addressUpdate('Suite 3')), nested())).toBeUndefined();
  });
});
