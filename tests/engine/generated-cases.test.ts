import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { caseFamilies } from '../../src/rules/cases/families.ts';
import { generatedCases, propertyParameters } from '../../src/engine/generated-cases.ts';
import type { TestCase } from '../../src/core/case.ts';

const SEED = 42;
const RUNS = 20;

/** What fc.check itself generates for the family, examples first. */
function checked(family: ReturnType<typeof caseFamilies>[number]): TestCase[] {
  const seen: TestCase[] = [];
  fc.check(
    fc.property(family.arbitrary!, (c) => (seen.push(c), true)),
    propertyParameters(family, SEED, RUNS),
  );
  return seen;
}

describe('generatedCases', () => {
  for (const family of caseFamilies().filter((f) => f.arbitrary)) {
    it(`${family.rule}: the random cases of fc.check, one at a time, with their replay paths`, async () => {
      const expected = checked(family);
      const stream = generatedCases(family, SEED, RUNS);
      const got: { index: number; testCase: TestCase }[] = [];
      for (let next = await stream.next(); next; next = await stream.next()) got.push(next);
      expect(got.map((g) => g.index)).toEqual(Array.from({ length: RUNS }, (_, i) => family.examples.length + i));
      expect(got.map((g) => g.testCase)).toEqual(expected.slice(family.examples.length));
      // fast-check replays a case from its path: the shrinker starts there.
      const last = got[got.length - 1];
      let replayed: TestCase | undefined;
      fc.check(
        fc.property(family.arbitrary!, (c) => ((replayed ??= c), false)),
        { ...propertyParameters(family, SEED, RUNS), path: String(last.index) },
      );
      expect(replayed).toEqual(last.testCase);
    });
  }

  it('ends at once for a family without random cases', async () => {
    const family = caseFamilies().find((f) => !f.arbitrary)!;
    expect(await generatedCases(family, SEED, RUNS).next()).toBeUndefined();
    expect(await generatedCases(caseFamilies()[0], SEED, 0).next()).toBeUndefined();
  });
});
