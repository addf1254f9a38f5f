/**
 * How many terminal columns a string takes, and the string cut to fit a width: what keeps the
 * progress line on one row. Counted per grapheme (Intl.Segmenter): a combining mark or a
 * zero-width joiner adds nothing, an East Asian wide or fullwidth character and an emoji take
 * two columns, anything else one. Escape sequences (colour) take none.
 */

// eslint-disable-next-line no-control-regex
const ESCAPE = /\u001b\[[0-9;?]*[A-Za-z]/g;

/** Code points shown two columns wide: East Asian Wide and Fullwidth (UAX #11), the common blocks. */
const WIDE_RANGES: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f], // Hangul Jamo initials
  [0x231a, 0x231b],
  [0x2329, 0x232a],
  [0x23e9, 0x23ec],
  [0x23f0, 0x23f0],
  [0x23f3, 0x23f3],
  [0x25fd, 0x25fe],
  [0x2614, 0x2615],
  [0x2e80, 0x303e], // CJK radicals, Kangxi, CJK symbols and punctuation
  [0x3041, 0x33ff], // Hiragana, Katakana, Bopomofo, Hangul compatibility, CJK compatibility
  [0x3400, 0x4dbf], // CJK extension A
  [0x4e00, 0x9fff], // CJK unified ideographs
  [0xa000, 0xa4cf], // Yi
  [0xa960, 0xa97f], // Hangul Jamo extended A
  [0xac00, 0xd7a3], // Hangul syllables
  [0xf900, 0xfaff], // CJK compatibility ideographs
  [0xfe10, 0xfe19], // vertical forms
  [0xfe30, 0xfe6f], // CJK compatibility forms, small form variants
  [0xff00, 0xff60], // fullwidth forms
  [0xffe0, 0xffe6],
  [0x16fe0, 0x18cff], // Tangut, Khitan
  [0x1b000, 0x1b2ff], // Kana supplement, Nushu
  [0x1f200, 0x1f2ff], // enclosed ideographic supplement
  [0x20000, 0x3fffd], // CJK extensions B and beyond
];

const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}\p{Cc}]+$/u;
const EMOJI = /\p{Emoji_Presentation}|\p{Extended_Pictographic}\uFE0F|\p{Regional_Indicator}/u;

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

function isWide(codePoint: number): boolean {
  for (const [from, to] of WIDE_RANGES) {
    if (codePoint < from) return false;
    if (codePoint <= to) return true;
  }
  return false;
}

/** Columns one grapheme takes: 0, 1 or 2. */
function graphemeWidth(grapheme: string): number {
  if (ZERO_WIDTH.test(grapheme)) return 0;
  if (EMOJI.test(grapheme)) return 2;
  return isWide(grapheme.codePointAt(0)!) ? 2 : 1;
}

/** The text without its escape sequences. */
export const stripEscapes = (text: string): string => text.replace(ESCAPE, '');

/** Terminal columns `text` takes (escape sequences take none). */
export function displayWidth(text: string): number {
  let width = 0;
  for (const { segment } of segmenter.segment(stripEscapes(text))) width += graphemeWidth(segment);
  return width;
}

/**
 * `text` (no escape sequences) cut to at most `width` columns, never inside a grapheme, ending
 * with `…` when cut; unchanged when it fits.
 */
export function fitWidth(text: string, width: number): string {
  if (width <= 0) return '';
  if (displayWidth(text) <= width) return text;
  let used = 0;
  let kept = '';
  for (const { segment } of segmenter.segment(text)) {
    const w = graphemeWidth(segment);
    if (used + w > width - 1) break;
    used += w;
    kept += segment;
  }
  return kept + '…';
}
