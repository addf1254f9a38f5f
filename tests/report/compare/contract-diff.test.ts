/** diffContracts: which open points appear, disappear or change between two reports, and how. */
import { describe, expect, it } from 'vitest';
import { diffContracts } from '../../../src/report/compare/contract-diff.ts';
import { diffReports } from '../../../src/report/compare/report-diff.ts';
import type { ConformanceReport } from '../../../src/report/model/model.ts';
import { legacyReport, nextReleaseReport, sampleReport } from '../sample-report.ts';

const limit = (report: ConformanceReport, field: string) => report.observedContract!.limits.find((l) => l.field === field)!;

describe('diffContracts', () => {
  it('lists each point that appeared, disappeared or changed, in the order of the contract, with what changed', () => {
    const d = diffContracts(sampleReport(), nextReleaseReport());
    expect(d.recorded).toEqual({ old: true, new: true });
    expect(d.note).toBeUndefined();
    expect(d.changes.map((c) => [c.change, c.operation, c.field, c.kind])).toEqual([
      ['appeared', 'updateFiatAccount', 'wire.bank_name', 'length'],
      ['changed', 'createIdentity', 'person_details.address.address1', 'length'],
      ['changed', 'createIdentity', 'person_details.address.country', 'code'],
      ['changed', 'createIdentity', 'person_details.date_of_birth', 'date'],
      ['disappeared', 'createIdentity', 'person_details.last_name', 'alphabet'],
    ]);
    const [appeared, address, country, dob, lastName] = d.changes;
    expect(appeared).toEqual({
      operation: 'updateFiatAccount',
      field: 'wire.bank_name',
      kind: 'length',
      change: 'appeared',
      after: 'refuses over 35 characters (accepted up to 35)',
      details: [],
    });
    expect(address.before).toBe('refuses over 35 characters (accepted up to 35)');
    expect(address.after).toBe('accepted up to 200 characters');
    expect(address.details).toEqual([
      'longest accepted 35 → 200',
      'shortest refused 36 → none',
      '36 characters now accepted (was refused)',
      '200 characters now accepted (was refused)',
    ]);
    expect(country.details).toEqual(['GBR now refused (was accepted; 400: country must be one of DEU | FRA)']);
    expect(dob.details).toEqual(['1899-12-31 refused with 422 (was 400)']);
    expect(lastName).toMatchObject({ change: 'disappeared', before: 'accepted accented latin (é, ñ, ß), cjk, rtl' });
  });

  it('lists nothing for the same contract, nor for a target that accepted one more value where it refused nothing', () => {
    expect(diffContracts(sampleReport(), sampleReport()).changes).toEqual([]);
    const more = sampleReport();
    limit(more, 'person_details.last_name').accepted.push('arabic');
    limit(more, 'person_details.last_name').summary = 'accepted accented latin (é, ñ, ß), cjk, rtl, arabic';
    expect(diffContracts(sampleReport(), more).changes).toEqual([]);
  });

  it('a value refused that the older run did not try, and one refused before that the newer run did not try', () => {
    const newer = sampleReport();
    limit(newer, 'person_details.first_name').refused = [
      { value: 'cjk', status: 400 },
      { value: 'arabic', status: 400, said: 'first_name must be latin' },
    ];
    expect(diffContracts(sampleReport(), newer).changes[0].details).toEqual([
      'arabic refused (not tried before; 400: first_name must be latin)',
      'astral not tried now (was refused)',
    ]);
  });

  it('a report before 1.7.0 records no contract: its points read as none, and a note says so', () => {
    const fromLegacy = diffContracts(legacyReport(), sampleReport());
    expect(fromLegacy.recorded).toEqual({ old: false, new: true });
    expect(fromLegacy.note).toMatch(/^the old report \(version 1\.6\.0\) records no observed contract: .* every point of the new one shows as appeared$/);
    expect(fromLegacy.changes.every((c) => c.change === 'appeared')).toBe(true);
    expect(fromLegacy.changes).toHaveLength(sampleReport().observedContract!.limits.length);
    expect(diffContracts(sampleReport(), legacyReport()).note).toMatch(/^the new report \(version 1\.6\.0\) records no observed contract/);
    expect(diffContracts(legacyReport(), legacyReport())).toEqual({
      recorded: { old: false, new: false },
      note: 'neither report records an observed contract (both predate report version 1.7.0)',
      changes: [],
    });
  });

  it('the report diff carries it and counts none of it as a regression', () => {
    const d = diffReports(sampleReport(), nextReleaseReport());
    expect(d.observedContract.changes).toHaveLength(5);
    expect(d.regressions).toBe(0);
  });
});
