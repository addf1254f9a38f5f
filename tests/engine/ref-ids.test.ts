/**
 * Stamping: one ref_id, one government id, so a repeat stays a repeat (the ref_id scenarios send a
 * stamped body again, stamped again with its own ref_id).
 */
import { describe, expect, it } from 'vitest';
import type { TestCase } from '../../src/core/case.ts';
import { RefIds } from '../../src/engine/ref-ids.ts';

const create = (cipId: string): TestCase => ({
  operation: 'createIdentity',
  mode: 'valid',
  label: 'create',
  body: { person_details: { first_name: 'Ada', cip_id: cipId, cip_id_type: 'SSN' }, tax_details_not_required: true },
});
const cipOf = (c: TestCase) => (c.body as { person_details: { cip_id: string } }).person_details.cip_id;

describe('RefIds.stamp', () => {
  it.each([['123-45-6789'], ['001-23-4567']])(
    'gives %s a government id of the ref_id, its layout and leading zeros kept, the same when stamped again',
    (sent) => {
      const refIds = new RefIds(7);
      const zeros = /^0*/.exec(sent)![0];
      // Enough ref_ids for hashes whose first digit is 0 (one in ten).
      for (let i = 0; i < 200; i++) {
        const refId = refIds.next();
        const stamped = refIds.stamp(create(sent), refId);
        const cip = cipOf(stamped);
        expect(cip.replace(/\d/g, 'd')).toBe(sent.replace(/\d/g, 'd'));
        expect(/^0*/.exec(cip)![0]).toBe(zeros);
        expect(cipOf(refIds.stamp(stamped, refId)), refId).toBe(cip);
      }
    },
  );
});
