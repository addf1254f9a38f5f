/** cutText: the first characters of a string, never half a surrogate pair. */
import { describe, expect, it } from 'vitest';
import { cutText } from '../../src/core/cut-text.ts';

describe('cutText', () => {
  it('leaves a short string, cuts a long one, and never splits a pair', () => {
    expect(cutText('abc', 5)).toBe('abc');
    expect(cutText('abcdef', 4)).toBe('abcd');
    expect(cutText('ab😀c', 3)).toBe('ab');
    expect(cutText('ab😀c', 4)).toBe('ab😀');
    expect(cutText('\uDC00x\uD800', 2)).toBe('\uDC00x');
  });
});
