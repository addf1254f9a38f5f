/**
 * --redact-personal: the personal values of exchanges.har's bodies (personal-values.ts) replaced
 * by stand-ins of the same shape (stand-ins.ts) in every file of the bundle, in every spelling a
 * file gives them: raw, JSON-escaped (once, and twice for a body inside the HAR's JSON), with
 * `\uXXXX` escapes, HTML- and XML-escaped, in a markdown cell, single-quoted for the shell in a
 * curl line, URL-encoded. One pass per file over a trie of every spelling, so a stand-in is never
 * replaced again. A value shorter than SHORT_VALUE is replaced only where it is quoted or, when it
 * holds a letter and at least WORD_VALUE characters, where it stands as a whole word (a case's
 * label names the owner "Grace Hopper" unquoted; a name "Al" must not mangle "Alert", nor a
 * probe's "28" a date of birth or a count). No value counts where a digit it starts or ends with
 * is glued to another digit: that is a longer number (a sort code "19-10-04" inside the timestamp
 * "2019-10-04T21:25:44Z"), and replacing it would break a value the report judged. Then every file is searched for every original spelling again:
 * one that remains stops the bundle (a UsageError, no bundle written), naming the file, never the value.
 */
import { UsageError } from '../../../core/errors.ts';
import { HAR_FILE } from '../har-file.ts';
import { personalValuesOfHar } from './personal-values.ts';
import { hasReplaceableCharacters, StandIns } from './stand-ins.ts';
import { datedValue } from './date-stand-in.ts';
import type { ArchiveMember } from './tar-archive.ts';

/** Shorter values are replaced only where they stand quoted, or as a whole word (below). */
const SHORT_VALUE = 6;
/** A short value with a letter and at least this many characters is a name wherever it stands as a word. */
const WORD_VALUE = 3;

/** Where a value counts as found: anywhere, as a whole word, or only quoted. */
type Reach = 'anywhere' | 'word' | 'quoted';

function reachOf(value: string): Reach {
  const length = [...value].length;
  if (length >= SHORT_VALUE) return 'anywhere';
  return length >= WORD_VALUE && /\p{L}/u.test(value) ? 'word' : 'quoted';
}

const jsonEscaped = (s: string): string => JSON.stringify(s).slice(1, -1);
const unicodeEscaped = (s: string, upper: boolean): string =>
  jsonEscaped(s).replace(/[^\x00-\x7f]/g, (ch) => {
    const hex = ch.charCodeAt(0).toString(16).padStart(4, '0');
    return `\\u${upper ? hex.toUpperCase() : hex}`;
  });
const html = (s: string, apostrophe: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, apostrophe);
const markdownCell = (s: string): string => s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/`/g, '\\`').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Every spelling a report file can give a value (escapings of escapings where a file nests them). */
const SPELLINGS: ((s: string) => string)[] = [
  (s) => s,
  jsonEscaped,
  (s) => jsonEscaped(jsonEscaped(s)),
  (s) => unicodeEscaped(s, false),
  (s) => unicodeEscaped(s, true),
  (s) => jsonEscaped(unicodeEscaped(s, false)),
  ...[(s: string) => s, jsonEscaped, (s: string) => jsonEscaped(jsonEscaped(s))].flatMap((inner) => [
    (s: string) => html(inner(s), '&#39;'),
    (s: string) => html(inner(s), '&apos;'),
  ]),
  markdownCell,
  (s) => markdownCell(jsonEscaped(s)),
  (s) => jsonEscaped(s).replace(/'/g, `'\\''`),
  encodeURIComponent,
  (s) => encodeURIComponent(s).replace(/%20/g, '+'),
];

/** `array` copied into one twice as long. */
function doubled<T extends Uint16Array | Int32Array>(array: T): T {
  const grown = new (array.constructor as new (length: number) => T)(array.length * 2);
  grown.set(array);
  return grown;
}

/**
 * A trie of the spellings by UTF-16 code unit, in flat typed arrays (first child, next sibling):
 * a deep run's 21,000 spellings make 177,000 nodes, 50 MB as a Map a node; a --runs 5000 run's
 * 248,000 make 2 million, 48 MB as arrays of numbers, 20 MB so.
 */
class SpellingTrie {
  private unit = new Uint16Array(1024);
  private firstChild = new Int32Array(1024).fill(-1);
  private nextSibling = new Int32Array(1024).fill(-1);
  /** Nodes in use; node 0 is the root. */
  private nodes = 1;
  private readonly ends = new Map<number, string>();
  /** The root's children by unit: every text position asks it first. */
  private readonly roots = new Map<number, number>();

  constructor(words: Iterable<string>) {
    for (const word of words) if (word) this.add(word);
  }

  private add(word: string): void {
    let node = 0;
    for (let i = 0; i < word.length; i++) {
      const unit = word.charCodeAt(i);
      let next = this.child(node, unit);
      if (next === -1) {
        if (this.nodes === this.unit.length) {
          this.unit = doubled(this.unit);
          this.firstChild = doubled(this.firstChild);
          this.nextSibling = doubled(this.nextSibling);
        }
        next = this.nodes++;
        this.unit[next] = unit;
        this.firstChild[next] = -1;
        this.nextSibling[next] = node === 0 ? -1 : this.firstChild[node];
        if (node === 0) this.roots.set(unit, next);
        else this.firstChild[node] = next;
      }
      node = next;
    }
    this.ends.set(node, word);
  }

  /** The child of `node` for `unit`, or -1. */
  child(node: number, unit: number): number {
    if (node === 0) return this.roots.get(unit) ?? -1;
    for (let c = this.firstChild[node]; c !== -1; c = this.nextSibling[c]) if (this.unit[c] === unit) return c;
    return -1;
  }

  /** Whether a spelling starts with `unit`. */
  starts(unit: number): boolean {
    return this.roots.has(unit);
  }

  /** The spellings that start at `at` in `text`, shortest first. */
  spellingsAt(text: string, at: number): string[] {
    const found: string[] = [];
    let node = this.child(0, text.charCodeAt(at));
    for (let next = at + 1; node !== -1; next++) {
      const end = this.ends.get(node);
      if (end !== undefined) found.push(end);
      node = next < text.length ? this.child(node, text.charCodeAt(next)) : -1;
    }
    return found;
  }
}

const isHigh = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff;
const isLow = (unit: number): boolean => unit >= 0xdc00 && unit <= 0xdfff;

/** Whether text[from, from + length) starts or ends inside a surrogate pair (half an astral character is no value). */
function splitsPair(text: string, from: number, length: number): boolean {
  const end = from + length;
  return (isLow(text.charCodeAt(from)) && isHigh(text.charCodeAt(from - 1))) || (isHigh(text.charCodeAt(end - 1)) && isLow(text.charCodeAt(end)));
}

/**
 * A short value counts only as a quoted value: after a quote (`"`, `'`, a backtick, the `;` of
 * `&quot;` or `&#39;`, the `>` of a markup tag) and before one (or the `\` of an escaped quote,
 * the `&` of an entity, the `<` of a tag). Elsewhere "42" or "x" is a count, a date's part, a word.
 */
const QUOTE_BEFORE = new Set(['"', "'", '`', ';', '>']);
const QUOTE_AFTER = new Set(['"', "'", '`', '\\', '&', '<']);
/** What continues a word: a letter, a digit or a combining mark. */
const WORD_CHARACTER = /[\p{L}\p{N}\p{M}]/u;

/** The character (an astral one whole) that ends just before `offset`; a space at the start. */
function characterBefore(text: string, offset: number): string {
  if (offset === 0) return ' ';
  const low = text.charCodeAt(offset - 1);
  return low >= 0xdc00 && low <= 0xdfff && offset >= 2 ? text.slice(offset - 2, offset) : text.charAt(offset - 1);
}

const DIGIT = /^\p{Nd}$/u;
/** An escape that ends in a digit (`\u00e9`, `%C3`): its digit is no number's. */
const ENDS_IN_ESCAPE = /(?:\\u[0-9A-Fa-f]{4}|%[0-9A-Fa-f]{2})$/;

/**
 * Whether a spelling found at `offset` is glued to a digit on a side where it has one: part of a
 * longer number, not the value. A sort code "19-10-04" stands inside every timestamp of
 * 2019-10-04; replaced there, "2019-10-04T21:25:44Z" became "2067-50-00T21:25:44Z", no date,
 * and the redacted bundle no longer judged as its report.
 */
function gluedToDigits(match: string, offset: number, text: string): boolean {
  const first = String.fromCodePoint(match.codePointAt(0)!);
  if (DIGIT.test(first) && DIGIT.test(characterBefore(text, offset)) && !ENDS_IN_ESCAPE.test(text.slice(Math.max(0, offset - 6), offset))) return true;
  const last = characterBefore(match, match.length);
  const after = String.fromCodePoint(text.codePointAt(offset + match.length) ?? 0x20);
  return DIGIT.test(last) && DIGIT.test(after) && !ENDS_IN_ESCAPE.test(match);
}

/** Finds the spellings of the personal values in a text, standing alone where a value is short. */
class SpellingMatcher {
  private readonly trie: SpellingTrie;

  /**
   * @param spellings spelling -> where its value counts as found
   * @param insideNumbers whether a value counts inside a longer number too (a stand-in must not hold one even so)
   */
  constructor(
    private readonly spellings: ReadonlyMap<string, Reach>,
    private readonly insideNumbers = false,
  ) {
    // A walk of a trie, not one alternation of every spelling: a regular expression of thousands
    // of values took 10 s over a deep run's 15 MB HAR.
    this.trie = new SpellingTrie(spellings.keys());
  }

  /** The longest spelling at `at` that `counts` and stands alone there (a shorter one when the longest does not), or undefined. */
  private matchAt(text: string, at: number, counts: (spelling: string) => boolean): string | undefined {
    const ends = this.trie.spellingsAt(text, at);
    for (let i = ends.length - 1; i >= 0; i--) {
      if (counts(ends[i]) && !splitsPair(text, at, ends[i].length) && this.standsAlone(ends[i], at, text)) return ends[i];
    }
    return undefined;
  }

  private standsAlone(match: string, offset: number, text: string): boolean {
    const reach = this.spellings.get(match);
    if (reach === 'anywhere') return this.insideNumbers || !gluedToDigits(match, offset, text);
    const before = characterBefore(text, offset);
    const after = String.fromCodePoint(text.codePointAt(offset + match.length) ?? 0x20);
    if (QUOTE_BEFORE.has(before) && QUOTE_AFTER.has(after)) return true;
    return reach === 'word' && !WORD_CHARACTER.test(before) && !WORD_CHARACTER.test(after);
  }

  /** `text` with each spelling found (of those that `count`) replaced by `replace(spelling)`. */
  replace(text: string, replace: (spelling: string) => string, counts: (spelling: string) => boolean = () => true): { text: string; count: number } {
    const parts: string[] = [];
    let copied = 0;
    let count = 0;
    for (let at = 0; at < text.length; ) {
      const match = this.trie.starts(text.charCodeAt(at)) ? this.matchAt(text, at, counts) : undefined;
      if (match === undefined) {
        at++;
        continue;
      }
      parts.push(text.slice(copied, at), replace(match));
      count++;
      at += match.length;
      copied = at;
    }
    parts.push(text.slice(copied));
    return { text: count ? parts.join('') : text, count };
  }

  /** Every spelling that occurs in `text`, at any place and of any length, standing alone or not. */
  occurringIn(text: string, out: Set<string>): void {
    for (let at = 0; at < text.length; at++) for (const spelling of this.trie.spellingsAt(text, at)) out.add(spelling);
  }

  /** Whether a spelling (one that `counts`) stands in `text`. */
  foundIn(text: string, counts?: (spelling: string) => boolean): boolean {
    return this.replace(text, (m) => m, counts).count > 0;
  }
}

/**
 * Draws every value's stand-in, clear of every original (quoted, as files hold it: a stand-in
 * that spells an original, even a short one, is drawn again). Its own function so the matcher of
 * raw values (a trie of every value, 35 MB for a --runs 5000 run) is not kept by a closure of
 * PersonalRedaction.of for the whole redaction.
 */
function drawStandIns(values: readonly string[], standIns: StandIns): void {
  // Strict: no stand-in shows an original's digits, even glued inside a longer number.
  const rawMatcher = new SpellingMatcher(new Map(values.map((v) => [v, reachOf(v)])), true);
  // A day's stand-in serves every value that starts with that day: no original may start with it.
  const originalDays = new Set(values.map((value) => datedValue(value)?.day));
  const acceptable = (candidate: string) => !rawMatcher.foundIn(`"${candidate}"`) && !originalDays.has(candidate);
  for (const value of values)
    if (standIns.of(value, acceptable) === undefined)
      throw new UsageError('--redact-personal: a personal value has no stand-in that differs from every other value; no bundle written');
}

/**
 * The stand-ins of one bundle's personal values, ready to redact any text of it: a whole file, or
 * exchanges.har line by line as it streams (har-redaction.ts); `redact` checks its own output, so
 * a text is never held twice.
 */
export class PersonalRedaction {
  private constructor(
    private readonly matcher: SpellingMatcher,
    /** Whether an original found after redaction proves it remains (not one that stands inside a shuffled stand-in). */
    private readonly remains: (spelling: string) => boolean,
    private readonly replacement: ReadonlyMap<string, string>,
    /** How many distinct values are replaced. */
    readonly values: number,
  ) {}

  /** The redaction of `personal` (a HAR's personal values, personal-values.ts). */
  static of(personal: Iterable<string>, standIns: StandIns = new StandIns()): PersonalRedaction {
    const values = [...personal].filter(hasReplaceableCharacters);
    drawStandIns(values, standIns);
    const originals = new Map<string, Reach>();
    for (const value of values) for (const spell of SPELLINGS) originals.set(spell(value), reachOf(value));
    const replacement = new Map<string, string>();
    const shuffled = new Set<string>();
    for (const value of values) {
      // Asked again, once all are drawn: a later draw may have given this value's stand-in to another and drawn it anew (stand-ins.ts).
      const standIn = standIns.of(value)!;
      for (const spell of SPELLINGS) {
        const from = spell(value);
        if (!replacement.has(from)) replacement.set(from, spell(standIn));
        if (standIns.shuffled(standIn)) shuffled.add(spell(standIn));
      }
    }
    // A spelling that is also a stand-in drawn among the values of a crowded shape, or stands
    // inside one (stand-ins.ts: a day given as another's stand-in starts every value that day's
    // rests make), cannot be told from a stand-in: every other original must be gone.
    const inside = new Set<string>();
    const all = new SpellingMatcher(originals);
    for (const spelling of shuffled) all.occurringIn(spelling, inside);
    return new PersonalRedaction(all, (spelling) => !inside.has(spelling), replacement, values.length);
  }

  /** `text` of the member `file` with every spelling replaced; a UsageError naming the file (never the value) when one remains. */
  redact(text: string, file: string): string {
    const redacted = this.matcher.replace(text, (spelling) => this.replacement.get(spelling)!).text;
    if (this.matcher.foundIn(redacted, this.remains))
      throw new UsageError(`--redact-personal: a personal value remains in ${file} after redaction; no bundle written`);
    return redacted;
  }
}

/** A file's text redacted: exchanges.har line by line, as it is redacted while streaming, any other whole. */
export function redactMember(redaction: PersonalRedaction, name: string, text: string): string {
  if (name !== HAR_FILE) return redaction.redact(text, name);
  return text
    .split('\n')
    .map((line) => redaction.redact(line, name))
    .join('\n');
}

/** The members with every personal value of their HAR replaced, and how many distinct values were. */
export function redactPersonalValues(members: readonly ArchiveMember[], standIns: StandIns = new StandIns()): { members: ArchiveMember[]; values: number } {
  const har = members.find((m) => m.name === HAR_FILE);
  const redaction = PersonalRedaction.of(har ? personalValuesOfHar(har.data.toString('utf8')) : [], standIns);
  const redacted = members.map((member) => ({
    name: member.name,
    data: Buffer.from(redactMember(redaction, member.name, member.data.toString('utf8')), 'utf8'),
  }));
  return { members: redacted, values: redaction.values };
}
