/**
 * A faithful but strict implementation, modelled on the vendor's published OpenAPI document
 * (src/server/strict-open-points.ts: Latin names of at most 200 characters, 35-character address
 * lines, ISO alpha-3 codes, enumerated kinds, E.164 phones, one identity per government id ...).
 * It restricts only what the document leaves open, so it must come out conformant in every
 * profile, and its restrictions must show in the observed contract the run writes.
 */
import { describe, expect, it } from 'vitest';
import { PROFILES, type Profile } from '../../src/engine/profiles.ts';
import { runEmbedded } from '../../src/run/embedded-run.ts';
import { STRICT_RESTRICTIONS } from '../../src/server/strict-open-points.ts';
import { IDENTITY_OPEN_POINTS, UPDATE_OPEN_POINTS } from '../../src/rules/open-points/cases.ts';
import { diffContracts } from '../../src/report/compare/contract-diff.ts';
import type { ConformanceReport } from '../../src/report/model/model.ts';

const strictRun = (profile: Profile, seed = 5) => runEmbedded({ runs: PROFILES[profile], seed, strictServer: true });
const refusedAt = (report: ConformanceReport) =>
  new Set(report.observedContract!.limits.filter((l) => l.refused.length).map((l) => `${l.operation} ${l.field} ${l.kind}`));

describe('a strict server that restricts only the open points', () => {
  it.each(Object.keys(PROFILES) as Profile[])(
    'is conformant in the %s profile, every rule judged',
    async (profile) => {
      const { report } = await strictRun(profile);
      expect(
        report.summary.verdict,
        JSON.stringify(report.rules.filter((r) => r.status !== 'passed').map((r) => [r.id, r.status, r.failures[0]?.message])),
      ).toBe('conformant');
      expect(report.summary.failed).toBe(0);
      expect(report.rules.every((r) => r.status === 'passed')).toBe(true);
    },
    120_000,
  );

  it('shows each of its restrictions in the observed contract of conformance.json, with its own words', async () => {
    const { report } = await strictRun('standard');
    const refused = refusedAt(report);
    // Every restriction on a field and kind the harness varies, grouped by what it restricts.
    const tried = new Set([
      ...IDENTITY_OPEN_POINTS.map((f) => `createIdentity ${f.field} ${f.kind}`),
      ...UPDATE_OPEN_POINTS.map((f) => `updateFiatAccount ${f.field} ${f.kind}`),
    ]);
    const groups = new Map<string, string[]>();
    for (const r of STRICT_RESTRICTIONS) {
      const key = `${r.operation} ${r.field} ${r.kind}`;
      if (tried.has(key)) groups.set(`${r.kind}: ${r.limit}`, [...(groups.get(`${r.kind}: ${r.limit}`) ?? []), key]);
    }
    expect(groups.size).toBeGreaterThanOrEqual(12);
    for (const [restriction, fields] of groups)
      expect(
        fields.some((f) => refused.has(f)),
        `${restriction} (${fields.join(', ')})`,
      ).toBe(true);
    // The restrictions the vendor's document is known for, each on its own field.
    for (const key of [
      'createIdentity person_details.first_name alphabet',
      'createIdentity person_details.first_name length',
      'updateFiatAccount fiat_account_owner.person_details.first_name alphabet',
      'createIdentity person_details.address.address1 length',
      'updateFiatAccount fiat_network_instructions.wire.fiat_account_owner_address.address1 length',
      'createIdentity person_details.nationality code',
      'createIdentity person_details.cip_id_type code',
      'createIdentity person_details.verifier_type code',
      'updateFiatAccount fiat_network_instructions.wire.routing_details code',
      'createIdentity person_details.cip_id uniqueness',
      'createIdentity tax_details[] partial-entry',
      'createIdentity person_details.date_of_birth date',
      'createIdentity person_details.email format',
    ])
      expect(refused, key).toContain(key);
    const address = report.observedContract!.limits.find((l) => l.field === 'person_details.address.address1' && l.kind === 'length')!;
    expect(address.refused[0].said).toMatch(/at most 35 characters/);
    expect(address.longestAccepted ?? 0).toBeLessThanOrEqual(35);
    expect(address.shortestRefused).toBeGreaterThan(35);
    const unique = report.observedContract!.limits.find((l) => l.kind === 'uniqueness')!;
    expect(unique.refused[0].status).toBe(409);
  }, 120_000);

  it('differs from the faithful server in its limits, which `diff` lists as changes, not failures', async () => {
    const [plain, strict] = await Promise.all([runEmbedded({ runs: PROFILES.quick, seed: 5 }), strictRun('quick')]);
    expect(plain.report.summary.verdict).toBe('conformant');
    // The plain server refuses no open point but a null in an update (it keeps to the types; update-nulls=ignored takes it).
    expect([...refusedAt(plain.report)].filter((point) => !point.endsWith(' null-or-empty'))).toEqual([]);
    const diff = diffContracts(plain.report, strict.report);
    const changed = diff.changes.filter((c) => c.change === 'changed').map((c) => `${c.field} ${c.kind}`);
    expect(changed).toContain('person_details.first_name alphabet');
    expect(changed).toContain('person_details.address.address1 length');
    const names = diff.changes.find((c) => c.field === 'person_details.first_name' && c.kind === 'alphabet')!;
    expect(names.details.join('; ')).toMatch(/cjk now refused \(was accepted/);
  }, 120_000);
});
