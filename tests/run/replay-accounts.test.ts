/** The accounts a replay sends to: only those named (or the embedded server's); a recorded id stands for one of them, or is skipped. */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.ts';
import { namedAccounts, ReplayAccounts } from '../../src/run/replay-accounts.ts';

const RECORDED = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222'];
const NAMED = ['aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb'];

describe('the accounts of a replay', () => {
  it('maps the recorded pool onto the named accounts, in the order the input names them', () => {
    const accounts = new ReplayAccounts(NAMED, RECORDED);
    expect(accounts.choose(RECORDED[0])).toEqual({ id: NAMED[0] });
    expect(accounts.choose(RECORDED[1])).toEqual({ id: NAMED[1] });
    expect(accounts.isTargetAccount(NAMED[1])).toBe(true);
  });

  it('keeps a recorded account the user named, and gives the others what is left', () => {
    const accounts = new ReplayAccounts([NAMED[0], RECORDED[1]], RECORDED);
    expect(accounts.choose(RECORDED[1])).toEqual({ id: RECORDED[1] });
    expect(accounts.choose(RECORDED[0])).toEqual({ id: NAMED[0] });
  });

  it('sends an unknown-id probe to a fresh random id (the same each time), and a malformed id as recorded', () => {
    const accounts = new ReplayAccounts(NAMED, RECORDED);
    const unknown = '3b241101-e2bb-4255-8caf-4136c566a962';
    const fresh = accounts.choose(unknown);
    expect(fresh).toMatchObject({ id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(fresh).not.toEqual({ id: unknown });
    expect(accounts.choose(unknown)).toEqual(fresh);
    expect(accounts.choose('not-a-uuid')).toEqual({ id: 'not-a-uuid' });
  });

  it('skips a recorded account when none is named, and refuses fewer named accounts than recorded ones', () => {
    expect(new ReplayAccounts([], RECORDED).choose(RECORDED[0])).toMatchObject({ skip: expect.stringContaining('no --fiat-account-id') });
    expect(() => new ReplayAccounts([NAMED[0]], RECORDED)).toThrow(UsageError);
    expect(() => new ReplayAccounts([NAMED[0]], RECORDED)).toThrow(/the input updates 2 fiat accounts and 1 are named: give as many --fiat-account-id/);
  });

  it('reads the named ids from the flags, else the environment, comma-separated', () => {
    expect(namedAccounts([`${NAMED[0]}, ${NAMED[1]}`], {})).toEqual(NAMED);
    expect(namedAccounts([], { CONFORMANCE_FIAT_ACCOUNT_IDS: NAMED.join(',') })).toEqual(NAMED);
    expect(namedAccounts(undefined, {})).toEqual([]);
  });
});
