/**
 * Text for payloads, counted as the document counts characters: in Unicode code points. Each
 * class is a range of code points with a different cost in UTF-8 bytes and UTF-16 units, so a
 * server that counts bytes or UTF-16 units shows itself at exactly 100 characters.
 */
import fc from 'fast-check';

/** Code point ranges; none holds a control character or a lone surrogate. */
export const CHARACTER_CLASSES = {
  /** 1 UTF-8 byte, 1 UTF-16 unit. */
  ascii: [0x20, 0x7e],
  /** 2 UTF-8 bytes (é, ß, ł ...). */
  latin: [0xc0, 0x17f],
  /** 3 UTF-8 bytes (CJK ideographs). */
  cjk: [0x4e00, 0x9fff],
  /** 4 UTF-8 bytes and 2 UTF-16 units (emoji): a UTF-16 counter sees 200 in 100 of them. */
  astral: [0x1f600, 0x1f64f],
  /**
   * Combining marks: one code point each, no grapheme of their own. These (for symbols) compose
   * with nothing, so a server that stores text in normal form C keeps their count; U+0301 after
   * an e would become one é and turn a 101-character case into a valid one.
   */
  combining: [0x20d0, 0x20f0],
  /** Right-to-left script (Hebrew). */
  rtl: [0x5d0, 0x5ea],
} as const satisfies Record<string, readonly [number, number]>;

export type CharacterClass = keyof typeof CHARACTER_CLASSES;

export const characterOf = (cls: CharacterClass): fc.Arbitrary<string> => {
  const [min, max] = CHARACTER_CLASSES[cls];
  return fc.integer({ min, max }).map((cp) => String.fromCodePoint(cp));
};

/** ASCII first: fast-check shrinks towards the first arbitrary of a oneof. */
export const anyCharacter: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: characterOf('ascii'), weight: 4 },
  ...(['latin', 'cjk', 'astral', 'combining', 'rtl'] as const).map((cls) => ({ arbitrary: characterOf(cls), weight: 1 })),
);

/** A string of between `min` and `max` code points. */
export const text = (min: number, max: number, character: fc.Arbitrary<string> = anyCharacter): fc.Arbitrary<string> =>
  fc.array(character, { minLength: min, maxLength: max }).map((chars) => chars.join(''));

/** One representative character per class, for the deterministic boundary examples. */
export const SAMPLE_CHARACTER: Record<CharacterClass, string> = {
  ascii: 'a',
  latin: 'é',
  cjk: '中',
  astral: '😀',
  combining: '\u20d7',
  rtl: 'א',
};

/** `length` code points of one class; combining marks ride on a base letter (a + U+20D7). */
export function repeatCodePoints(cls: CharacterClass, length: number): string {
  if (cls === 'combining') return 'a\u20d7'.repeat(Math.floor(length / 2)) + (length % 2 ? 'a' : '');
  return SAMPLE_CHARACTER[cls].repeat(length);
}

/**
 * Lengths of free text the document does not limit, in code points: every band a server might
 * cut a corner at occurs in a standard run (empty, short, around 64, 100, 128, 200, 255/256, and several
 * hundred). Short text stays the most frequent; fast-check shrinks towards the first band.
 */
export const LENGTH_BANDS: readonly { min: number; max: number; weight: number }[] = [
  { min: 1, max: 12, weight: 6 },
  { min: 0, max: 0, weight: 1 },
  { min: 13, max: 40, weight: 2 },
  { min: 62, max: 66, weight: 1 },
  { min: 99, max: 101, weight: 1 },
  { min: 127, max: 129, weight: 1 },
  { min: 199, max: 201, weight: 1 },
  { min: 254, max: 257, weight: 2 },
  { min: 280, max: 320, weight: 1 },
];

/** The longest free text generated, in code points. */
export const MAX_FREE_TEXT = Math.max(...LENGTH_BANDS.map((b) => b.max));

/** A white-space end becomes a letter: the length stays what the band chose. */
const trimless = (s: string): string => s.replace(/^\s/u, 'x').replace(/\s$/u, 'x');

/**
 * Free text of fields the document types as string but does not limit: 0 to ~300 code points of
 * every character class, any letter case, never with white space at either end (a server may
 * trim it; the document says nothing either way). `maxLength` caps the bands (metadata keys).
 */
export function freeText(maxLength: number = MAX_FREE_TEXT, character: fc.Arbitrary<string> = anyCharacter): fc.Arbitrary<string> {
  const kept = LENGTH_BANDS.filter((b) => b.max <= maxLength);
  // A cap inside the bands gets a band of its own just under it, so the cap itself occurs.
  const bands = kept.length < LENGTH_BANDS.length ? [...kept, { min: Math.max(0, maxLength - 3), max: maxLength, weight: 1 }] : kept;
  return fc.oneof(...bands.map((b) => ({ arbitrary: text(b.min, b.max, character).map(trimless), weight: b.weight })));
}

/** A word in any letter case: as given, lower, upper, capitalized or mixed. */
export function anyCase(word: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.tuple(word, fc.constantFrom('upper', 'lower', 'capital', 'mixed', 'upper'), fc.integer({ min: 0, max: 0xffff })).map(([w, kind, bits]) => {
    if (kind === 'upper') return w.toUpperCase();
    if (kind === 'lower') return w.toLowerCase();
    if (kind === 'capital') return w.charAt(0).toUpperCase() + w.slice(1).toLowerCase();
    // Mixed: the letters' case from the bits, so "aBa" and "AbA" both occur.
    return [...w].map((c, i) => ((bits >> (i % 16)) & 1 ? c.toUpperCase() : c.toLowerCase())).join('');
  });
}
