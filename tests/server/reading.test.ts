/** The readings the self-test runs: the default, each single alternative, and all alternatives at once. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_READING, READINGS, type Reading } from '../../src/server/reading.ts';
import { parseReading } from '../../src/server/reading.ts';

const differences = (a: Reading, b: Reading) => (Object.keys(a) as (keyof Reading)[]).filter((k) => a[k] !== b[k]);

describe('READINGS', () => {
  it('holds 12 distinct readings: the default first, ten single alternatives, and every alternative at once', () => {
    expect(READINGS).toHaveLength(12);
    expect(new Set(READINGS.map((r) => JSON.stringify(r))).size).toBe(12);
    expect(READINGS[0]).toEqual({
      placement: 'nested',
      rejectStatus: 400,
      duplicateRefId: 'conflict',
      createdStatus: 201,
      metadataUpdate: 'replace',
      taxEntryMembers: 'optional',
      refIdCase: 'exact',
      emptyBody: 'refused',
      updateNulls: 'as-typed',
    });
    expect(READINGS.slice(1, 11).map((r) => differences(r, DEFAULT_READING).length)).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
    expect(differences(READINGS[11], DEFAULT_READING)).toHaveLength(Object.keys(DEFAULT_READING).length);
  });

  it('names only values the serve and run flags accept', () => {
    for (const reading of READINGS) {
      const flags = {
        placement: reading.placement,
        'reject-status': String(reading.rejectStatus),
        'duplicate-ref-id': reading.duplicateRefId,
        'created-status': String(reading.createdStatus),
        'metadata-update': reading.metadataUpdate,
        'tax-entry-members': reading.taxEntryMembers,
        'ref-id-case': reading.refIdCase,
        'empty-body': reading.emptyBody,
        'update-nulls': reading.updateNulls,
      };
      expect(parseReading(flags)).toEqual(reading);
    }
  });
});
