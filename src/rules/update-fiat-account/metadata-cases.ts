/**
 * Fiat account metadata (sections 4.1 and 8): at most 6 pairs, keys and values of at most 100
 * characters. The limits are read from the schema, so generators and validation cannot drift.
 */
import fc from 'fast-check';
import { registry } from '../../schema/registry.ts';
import { CHARACTER_CLASSES, type CharacterClass, anyCharacter, characterOf, repeatCodePoints, text } from '../cases/text.ts';

export type Metadata = Record<string, string>;

function readLimits(): { maxPairs: number; maxLength: number } {
  const schema = registry().schema('fiat-account-metadata') as {
    maxProperties?: number;
    propertyNames?: { maxLength?: number };
  };
  const maxPairs = schema.maxProperties;
  const maxLength = schema.propertyNames?.maxLength;
  if (maxPairs === undefined || maxLength === undefined) {
    throw new Error('schemas/fiat-account-metadata.schema.json must state maxProperties and propertyNames.maxLength');
  }
  return { maxPairs, maxLength };
}

/** The documented limits: 6 pairs, 100 characters. */
export const METADATA_LIMITS = readLimits();

/** Keys that would change an object's prototype in a careless server; never sent. */
const safeKey = (key: string) => key !== '__proto__';

/** Between `min` and `max` pairs with distinct keys; shrinks towards fewer, shorter pairs. */
export function metadataArbitrary(min: number, max: number, key: fc.Arbitrary<string>, value: fc.Arbitrary<string>): fc.Arbitrary<Metadata> {
  return fc
    .uniqueArray(fc.tuple(key.filter(safeKey), value), { minLength: min, maxLength: max, selector: ([k]) => k })
    .map((pairs) => Object.fromEntries(pairs));
}

/** `count` ASCII pairs k1..kN, the plainest metadata of that size. */
export const plainPairs = (count: number): Metadata => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i + 1}`, `v${i + 1}`]));

export const CLASSES = Object.keys(CHARACTER_CLASSES) as CharacterClass[];

/** Where a long string sits: a key beside the value 'v', or the value of k1 (a key of plainPairs). */
export type LongPartPlace = 'key' | 'value';

/** `others` with one pair holding `long` as its key or as the value of k1. */
export const placeLongPart = (part: LongPartPlace, long: string, others: Metadata = {}): Metadata =>
  part === 'key' ? { ...others, [long]: 'v' } : { ...others, k1: long };

/**
 * One pair whose key (or value) is `length` code points of one character class. A long value
 * sits under k1, a key of plainPairs: under merge semantics it then adds no pair to an account.
 */
export function pairWithLongPart(part: LongPartPlace, cls: CharacterClass, length: number): Metadata {
  return placeLongPart(part, repeatCodePoints(cls, length));
}

/** Metadata with one long key or value, and what it is made of, so a twin can swap the long text. */
export interface LongPartMetadata {
  part: LongPartPlace;
  long: string;
  others: Metadata;
  metadata: Metadata;
}

/** One pair whose key or value has exactly `length` random code points, beside up to 5 short pairs. */
export function metadataWithLongPart(length: number): fc.Arbitrary<LongPartMetadata> {
  return fc
    .record({
      part: fc.constantFrom('key' as const, 'value' as const),
      long: fc.oneof(text(length, length, anyCharacter), ...CLASSES.map((cls) => text(length, length, characterOf(cls)))),
      others: metadataArbitrary(
        0,
        METADATA_LIMITS.maxPairs - 1,
        text(1, 10).map((k) => `o-${k}`),
        text(0, 10),
      ),
    })
    .map(({ part, long, others }) => ({ part, long, others, metadata: placeLongPart(part, long, others) }));
}
