/** summarizeLimit and mergeContracts: the one line of an open point, and the contracts of shards joined. */
import { describe, expect, it } from 'vitest';
import { compareLimits, mergeContracts, summarizeLimit } from '../../src/core/observed-contract.ts';
import type { ObservedContract, ObservedLimit } from '../../src/core/open-point.ts';
import { SAMPLE_CONTRACT, nextReleaseReport } from '../report/sample-report.ts';

type Unsummarized = Omit<ObservedLimit, 'summary'>;

const length = (patch: Partial<Unsummarized>): Unsummarized => ({
  operation: 'createIdentity',
  field: 'person_details.address.address1',
  kind: 'length',
  accepted: [],
  refused: [],
  ...patch,
});

const withSummary = (limit: Unsummarized): ObservedLimit => ({ ...limit, summary: summarizeLimit(limit) });

describe('summarizeLimit', () => {
  it('gives the summaries of the sample contracts', () => {
    for (const limit of [...SAMPLE_CONTRACT.limits, ...nextReleaseReport().observedContract!.limits]) {
      const { summary, ...rest } = limit;
      expect(summarizeLimit(rest), limit.field).toBe(summary);
    }
  });

  it('a length: an upper bound when every refused length lies above every accepted one', () => {
    expect(summarizeLimit(length({ longestAccepted: 35, shortestRefused: 36 }))).toBe('refuses over 35 characters (accepted up to 35)');
    expect(summarizeLimit(length({ longestAccepted: 35, shortestRefused: 65 }))).toBe('refuses from 65 characters (accepted up to 35)');
    expect(summarizeLimit(length({ longestAccepted: 1, shortestRefused: 2 }))).toBe('refuses over 1 character (accepted up to 1)');
    // Only the empty text tried and accepted: no bound was seen.
    expect(summarizeLimit(length({ longestAccepted: 0, accepted: ['empty'] }))).toBe('accepted the empty text (no longer text was judged)');
    // The empty text refused, long ones accepted: no bound, the values.
    expect(summarizeLimit(length({ accepted: ['200 characters'], refused: [{ value: 'empty', status: 400 }], longestAccepted: 200, shortestRefused: 0 }))).toBe(
      'refused empty; accepted up to 200 characters',
    );
    expect(summarizeLimit(length({ refused: [{ value: '300 characters', status: 413 }], shortestRefused: 300 }))).toBe(
      'refused 300 characters (nothing accepted)',
    );
  });

  it('a date: the range accepted; other kinds: the values, at most four named', () => {
    const date = { ...length({}), kind: 'date' as const, field: 'person_details.date_of_birth' };
    expect(summarizeLimit({ ...date, accepted: ['1980-02-29'], earliestAccepted: '1980-02-29', latestAccepted: '1980-02-29' })).toBe('accepted 1980-02-29');
    const codes = ['GBR', 'DEU', 'FRA', 'ESP', 'ITA', 'NLD'];
    const code = { ...length({}), kind: 'code' as const, field: 'person_details.address.country' };
    expect(summarizeLimit({ ...code, accepted: codes })).toBe('accepted GBR, DEU, FRA, ESP (+2 more)');
    expect(summarizeLimit({ ...code, refused: codes.map((value) => ({ value, status: 400 })) })).toBe(
      'refused GBR, DEU, FRA, ESP (+2 more) (nothing accepted)',
    );
    expect(summarizeLimit(code)).toBe('nothing tried');
  });
});

describe('mergeContracts', () => {
  const shard1: ObservedContract = {
    version: 1,
    limits: [
      withSummary(
        length({
          accepted: ['12 characters', '35 characters'],
          refused: [{ value: '200 characters', status: 422, said: 'too long' }],
          longestAccepted: 35,
          shortestRefused: 200,
        }),
      ),
      withSummary({
        operation: 'createIdentity',
        field: 'person_details.date_of_birth',
        kind: 'date',
        accepted: ['1950-01-01'],
        refused: [],
        earliestAccepted: '1950-01-01',
        latestAccepted: '1950-01-01',
      }),
    ],
  };
  const shard2: ObservedContract = {
    version: 1,
    limits: [
      withSummary({
        operation: 'createIdentity',
        field: 'person_details.date_of_birth',
        kind: 'date',
        accepted: ['2001-09-09', '1931-05-05'],
        refused: [{ value: '1899-12-31', status: 400 }],
        earliestAccepted: '1931-05-05',
        latestAccepted: '2001-09-09',
      }),
      withSummary(
        length({
          accepted: ['35 characters', '20 characters'],
          refused: [
            { value: '36 characters', status: 400, said: 'address1: at most 35' },
            { value: '200 characters', status: 400, said: 'address1: at most 35' },
          ],
          longestAccepted: 35,
          shortestRefused: 36,
        }),
      ),
      withSummary({ operation: 'updateFiatAccount', field: 'wire.bank_name', kind: 'alphabet', accepted: ['latin'], refused: [] }),
    ],
  };

  it('joins the limits of a point: values united in order of first sight, the first answer to a value kept, the bounds widened, the summary made again', () => {
    const merged = mergeContracts([shard1, shard2]);
    expect(merged.version).toBe(1);
    const address = merged.limits.find((l) => l.kind === 'length')!;
    expect(address).toEqual({
      operation: 'createIdentity',
      field: 'person_details.address.address1',
      kind: 'length',
      accepted: ['12 characters', '35 characters', '20 characters'],
      refused: [
        { value: '200 characters', status: 422, said: 'too long' },
        { value: '36 characters', status: 400, said: 'address1: at most 35' },
      ],
      longestAccepted: 35,
      shortestRefused: 36,
      summary: 'refuses over 35 characters (accepted up to 35)',
    });
    const dob = merged.limits.find((l) => l.kind === 'date')!;
    expect([dob.earliestAccepted, dob.latestAccepted]).toEqual(['1931-05-05', '2001-09-09']);
    expect(dob.accepted).toEqual(['1950-01-01', '2001-09-09', '1931-05-05']);
    expect(dob.summary).toBe('refused 1899-12-31; accepted 1931-05-05 to 2001-09-09');
  });

  it('keeps every point once, in the fixed order: operation as the table lists them, field, kind', () => {
    const merged = mergeContracts([shard1, shard2]);
    expect(merged.limits.map((l) => `${l.operation} ${l.field} ${l.kind}`)).toEqual([
      'updateFiatAccount wire.bank_name alphabet',
      'createIdentity person_details.address.address1 length',
      'createIdentity person_details.date_of_birth date',
    ]);
    expect([...merged.limits].sort(compareLimits)).toEqual(merged.limits);
    const sameField = [
      withSummary({ ...length({}), kind: 'alphabet', accepted: ['latin'] }),
      withSummary({ ...length({}), accepted: ['1 character'], longestAccepted: 1 }),
    ];
    expect(mergeContracts([{ version: 1, limits: sameField }]).limits.map((l) => l.kind)).toEqual(['length', 'alphabet']);
  });

  it('a widened bound that no longer separates accepted from refused lengths: the values, not a bound', () => {
    const wider = withSummary(length({ accepted: ['40 characters'], longestAccepted: 40 }));
    const merged = mergeContracts([shard2, { version: 1, limits: [wider] }]).limits.find((l) => l.kind === 'length')!;
    expect([merged.longestAccepted, merged.shortestRefused]).toEqual([40, 36]);
    expect(merged.summary).toBe('refused 36 characters, 200 characters; accepted up to 40 characters');
  });

  it('one contract comes back as it was; none, or empty ones, give an empty contract', () => {
    expect(mergeContracts([structuredClone(SAMPLE_CONTRACT)])).toEqual(SAMPLE_CONTRACT);
    expect(mergeContracts([])).toEqual({ version: 1, limits: [] });
    expect(
      mergeContracts([
        { version: 1, limits: [] },
        { version: 1, limits: [] },
      ]),
    ).toEqual({ version: 1, limits: [] });
  });
});
