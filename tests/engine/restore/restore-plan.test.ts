/** What the restore writes back, decided from the start read and the end read (src/engine/restore/restore-plan.ts). */
import { describe, expect, it } from 'vitest';
import { accountState } from '../../../src/engine/restore/account-state.ts';
import { planWriteBack } from '../../../src/engine/restore/restore-plan.ts';

/** A FiatAccount in the sample's nested placement. */
function account(names: { first_name?: string; last_name?: string }, metadata: Record<string, unknown>, wire: Record<string, unknown>) {
  return accountState({
    id: 'a',
    fiat_account_owner: { person_details: names, fiat_network_instructions: { wire, status: 'PENDING', metadata } },
  });
}

const WIRE = { account_number: '1000000000', routing_details: { routing_number: '021000021', bank_name: 'Example National Bank' } };
const ADA = { first_name: 'Ada', last_name: 'Lovelace' };

describe('planWriteBack', () => {
  it('writes nothing when the end read shows what the start read showed', () => {
    const plan = planWriteBack(account(ADA, { origin: 'seed' }, WIRE), account(ADA, { origin: 'seed' }, WIRE), 'replace');
    expect(plan.body).toBeUndefined();
    expect(plan.notRestored).toEqual([]);
  });

  it('under replace, writes back only the differing names, the start metadata whole and the wire', () => {
    const end = account(
      { first_name: 'Zoë 😀', last_name: 'Lovelace' },
      { origin: 'run', k1: 'v1' },
      { ...WIRE, routing_details: { ...WIRE.routing_details, bank_name: 'Other' } },
    );
    const plan = planWriteBack(account(ADA, { origin: 'seed' }, WIRE), end, 'replace');
    expect(plan.body).toEqual({
      fiat_account_owner: { person_details: { first_name: 'Ada' } },
      metadata: { origin: 'seed' },
      fiat_network_instructions: { wire: WIRE },
    });
    expect(plan.expected.map((x) => [x.field, x.value])).toEqual([
      ['fiat_account_owner.person_details.first_name', 'Ada'],
      ['metadata.origin', 'seed'],
      ['metadata.k1', undefined],
      ['fiat_network_instructions.wire.routing_details.bank_name', 'Example National Bank'],
    ]);
    expect(plan.notRestored).toEqual([]);
  });

  it('under merge, names the keys the run added (no update removes them) and writes back the changed ones only', () => {
    const plan = planWriteBack(account(ADA, { origin: 'seed', keep: 'x' }, WIRE), account(ADA, { origin: 'run', keep: 'x', k1: 'v1' }, WIRE), 'merge');
    expect(plan.body).toEqual({ metadata: { origin: 'seed' } });
    expect(plan.notRestored).toEqual([{ field: 'metadata.k1', reason: expect.stringContaining('merges metadata') }]);
  });

  it('under merge, does not write back pairs that would pass the 6-pair limit', () => {
    const full = { a: '1', b: '2', c: '3', d: '4', e: '5', f: '6' };
    const plan = planWriteBack(account(ADA, { origin: 'seed' }, WIRE), account(ADA, full, WIRE), 'merge');
    expect(plan.body).toBeUndefined();
    expect(plan.notRestored.map((n) => n.field)).toEqual([
      'metadata.a',
      'metadata.b',
      'metadata.c',
      'metadata.d',
      'metadata.e',
      'metadata.f',
      'metadata.origin',
    ]);
    expect(plan.notRestored.at(-1)!.reason).toContain('more than 6 pairs');
  });

  it('never writes back a value the target masked, and says so', () => {
    const start = account(ADA, {}, { ...WIRE, account_number: '****0000' });
    const end = account({ first_name: 'Zoë', last_name: 'Lovelace' }, {}, { ...WIRE, account_number: '****9999' });
    const plan = planWriteBack(start, end, 'replace');
    expect(JSON.stringify(plan.body)).not.toContain('*');
    expect(plan.body).toEqual({
      fiat_account_owner: { person_details: { first_name: 'Ada' } },
      fiat_network_instructions: { wire: { routing_details: WIRE.routing_details } },
    });
    expect(plan.notRestored).toEqual([{ field: 'fiat_network_instructions.wire.account_number', reason: expect.stringContaining('masked') }]);
  });

  it('cannot put back what the start read did not show', () => {
    const plan = planWriteBack(account({ last_name: 'Lovelace' }, {}, WIRE), account(ADA, {}, WIRE), 'replace');
    expect(plan.body).toBeUndefined();
    expect(plan.notRestored).toEqual([{ field: 'fiat_account_owner.person_details.first_name', reason: expect.stringContaining('did not show it') }]);
  });

  it('reads status and metadata in either placement, and a server counter is not the client metadata', () => {
    const state = accountState({
      metadata: { top: 'x' },
      fiat_network_instructions: { wire: WIRE, metadata: { attempts: 3, nested: 'y' } },
    });
    expect(Object.fromEntries(state.metadata!)).toEqual({ top: 'x', nested: 'y' });
    expect(state.wire!.get('fiat_network_instructions.wire.routing_details.bank_name')).toBe('Example National Bank');
  });
});
