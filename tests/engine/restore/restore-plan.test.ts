/** What the restore writes back, decided from the journal and a read of the account now (src/engine/restore/restore-plan.ts). */
import { describe, expect, it } from 'vitest';
import { accountState } from '../../../src/engine/restore/account-state.ts';
import { planWriteBack } from '../../../src/engine/restore/restore-plan.ts';

/** A FiatAccount in the embedded server's nested placement: one metadata map, inside the instructions. */
function account(names: { first_name?: string; last_name?: string }, metadata: Record<string, unknown>, wire: Record<string, unknown>) {
  return accountState({
    id: 'a',
    fiat_account_owner: { person_details: names, fiat_network_instructions: { wire, status: 'PENDING', metadata } },
  });
}

/** The document's sample placement: the client's metadata at the top level, the instructions' own (with an integer counter) nested. */
function sampleAccount(client: Record<string, unknown>, instructions: Record<string, unknown>, status = 'APPROVED') {
  return accountState({
    id: 'a',
    metadata: client,
    fiat_account_owner: { person_details: ADA, fiat_network_instructions: { wire: WIRE, status, metadata: instructions } },
  });
}

const WIRE = { account_number: '1000000000', routing_details: { routing_number: '021000021', bank_name: 'Example National Bank' } };
const ADA = { first_name: 'Ada', last_name: 'Lovelace' };
const NESTED = 'fiat_account_owner.fiat_network_instructions.metadata';

describe('planWriteBack', () => {
  it('writes nothing when the account shows what the journal holds', () => {
    const plan = planWriteBack(account(ADA, { origin: 'seed' }, WIRE), account(ADA, { origin: 'seed' }, WIRE), 'replace');
    expect(plan.body).toBeUndefined();
    expect(plan.notRestored).toEqual([]);
  });

  it('under replace, writes back the differing names, the journaled metadata whole and the wire', () => {
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
    expect(plan.expected).toEqual(
      expect.arrayContaining([
        { field: 'fiat_account_owner.person_details.first_name', value: 'Ada' },
        { field: `${NESTED}.origin`, value: 'seed' },
        { field: `${NESTED}.k1`, value: undefined },
        { field: 'fiat_account_owner.fiat_network_instructions.wire.routing_details.bank_name', value: 'Example National Bank' },
      ]),
    );
    expect(plan.notRestored).toEqual([]);
  });

  it('in the sample placement, writes the client map to metadata and leaves the instructions map (with its integer counter) alone', () => {
    const plan = planWriteBack(
      sampleAccount({ team: 'ops', attempts: 2 }, { note: 'x', attempt: 1 }),
      sampleAccount({ k1: 'v1' }, { note: 'x', attempt: 1 }),
      'replace',
    );
    // The integer goes back as an integer, and no instruction key lands in the client map.
    expect(plan.body).toEqual({ metadata: { team: 'ops', attempts: 2 } });
  });

  it('in the sample placement, the instructions map the run changed goes back inside fiat_network_instructions', () => {
    const plan = planWriteBack(
      sampleAccount({ team: 'ops' }, { note: 'x', attempt: 1 }),
      sampleAccount({ team: 'ops' }, { note: 'run', attempt: 1 }),
      'replace',
    );
    expect(plan.body).toEqual({ fiat_network_instructions: { metadata: { note: 'x', attempt: 1 } } });
  });

  it('never writes the review status, and says the API cannot set it back', () => {
    const plan = planWriteBack(sampleAccount({}, {}, 'APPROVED'), sampleAccount({}, {}, 'PENDING'), 'replace');
    expect(plan.body).toBeUndefined();
    expect(plan.notRestored).toEqual([
      expect.objectContaining({ field: 'fiat_account_owner.fiat_network_instructions.status', was: 'APPROVED', now: 'PENDING', final: true }),
    ]);
  });

  it('under merge, leaves the keys the run added to the deletion and writes back the changed ones only', () => {
    const plan = planWriteBack(account(ADA, { origin: 'seed', keep: 'x' }, WIRE), account(ADA, { origin: 'run', keep: 'x', k1: 'v1' }, WIRE), 'merge');
    expect(plan.body).toEqual({ metadata: { origin: 'seed' } });
    expect(plan.added.map((a) => [a.field, a.writeAt])).toEqual([[`${NESTED}.k1`, ['metadata', 'k1']]]);
  });

  it('under merge, writes nothing that would pass 6 pairs before the added keys are gone', () => {
    const full = { a: '1', b: '2', c: '3', d: '4', e: '5', f: '6' };
    const plan = planWriteBack(account(ADA, { origin: 'seed' }, WIRE), account(ADA, full, WIRE), 'merge');
    expect(plan.body).toBeUndefined();
    expect(plan.added.map((a) => a.field.split('.').at(-1))).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'origin']);
  });

  it('never writes back a value the target masked, and says so', () => {
    const start = account(ADA, {}, { ...WIRE, account_number: '****0000' });
    const end = account({ first_name: 'Zoë', last_name: 'Lovelace' }, {}, { ...WIRE, account_number: '****9999' });
    const plan = planWriteBack(start, end, 'replace');
    expect(JSON.stringify(plan.body)).not.toContain('*');
    expect(plan.body).toEqual({ fiat_account_owner: { person_details: { first_name: 'Ada' } } });
    expect(plan.notRestored).toEqual([
      expect.objectContaining({
        field: 'fiat_account_owner.fiat_network_instructions.wire.account_number',
        reason: expect.stringContaining('masked'),
        final: true,
      }),
    ]);
  });

  it('cannot put back what the journal did not show', () => {
    const plan = planWriteBack(account({ last_name: 'Lovelace' }, {}, WIRE), account(ADA, {}, WIRE), 'replace');
    expect(plan.body).toBeUndefined();
    expect(plan.notRestored).toEqual([
      expect.objectContaining({ field: 'fiat_account_owner.person_details.first_name', reason: expect.stringContaining('did not show it') }),
    ]);
  });

  it('reads every placement with its JSON types', () => {
    const state = accountState({ metadata: { top: 'x' }, fiat_network_instructions: { wire: WIRE, metadata: { attempts: 3, nested: 'y' } } });
    expect(state.get('metadata.top')?.value).toBe('x');
    expect(state.get('fiat_network_instructions.metadata.attempts')?.value).toBe(3);
    expect(state.get('fiat_network_instructions.wire.routing_details.bank_name')?.value).toBe('Example National Bank');
  });
});
