/** A HAR's ref_ids sent again: fresh, with the relations between the recorded ones kept (har-ref-ids.ts). */
import { describe, expect, it } from 'vitest';
import { FreshRefIds } from '../../src/run/har-ref-ids.ts';
import type { TestCase } from '../../src/core/case.ts';
import { otherCase } from '../../src/rules/create-identity/ref-id-scenarios.ts';

const TAG = 'conformance-v-mwyf0000-ab12';
const create = (refId: unknown, extra: Record<string, unknown> = {}): TestCase => ({
  operation: 'createIdentity',
  mode: 'valid',
  label: 'a create',
  body: { person_details: { first_name: 'Ada', cip_id: '386-04-3167' }, metadata: { conformance_run: TAG }, ref_id: refId, ...extra },
});
const refIdOf = (c: TestCase) => (c.body as { ref_id: unknown }).ref_id;

describe('FreshRefIds', () => {
  it('swaps the run tag for its own: one recorded ref_id, one fresh one; the other letter case stays the other letter case', () => {
    const fresh = new FreshRefIds();
    const first = refIdOf(fresh.restamp(create(`${TAG}-3`))) as string;
    expect(first).not.toBe(`${TAG}-3`);
    expect(first).toMatch(/-3$/);
    expect(refIdOf(fresh.restamp(create(`${TAG}-3`)))).toBe(first);
    expect(refIdOf(fresh.restamp(create(`${TAG}-4`)))).not.toBe(first);
    expect(refIdOf(fresh.restamp(create(otherCase(`${TAG}-3`))))).toBe(otherCase(first));
  });

  it('stamps as the run does (its own tag in the metadata, a government id of its own) and leaves a wrong-type ref_id and updates alone', () => {
    const fresh = new FreshRefIds();
    const stamped = fresh.restamp(create(`${TAG}-1`)).body as { metadata: Record<string, string>; person_details: { cip_id: string } };
    expect(stamped.metadata.conformance_run).not.toBe(TAG);
    expect(stamped.person_details.cip_id).toMatch(/^\d{3}-\d{2}-\d{4}$/);
    expect(stamped.person_details.cip_id).not.toBe('386-04-3167');
    const wrongType = create(42);
    expect(fresh.restamp(wrongType)).toBe(wrongType);
    const update: TestCase = { operation: 'updateFiatAccount', mode: 'valid', label: 'an update', body: { ref_id: 'x' }, fiatAccountId: 'a' };
    expect(fresh.restamp(update)).toBe(update);
  });

  it('gives a ref_id without the run tag a fresh one of its own, the same each time', () => {
    const fresh = new FreshRefIds();
    const foreign = { ...create('order-17'), body: { ref_id: 'order-17' } };
    const once = refIdOf(fresh.restamp(foreign));
    expect(once).not.toBe('order-17');
    expect(refIdOf(fresh.restamp(foreign))).toBe(once);
  });
});
