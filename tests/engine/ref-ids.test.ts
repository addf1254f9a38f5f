/** RefIds.stamp: one ref_id, one government id, so that a repeat of a create stays a repeat. */
import { describe, expect, it } from 'vitest';
import { RefIds } from '../../src/engine/ref-ids.ts';
import type { TestCase } from '../../src/core/case.ts';

const create = (cipId: string): TestCase => ({
  operation: 'createIdentity',
  mode: 'valid',
  label: 'create',
  body: { person_details: { first_name: 'Jane', cip_id: cipId }, tax_details_not_required: true },
});

const cipOf = (c: TestCase) => (c.body as { person_details: { cip_id: string } }).person_details.cip_id;

describe('RefIds.stamp', () => {
  it('gives each ref_id a government id of its own, and a stamped body sent again under its ref_id the same one', () => {
    const refIds = new RefIds(1);
    // Every ref_id until one whose government id starts with 0: stamped again, its zero is no leading zero to keep.
    let refId = refIds.next();
    let stamped = refIds.stamp(create('123-45-6789'), refId);
    for (let i = 0; i < 1000 && !cipOf(stamped).startsWith('0'); i++) {
      refId = refIds.next();
      stamped = refIds.stamp(create('123-45-6789'), refId);
    }
    expect(cipOf(stamped)).toMatch(/^0\d\d-\d\d-\d{4}$/);
    expect(refIds.stamp({ ...stamped, mode: 'duplicate' }, refId).body).toEqual(stamped.body);
    // Another ref_id, another government id.
    expect(cipOf(refIds.stamp(create('123-45-6789'), refIds.next()))).not.toBe(cipOf(stamped));
  });
});
