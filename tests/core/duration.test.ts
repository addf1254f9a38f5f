import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from '../../src/core/duration.ts';

describe('durations', () => {
  it('reads what people write, a bare number as seconds', () => {
    expect(['500ms', '30s', '30', '1.5s', '5m', '5min', '1h', ' 2 s '].map(parseDuration)).toEqual([
      500, 30_000, 30_000, 1500, 300_000, 300_000, 3_600_000, 2000,
    ]);
    expect(['', 's', '-1s', '1d', '1e3', 'soon'].map(parseDuration)).toEqual([undefined, undefined, undefined, undefined, undefined, undefined]);
  });

  it('writes them for people', () => {
    expect([800, 42_000, 550_000].map(formatDuration)).toEqual(['0.8 s', '42 s', '9 min 10 s']);
  });
});
