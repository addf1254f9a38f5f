/**
 * The generators say what they mean: every valid or boundary case is valid under the request
 * schema, every invalid case breaks it, and the boundary cases sit exactly on the limits.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { caseFamilies } from '../../../src/rules/cases/families.ts';
import { registry } from '../../../src/schema/registry.ts';
import type { TestCase } from '../../../src/core/case.ts';
import { METADATA_LIMITS } from '../../../src/rules/update-fiat-account/metadata-cases.ts';

const REQUEST_SCHEMA = { updateFiatAccount: 'update-fiat-account-request', createIdentity: 'create-identity-request' } as const;
const families = caseFamilies();
const SAMPLES_PER_FAMILY = 60;

/** The examples and a seeded sample of random cases of a family. */
const casesOf = (family: (typeof families)[number]): TestCase[] => [
  ...family.examples,
  ...(family.arbitrary ? fc.sample(family.arbitrary, { numRuns: SAMPLES_PER_FAMILY, seed: 42 }) : []),
];

const schemaErrors = (c: TestCase) => registry().validate(REQUEST_SCHEMA[c.operation], c.body);
const codePoints = (s: string) => [...s].length;
const parsesToObject = (raw: string) => {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
};

describe('case families', () => {
  it('read the documented limits from the schema', () => {
    expect(METADATA_LIMITS).toEqual({ maxPairs: 6, maxLength: 100 });
  });

  it.each(families.map((f) => [f.rule, f] as const))('%s: every case carries its intent', (_rule, family) => {
    for (const c of casesOf(family)) {
      expect(c.label).not.toBe('');
      if (c.mode === 'invalid') expect(c.violates).toBe(family.rule);
      if (c.mode === 'boundary') expect(c.exercises).toBe(family.rule);
    }
  });

  it.each(families.map((f) => [f.rule, f] as const))('%s: valid and boundary cases pass the request schema, invalid bodies fail it', (_rule, family) => {
    for (const c of casesOf(family)) {
      if (c.around !== undefined) {
        // HTTP around the operation: the defect is the method or the empty body; a body sent is a valid one.
        if (c.body !== undefined) expect(schemaErrors(c), c.label).toEqual([]);
        else expect(c.rawBody ?? '', c.label).toBe('');
        continue;
      }
      if (c.rawBody !== undefined) {
        expect(parsesToObject(c.rawBody), c.label).toBe(false);
        continue;
      }
      if (c.violates === 'fa.malformed-id-4xx') continue; // the body is fine, the path is not
      // A null in an update is open (refused or ignored), though the types refuse it: only its twin must pass.
      if (c.open?.kind === 'null-or-empty' && c.open.value === 'null') {
        expect(schemaErrors(c), c.label).not.toEqual([]);
        continue;
      }
      if (c.mode === 'invalid') expect(schemaErrors(c), `${c.label}: ${JSON.stringify(c.body).slice(0, 300)}`).not.toEqual([]);
      else expect(schemaErrors(c), c.label).toEqual([]);
    }
  });

  it('metadata boundary cases sit exactly on the limits, in code points', () => {
    const byRule = (rule: string) => casesOf(families.find((f) => f.rule === rule)!).map((c) => (c.body as { metadata: Record<string, string> }).metadata);
    for (const m of byRule('fa.metadata.max-pairs-accepted')) expect(Object.keys(m)).toHaveLength(6);
    for (const m of byRule('fa.metadata.over-pairs-rejected')) expect(Object.keys(m).length).toBeGreaterThan(6);
    const longest = (m: Record<string, string>) => Math.max(...Object.entries(m).flat().map(codePoints));
    for (const m of byRule('fa.metadata.max-length-accepted')) expect(longest(m)).toBe(100);
    for (const m of byRule('fa.metadata.over-length-rejected')) expect(longest(m)).toBeGreaterThan(100);
  });

  it('exercise multi-byte and astral characters at the limit', () => {
    const keysAndValues = families
      .filter((f) => f.rule === 'fa.metadata.max-length-accepted')
      .flatMap((f) => f.examples)
      .flatMap((c) => Object.entries((c.body as { metadata: Record<string, string> }).metadata).flat());
    const atLimit = keysAndValues.filter((s) => codePoints(s) === 100);
    expect(atLimit.some((s) => Buffer.byteLength(s) === 200)).toBe(true); // 2-byte characters
    expect(atLimit.some((s) => Buffer.byteLength(s) === 300)).toBe(true); // 3-byte characters
    expect(atLimit.some((s) => s.length === 200 && Buffer.byteLength(s) === 400)).toBe(true); // astral: 2 UTF-16 units each
  });

  it('keep their length under Unicode normal form C, so a server that normalizes text counts the same', () => {
    const strings = (value: unknown): string[] =>
      typeof value === 'string' ? [value] : value && typeof value === 'object' ? Object.entries(value).flatMap(([k, v]) => [k, ...strings(v)]) : [];
    for (const family of families.filter((f) => f.rule.startsWith('fa.metadata'))) {
      for (const s of casesOf(family).flatMap((c) => strings(c.body))) expect(codePoints(s.normalize('NFC')), JSON.stringify(s)).toBe(codePoints(s));
    }
  });

  it("send no field that holds one of the document's placeholders", () => {
    const sent = JSON.stringify(families.flatMap((f) => f.examples).map((c) => c.body));
    expect(sent).not.toMatch(/"<[^>]+>"/);
    expect(sent).toContain('PASSTHROUGH'); // the sample itself is still sent
  });

  it('generate the same cases from the same seed', () => {
    const valid = families.find((f) => f.rule === 'fa.valid-accepted')!.arbitrary!;
    expect(fc.sample(valid, { numRuns: 5, seed: 9 })).toEqual(fc.sample(valid, { numRuns: 5, seed: 9 }));
    expect(fc.sample(valid, { numRuns: 5, seed: 9 })).not.toEqual(fc.sample(valid, { numRuns: 5, seed: 10 }));
  });
});
