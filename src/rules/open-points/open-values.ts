/**
 * Values on the open points of the document, each with the description the observed contract
 * records: text longer than the samples' or in another alphabet, other codes, other letter cases,
 * other formats. Text comes as a prefix of one fixed sequence per alphabet, so of two texts of an
 * alphabet the shorter holds only characters of the longer: when a target refuses one and accepts
 * a shorter and a longer one, neither a length limit nor a character set explains the refusal.
 */
import fc from 'fast-check';
import type { OpenProbe } from '../../core/open-point.ts';
import { LENGTH_BANDS } from '../cases/text.ts';

/** A value to send, and what it is. */
export interface OpenValue {
  value: unknown;
  probe: Omit<OpenProbe, 'field' | 'kind'>;
}

/**
 * One sequence per alphabet. `letters` is the samples' own alphabet (the length probes use it);
 * the others are alphabets a server may refuse. Combining marks ride on a base letter, in pairs.
 */
export const ALPHABETS = {
  letters: 'Abcdefghijklmnopqrstuvwxyz',
  latin: 'ëéèêàâäçñöüßøåæíóúýÉÈ',
  'latin-extended': 'Łłőűčšžćęąśźżňřťďľĺŕ',
  cjk: '山田太郎中文名字李王张刘陈杨黄赵吴周徐孙',
  astral: '😀😁😂😃😄😅😆😇😈😉😊😋😌😍😎😏',
  combining: 'a\u20d7e\u20d7o\u20d7u\u20d7i\u20d7',
  rtl: 'אבגדהוזחטיכלמנסעפצקרשת',
} as const;
export type Alphabet = keyof typeof ALPHABETS;

/** Alphabets whose prefixes are all whole text (no dangling mark): the neighbour check compares them. */
export const PREFIX_ALPHABETS: ReadonlySet<string> = new Set<Alphabet>(['letters', 'latin', 'latin-extended', 'cjk', 'astral', 'combining', 'rtl']);

/** The first `length` code points of an alphabet's sequence, repeated as needed; combining text in whole pairs. */
export function alphabetText(alphabet: Alphabet, length: number): string {
  const points = [...ALPHABETS[alphabet]];
  const even = alphabet === 'combining' ? length - (length % 2) : length;
  return Array.from({ length: even }, (_, i) => points[i % points.length]).join('');
}

/** Text of `length` letters: a length probe. */
export const longText = (length: number): OpenValue => ({
  value: alphabetText('letters', length),
  probe: { value: length === 0 ? 'empty' : `${length} characters`, length, alphabet: 'letters' },
});

/** Text of one alphabet: an alphabet probe. */
export const alphabetValue = (alphabet: Alphabet, length: number): OpenValue => {
  const value = alphabetText(alphabet, length);
  return { value, probe: { value: alphabet, alphabet, length: [...value].length } };
};

/** The free-text lengths beyond the samples' short words (1 to 12 letters): empty, and every band from 13 on. */
const LONGER_BANDS = LENGTH_BANDS.filter((b) => b.max === 0 || b.min > 12);

export const longTextValue: fc.Arbitrary<OpenValue> = fc.oneof(
  ...LONGER_BANDS.map((b) => ({ weight: b.weight, arbitrary: fc.integer({ min: b.min, max: b.max }).map(longText) })),
);

/** Other alphabets than the samples' letters: short text of one of them, or whole names with inner punctuation. */
const OTHER_ALPHABETS = Object.keys(ALPHABETS).filter((a) => a !== 'letters') as Alphabet[];
const PUNCTUATED = ["O'Brien", 'Smith-Jones', 'Mary Ann', 'St. John', 'Jr.', 'Anne-Marie', 'D’Arcy'];
const SYMBOLS = ['#1', 'A&B', 'x@y', 'Ada!', '50%', 'a_b', 'Ada (x)'];
const DIGITS = ['42', '007', 'Ada2'];

export const otherAlphabetValue: fc.Arbitrary<OpenValue> = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(fc.constantFrom(...OTHER_ALPHABETS), fc.integer({ min: 2, max: 12 })).map(([a, n]) => alphabetValue(a, n)) },
  { weight: 1, arbitrary: fc.constantFrom(...PUNCTUATED).map((value) => ({ value, probe: { value: 'punctuation', alphabet: 'punctuation' } })) },
  { weight: 1, arbitrary: fc.constantFrom(...SYMBOLS).map((value) => ({ value, probe: { value: 'symbols', alphabet: 'symbols' } })) },
  { weight: 1, arbitrary: fc.constantFrom(...DIGITS).map((value) => ({ value, probe: { value: 'digits', alphabet: 'digits' } })) },
);

/** A value whose description is the value itself (codes, letter cases). */
export const named = (value: string): OpenValue => ({ value, probe: { value } });

/** A null, and an empty string: what an update may refuse or ignore (the vendor's OpenAPI ignores both). */
export const NULL_VALUE: OpenValue = { value: null, probe: { value: 'null' } };
export const EMPTY_TEXT: OpenValue = { value: '', probe: { value: 'empty text' } };

/** A value described by its format's name (the digits inside vary). */
export const formatted =
  (format: string) =>
  (value: unknown): OpenValue => ({ value, probe: { value: format } });

/** `word` in other letter cases than the sample's: lower, capitalised, mixed. */
export const otherCases = (word: string): string[] =>
  [...new Set([word.toLowerCase(), word.charAt(0) + word.slice(1).toLowerCase(), [...word].map((c, i) => (i % 2 ? c : c.toLowerCase())).join('')])].filter(
    (w) => w !== word,
  );

/**
 * Values a server that normalises what it stores would change (docs/design.md, "guaranteed,
 * forbidden, open"): spaces around or doubled inside, another letter case, the composed or the
 * decomposed Unicode form, leading zeros. Accepted, each must come back as sent (another Unicode
 * normal form excepted: the checks compare text in form C).
 */
export const outerSpaces = (text: string): OpenValue => ({ value: ` ${text} `, probe: { value: 'outer spaces' } });
export const innerSpaces = (first: string, second: string): OpenValue => ({ value: `${first}  ${second}`, probe: { value: 'inner double space' } });

/** `text` in upper case, lower case, or with every other letter's case flipped. */
export const caseVariant = (text: string, variant: 'upper case' | 'lower case' | 'mixed case'): OpenValue => ({
  value:
    variant === 'upper case'
      ? text.toUpperCase()
      : variant === 'lower case'
        ? text.toLowerCase()
        : [...text].map((c, i) => (i % 2 ? c.toUpperCase() : c.toLowerCase())).join(''),
  probe: { value: variant },
});

/** Names whose accented letters have a composed and a decomposed form (ø and ß have none: not here). */
export const ACCENTED_NAMES = ['Zoë', 'José', 'Renée', 'Müller', 'Ångström', 'Nguyễn', 'Chloé', 'Søren Kierkegård'];

/** A name in normal form C (é one code point) or D (e and U+0301): the same text, spelled otherwise. */
export const normalForm = (name: string, form: 'NFC' | 'NFD'): OpenValue => {
  const alphabet = form === 'NFC' ? 'composed' : 'decomposed';
  return { value: name.normalize(form), probe: { value: `${alphabet} (${form})`, alphabet } };
};

/** `value` with its first `zeros` digits made 0, the layout kept: "123-45-6789" becomes "003-45-6789". */
export const leadingZeros = (value: string, zeros = 2): OpenValue => {
  let left = zeros;
  return { value: value.replace(/\d/g, (d) => (left-- > 0 ? '0' : d)), probe: { value: 'leading zeros' } };
};

/** Names and free text as a normalising server would change them: every kind but leading zeros. */
export function normalisedText(words: fc.Arbitrary<string>): {
  spacing: fc.Arbitrary<OpenValue>;
  cases: fc.Arbitrary<OpenValue>;
  forms: fc.Arbitrary<OpenValue>;
} {
  return {
    spacing: fc.oneof(
      words.map(outerSpaces),
      fc.tuple(words, words).map(([a, b]) => innerSpaces(a, b)),
    ),
    cases: fc
      .tuple(words, fc.constantFrom('upper case', 'lower case', 'mixed case') as fc.Arbitrary<'upper case' | 'lower case' | 'mixed case'>)
      .map(([w, v]) => caseVariant(w, v)),
    forms: fc.tuple(fc.constantFrom(...ACCENTED_NAMES), fc.constantFrom('NFC', 'NFD') as fc.Arbitrary<'NFC' | 'NFD'>).map(([n, f]) => normalForm(n, f)),
  };
}
