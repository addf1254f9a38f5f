/**
 * Valid twins: every invalid and boundary case carries its nearest valid twin, the twin is valid
 * under the request schema and under the embedded reference server, and it differs from the case
 * by the one defect only (moved off the limit, or removed).
 */
import { strictRefusal } from '../../../src/server/strict-open-points.ts';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { caseFamilies } from '../../../src/rules/cases/families.ts';
import { registry } from '../../../src/schema/registry.ts';
import type { TestCase } from '../../../src/core/case.ts';
import { violations } from '../../../src/server/validation.ts';
import { FAITHFUL } from '../../../src/server/behaviour.ts';
import { twinLabel, withControl } from '../../../src/rules/cases/twins.ts';

const REQUEST_SCHEMA = { updateFiatAccount: 'update-fiat-account-request', createIdentity: 'create-identity-request' } as const;
const families = caseFamilies();
const RANDOM_CASES = 200;

/** Cases about HTTP around the operation (another method, an empty body): no body defect, so no twin. */
const aroundFamilies = families.filter((f) => f.examples.every((c) => c.around !== undefined));
const bodyFamilies = families.filter((f) => !aroundFamilies.includes(f));

const casesOf = (family: (typeof families)[number]): TestCase[] => [
  ...family.examples,
  ...(family.arbitrary ? fc.sample(family.arbitrary, { numRuns: RANDOM_CASES, seed: 7 }) : []),
];
const byRule = (rule: string) => casesOf(families.find((f) => f.rule === rule)!);

const schemaErrors = (c: TestCase) => registry().validate(REQUEST_SCHEMA[c.operation], c.body);
/** What the faithful embedded server refuses in a body (JSON round trip: what the wire carries). */
const serverRefuses = (c: TestCase) => violations(c.operation, JSON.parse(JSON.stringify(c.body)) as Record<string, unknown>, FAITHFUL);
const codePoints = (s: string) => [...s].length;
const metadataOf = (c: TestCase) => (c.body as { metadata: Record<string, string> }).metadata;
const longest = (m: Record<string, string>) => Math.max(...Object.entries(m).flat().map(codePoints));
const show = (c: TestCase) => `${c.label}: ${JSON.stringify(c.body).slice(0, 300)}`;

describe('valid twins', () => {
  it('cases about HTTP around the operation name their rule and carry no twin', () => {
    expect(aroundFamilies.map((f) => f.rule).sort()).toEqual(['fa.empty-body', 'fa.other-methods-refused', 'id.empty-body', 'id.other-methods-refused']);
    for (const c of aroundFamilies.flatMap(casesOf)) {
      expect(c.around, c.label).toBe(aroundFamilies.find((f) => f.examples.includes(c))?.rule);
      expect(c.control, c.label).toBeUndefined();
    }
  });

  it.each(bodyFamilies.map((f) => [f.rule, f] as const))('%s: every invalid and boundary case has a valid twin', (_rule, family) => {
    for (const c of casesOf(family)) {
      if (c.open) {
        // An open case's twin is guaranteed: the same body with the sample's value in the one field.
        expect(c.control?.open, c.label).toBeUndefined();
        expect(c.control?.mode).toBe('valid');
        expect(c.control?.label).toBe(`${c.label} (valid twin)`);
        expect(JSON.stringify(c.control?.body)).not.toBe(JSON.stringify(c.body));
        continue;
      }
      if (c.mode !== 'invalid' && c.mode !== 'boundary') {
        expect(c.control, c.label).toBeUndefined();
        continue;
      }
      const twin = c.control;
      expect(twin, c.label).toBeDefined();
      if (!twin) continue;
      expect(twin.operation).toBe(c.operation);
      expect(['valid', 'boundary']).toContain(twin.mode);
      if (twin.mode === 'boundary') expect(twin.exercises, twin.label).toBeDefined();
      else expect(twin.exercises).toBeUndefined();
      expect(twin.violates).toBeUndefined();
      // A twin on another limit has a valid twin of its own, one level deep; a valid twin has none.
      if (twin.mode === 'boundary') {
        expect(twin.control?.mode, twin.label).toBe('valid');
        expect(twin.control?.control).toBeUndefined();
      } else expect(twin.control).toBeUndefined();
      expect(twin.rawBody).toBeUndefined();
      expect(twin.label).toBe(`${c.label} (valid twin)`);
      expect(twin.fiatAccountId).toBeUndefined();
      expect(schemaErrors(twin), show(twin)).toEqual([]);
      expect(serverRefuses(twin), show(twin)).toEqual([]);
    }
  });

  it.each(bodyFamilies.map((f) => [f.rule, f] as const))('%s: the faithful embedded server accepts every valid and boundary body', (_rule, family) => {
    for (const c of casesOf(family)) {
      if (c.mode !== 'valid' && c.mode !== 'boundary') continue;
      // A null in an update is open: this server's default reading refuses it (update-nulls=ignored takes it).
      if (c.open?.kind === 'null-or-empty' && c.open.value === 'null') continue;
      expect(serverRefuses(c), show(c)).toEqual([]);
    }
  });

  it.each(bodyFamilies.map((f) => [f.rule, f] as const))('%s: the faithful embedded server refuses every invalid body', (_rule, family) => {
    for (const c of casesOf(family)) {
      if (c.mode !== 'invalid' || c.rawBody !== undefined || c.violates === 'fa.malformed-id-4xx') continue;
      expect(serverRefuses(c), show(c)).not.toEqual([]);
    }
  });

  it('over-pairs twins keep exactly 6 pairs and sit on the max-pairs limit', () => {
    for (const c of byRule('fa.metadata.over-pairs-rejected')) {
      expect(Object.keys(metadataOf(c.control!))).toHaveLength(6);
      expect(c.control!.exercises).toBe('fa.metadata.max-pairs-accepted');
      // The first 6 pairs of the case, nothing else changed.
      expect(Object.entries(metadataOf(c.control!))).toEqual(Object.entries(metadataOf(c)).slice(0, 6));
      const { metadata: _a, ...rest } = c.body as Record<string, unknown>;
      const { metadata: _b, ...twinRest } = c.control!.body as Record<string, unknown>;
      expect(twinRest).toEqual(rest);
    }
  });

  it('max-pairs twins drop one pair', () => {
    for (const c of byRule('fa.metadata.max-pairs-accepted')) {
      expect(c.control!.mode).toBe('valid');
      expect(Object.keys(metadataOf(c.control!))).toHaveLength(5);
    }
  });

  it('over-length twins cut the long text to exactly 100 code points and sit on the max-length limit', () => {
    for (const c of byRule('fa.metadata.over-length-rejected')) {
      expect(longest(metadataOf(c.control!)), c.label).toBe(100);
      expect(c.control!.exercises).toBe('fa.metadata.max-length-accepted');
      expect(Object.keys(metadataOf(c.control!))).toHaveLength(Object.keys(metadataOf(c)).length);
    }
  });

  it('max-length twins replace the long text with short ASCII, so byte and UTF-16 counters accept them', () => {
    for (const c of byRule('fa.metadata.max-length-accepted')) {
      const twin = metadataOf(c.control!);
      expect(c.control!.mode).toBe('valid');
      expect(longest(twin)).toBeLessThanOrEqual(12);
      const long = Object.entries(metadataOf(c))
        .flat()
        .find((s) => codePoints(s) === 100)!;
      expect(Object.entries(twin).flat()).not.toContain(long);
      for (const s of Object.entries(twin).flat()) {
        expect(Buffer.byteLength(s)).toBeLessThanOrEqual(100);
        expect(s.length).toBeLessThanOrEqual(100);
      }
    }
  });

  it('tax twins add one full tax_details entry and keep the flag', () => {
    for (const rule of ['id.tax.absent-rejected', 'id.tax.absent-false-rejected', 'id.tax.not-required-accepted']) {
      for (const c of byRule(rule)) {
        const body = c.body as Record<string, unknown>;
        const twin = c.control!.body as Record<string, unknown>;
        expect(body.tax_details).toBeUndefined();
        expect(twin.tax_details).toHaveLength(1);
        expect(Object.keys((twin.tax_details as object[])[0]).sort()).toEqual(['tax_payer_country', 'tax_payer_id']);
        expect(twin.tax_details_not_required).toBe(body.tax_details_not_required);
        expect(c.control!.mode).toBe('valid');
      }
    }
  });

  it('date twins change date_of_birth only', () => {
    for (const c of byRule('id.dob.invalid-rejected')) {
      const person = (c.body as { person_details: Record<string, unknown> }).person_details;
      const twinPerson = (c.control!.body as { person_details: Record<string, unknown> }).person_details;
      expect(twinPerson.date_of_birth).not.toBe(person.date_of_birth);
      expect({ ...twinPerson, date_of_birth: undefined }).toEqual({ ...person, date_of_birth: undefined });
    }
  });

  it('wrong-type twins are the valid body the wrong type was put into', () => {
    for (const rule of ['fa.wrong-types-rejected', 'id.wrong-types-rejected']) {
      for (const c of byRule(rule)) expect(c.control!.mode, c.label).toBe('valid');
    }
  });

  it('malformed ids and bodies have a twin sent to a real account with an ordinary body', () => {
    for (const c of byRule('fa.malformed-id-4xx')) {
      expect(c.fiatAccountId).toBeDefined();
      expect(c.control!.fiatAccountId).toBeUndefined();
      expect(c.control!.body).toEqual(c.body);
    }
    for (const c of byRule('fa.rejection-4xx')) expect(c.control!.body).toEqual({});
    for (const c of byRule('id.rejection-4xx')) expect(c.control!.body).toMatchObject({ person_details: {}, tax_details_not_required: true });
  });
});

describe('guaranteed bodies on a strict server', () => {
  it.each(['fa.valid-accepted', 'id.valid-accepted'])(
    "%s: every guaranteed case and every open case's twin passes the open-point restrictions of the vendor's document",
    (rule) => {
      const family = families.find((f) => f.rule === rule)!;
      const cases = [...family.examples, ...fc.sample(family.arbitrary!, { numRuns: 1500, seed: 3 })];
      for (const c of cases) {
        const guaranteed = c.open ? c.control! : c;
        // The sample create request sends the document's own codes: accepted too.
        expect(strictRefusal(c.operation, guaranteed.body as Record<string, unknown>), show(guaranteed)).toBeUndefined();
      }
    },
  );
});

describe('twin labels', () => {
  it('carry "(valid twin)" once, the twin of a twin too', () => {
    const c: TestCase = { operation: 'updateFiatAccount', mode: 'invalid', label: 'metadata with 7 pairs', body: {} };
    const paired = withControl(c, { metadata: {} }, { exercises: 'fa.metadata.max-pairs-accepted', twinOfTwin: { metadata: {} } });
    expect(paired.control!.label).toBe('metadata with 7 pairs (valid twin)');
    expect(paired.control!.control!.label).toBe('metadata with 7 pairs (valid twin)');
    expect(twinLabel('x (valid twin)')).toBe('x (valid twin)');
  });

  it('of every generated case and its twins hold the suffix at most once', () => {
    const labels = (c: TestCase | undefined): string[] => (c ? [c.label, ...labels(c.control)] : []);
    const all = families.flatMap((f) => casesOf(f).flatMap(labels));
    expect(all.some((l) => l.endsWith('(valid twin)'))).toBe(true);
    expect(all.filter((l) => l.includes('(valid twin) (valid twin)'))).toEqual([]);
  });
});
