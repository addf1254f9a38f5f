/** DigestTable: strings numbered in the order first added, kept as digests in typed arrays. */
import { describe, expect, it } from 'vitest';
import { DigestTable } from '../../src/core/digest-table.ts';

describe('DigestTable', () => {
  it('numbers each distinct string once, in order, past many growths', () => {
    const table = new DigestTable();
    for (let i = 0; i < 50_000; i++) expect(table.add(`key-${i}`)).toEqual({ id: i, added: true });
    for (let i = 0; i < 50_000; i += 997) expect(table.add(`key-${i}`)).toEqual({ id: i, added: false });
    expect(table.size).toBe(50_000);
    expect(table.get('key-49999')).toBe(49_999);
    expect(table.get('never added')).toBeUndefined();
  });
});
