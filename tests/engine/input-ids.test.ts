/** Distinct inputs as numbers and bits (src/engine/input-ids.ts). */
import { describe, expect, it } from 'vitest';
import { InputIds, InputSet } from '../../src/engine/input-ids.ts';
import type { TestCase } from '../../src/core/case.ts';

const update = (value: string, refId?: string): TestCase => ({
  operation: 'updateFiatAccount',
  mode: 'valid',
  label: 'u',
  body: { metadata: { k: value }, ...(refId ? { ref_id: refId } : {}) },
  fiatAccountId: 'a',
});

describe('InputIds and InputSet', () => {
  it('give equal inputs one number (ref_ids aside) and count each once per set', () => {
    const ids = new InputIds();
    const set = new InputSet();
    const cases = [update('1', 'r1'), update('1', 'r2'), update('2'), update('3')];
    for (const c of cases) set.add(ids.of(c));
    for (const c of cases) set.add(ids.of(c));
    expect(ids.of(cases[0])).toBe(ids.of(cases[1]));
    expect(set.size).toBe(3);
  });

  it('grows past its first bytes', () => {
    const set = new InputSet();
    for (let i = 0; i < 10_000; i += 3) set.add(i);
    set.add(9_999);
    expect(set.size).toBe(3334);
  });
});
