/**
 * Stand-ins for personal values: the same shape, nothing of the original. Each letter or digit
 * becomes another of the same Unicode general category from the same block of 128 code points
 * (so the same UTF-8 byte length, the same UTF-16 length, the same script: A-Z to A-Z, a-z to a-z,
 * 0-9 to 0-9, a CJK ideograph to another, an astral letter to an astral letter, an emoji to an emoji) and the same
 * normalisation behaviour (a letter NFC or NFD leaves alone is replaced by one they leave alone);
 * everything else (punctuation, spaces, combining marks, `@` and `.` of an email) stays. A digit
 * that starts a run of digits stays non-zero (a JSON number, an E.164 phone number stay valid).
 * The choice is drawn from HMAC-SHA256 of a random salt and the value: deterministic within one
 * bundle (the same value has the same stand-in in every file), unrelated across bundles. A value
 * that starts with a YYYY-MM-DD day (a date of birth, in either spelling) gets another day of the
 * same kind instead, the same for every spelling of that day (date-stand-in.ts).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { datedValue, standInDay } from './date-stand-in.ts';

/** Draws that must keep clear of every original; then as many that need only differ from the value and the stand-ins given. */
const FIRST_DRAWS = 32;
const LATER_DRAWS = 256;

/** Letters, numbers, and other symbols (So: an emoji name is a value sent too); never `+`, `@` or `.`, which shape a phone or an email. */
const CATEGORIES = ['Lu', 'Ll', 'Lt', 'Lm', 'Lo', 'Nd', 'Nl', 'No', 'So'] as const;
type Category = (typeof CATEGORIES)[number];
const CATEGORY_TESTS = CATEGORIES.map((c) => [c, new RegExp(`^\\p{${c}}$`, 'u')] as const);

/** The general category of a letter or number, or undefined for a character that stays (punctuation, space, mark). */
function categoryOf(ch: string): Category | undefined {
  return CATEGORY_TESTS.find(([, test]) => test.test(ch))?.[0];
}

const stable = (ch: string): string => `${ch.normalize('NFC') === ch ? 'c' : ''}${ch.normalize('NFD') === ch ? 'd' : ''}`;

/** Characters a given one may become, by block, category and normalisation behaviour; cached. */
const pools = new Map<string, string[]>();

function poolOf(ch: string, category: Category, leadingDigit: boolean): string[] {
  const cp = ch.codePointAt(0)!;
  const block = cp - (cp % 128);
  const shape = stable(ch);
  const key = `${block}:${category}:${shape}:${leadingDigit ? (ch === '0' ? 'leading zero' : 'leading') : ''}`;
  let pool = pools.get(key);
  if (!pool) {
    pool = [];
    for (let c = block; c < block + 128; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      const candidate = String.fromCodePoint(c);
      if (categoryOf(candidate) !== category || stable(candidate) !== shape) continue;
      // A number's first digit: non-zero stays non-zero (a leading zero breaks a JSON number); zero stays zero.
      if (leadingDigit && (ch === '0') !== (candidate === '0')) continue;
      pool.push(candidate);
    }
    pools.set(key, pool);
  }
  return pool;
}

/** Each character's choices: its pool, or itself when it stays (punctuation, a mark). Same choices, same shape. */
function choicesOf(value: string): string[][] {
  let previous = '';
  const choices: string[][] = [];
  for (const ch of value) {
    const category = categoryOf(ch);
    const pool = category ? poolOf(ch, category, category === 'Nd' && !/^\p{Nd}$/u.test(previous)) : [];
    choices.push(pool.length ? pool : [ch]);
    previous = ch;
  }
  return choices;
}

/** A shape small enough to go through whole (two-letter codes: 676) when random draws keep hitting given stand-ins. */
const ENUMERABLE = 100_000;

/** Every spelling of a shape, from the `start`-th on, wrapping around; none when the shape is too large to go through. */
function* spellingsOf(choices: readonly string[][], start: number): Generator<string> {
  const total = choices.reduce((n, pool) => n * pool.length, 1);
  if (total > ENUMERABLE) return;
  for (let i = 0; i < total; i++) {
    let rest = (start + i) % total;
    let out = '';
    for (let at = choices.length - 1; at >= 0; at--) {
      out = choices[at][rest % choices[at].length] + out;
      rest = Math.floor(rest / choices[at].length);
    }
    yield out;
  }
}

/** Whether a value has anything a stand-in would change. */
export const hasReplaceableCharacters = (value: string): boolean => /[\p{L}\p{N}\p{So}]/u.test(value);

/** Draws stand-ins for one bundle; `of` is deterministic for the salt and injective over the values it was given. */
export class StandIns {
  private readonly salt: Buffer;
  private readonly byValue = new Map<string, string>();
  private readonly taken = new Set<string>();
  /** Stand-in days by original day, and the days given: one day, one stand-in, in every spelling. */
  private readonly byDay = new Map<string, string>();
  private readonly takenDays = new Set<string>();
  /** Which day each day stand-in was given to, and the values given a stand-in by their day: a trade renews both. */
  private readonly dayOfStandIn = new Map<string, string>();
  private readonly valuesOfDay = new Map<string, string[]>();
  /** Stand-ins drawn among the other values (a crowded shape), and days given so. */
  private readonly shuffledValues = new Set<string>();
  private readonly shuffledDays = new Set<string>();
  /** Which value each (undated) stand-in was given to: a trade renews it. */
  private readonly valueOfStandIn = new Map<string, string>();

  constructor(salt: Buffer = randomBytes(32)) {
    this.salt = salt;
  }

  /** A stand-in for `value` (attempt `attempt`, for a redraw when the first one clashes). */
  draw(value: string, attempt = 0): string {
    const stream = new ByteStream(createHmac('sha256', this.salt).update(`${attempt}\u0000${value}`).digest(), this.salt, value, attempt);
    let previous = '';
    let out = '';
    for (const ch of value) {
      const category = categoryOf(ch);
      if (!category) {
        out += ch;
        previous = ch;
        continue;
      }
      const leadingDigit = category === 'Nd' && !/^\p{Nd}$/u.test(previous);
      const pool = poolOf(ch, category, leadingDigit);
      out += pool.length ? pool[stream.next() % pool.length] : ch;
      previous = ch;
    }
    return out;
  }

  /**
   * The stand-in of `value`: drawn until it differs from the value, from every stand-in given so
   * far and passes `acceptable` (it must not contain an original); undefined when no draw does.
   * A shape with fewer free stand-ins than values (two-letter codes: 676 spellings; February 29
   * of a band's sixteen leap years) cannot keep clear of every other value: after FIRST_DRAWS a
   * stand-in may be another value of the same shape, never the value itself, so the values are
   * shuffled among their records, none left in its place (personal-redaction.ts then checks only
   * the originals that no stand-in spells).
   */
  of(value: string, acceptable: (standIn: string) => boolean = () => true): string | undefined {
    const known = this.byValue.get(value);
    if (known !== undefined) return known;
    const dated = datedValue(value);
    if (dated) return this.ofDated(value, dated.day, dated.rest, acceptable);
    for (let attempt = 0; attempt < FIRST_DRAWS + LATER_DRAWS; attempt++) {
      const standIn = this.draw(value, attempt);
      if (standIn === value || this.taken.has(standIn) || (attempt < FIRST_DRAWS && !acceptable(standIn))) continue;
      this.byValue.set(value, standIn);
      this.taken.add(standIn);
      if (attempt >= FIRST_DRAWS) this.shuffledValues.add(standIn);
      this.valueOfStandIn.set(standIn, value);
      return standIn;
    }
    return this.ofCrowded(value);
  }

  /**
   * A value whose draws kept hitting given stand-ins: the first free spelling of its shape, gone
   * through from a point the salt picks; when the value itself is the only one free, it trades
   * with a value of its shape given before (that one takes the value as its stand-in).
   */
  private ofCrowded(value: string): string | undefined {
    const choices = choicesOf(value);
    const start = createHmac('sha256', this.salt).update(`crowded\u0000${value}`).digest().readUInt32BE(0);
    const shape = choices.map((pool) => pool.join('')).join('\u0000');
    let trade: string | undefined;
    for (const spelling of spellingsOf(choices, start)) {
      if (spelling === value) continue;
      const owner = this.valueOfStandIn.get(spelling);
      if (owner === undefined) {
        if (!this.taken.has(spelling)) return this.give(value, spelling);
        continue;
      }
      const ownerShape = choicesOf(owner)
        .map((pool) => pool.join(''))
        .join('\u0000');
      if (trade === undefined && !this.taken.has(value) && owner !== value && ownerShape === shape) trade = spelling;
    }
    if (trade === undefined) return undefined;
    const owner = this.valueOfStandIn.get(trade)!;
    this.give(owner, value);
    return this.give(value, trade);
  }

  /** `value`'s stand-in is `standIn`, drawn among the other values of a crowded shape. */
  private give(value: string, standIn: string): string {
    const old = this.byValue.get(value);
    if (old !== undefined) this.taken.delete(old);
    this.byValue.set(value, standIn);
    this.taken.add(standIn);
    this.valueOfStandIn.set(standIn, value);
    this.shuffledValues.add(standIn);
    return standIn;
  }

  /**
   * `value`, which starts with the day `day`: that day's stand-in (drawn once, the same for
   * every value that starts with it: other than the day, than every day given so far, and
   * acceptable alone and with `rest` after it, or after FIRST_DRAWS any other day; when only the
   * day itself is left, it trades with a day given before), then `rest` as it is.
   */
  private ofDated(value: string, day: string, rest: string, acceptable: (standIn: string) => boolean): string | undefined {
    const seen = new Set<string>();
    let chosen = this.byDay.get(day);
    for (let attempt = 0; chosen === undefined && attempt < 2 * FIRST_DRAWS + LATER_DRAWS; attempt++) {
      const candidate = standInDay(day, createHmac('sha256', this.salt).update(`day\u0000${attempt}\u0000${day}`).digest().readUInt32BE(0));
      seen.add(candidate);
      if (candidate === day || this.takenDays.has(candidate)) continue;
      if (attempt < 2 * FIRST_DRAWS && (!acceptable(candidate) || !acceptable(candidate + rest))) continue;
      chosen = candidate;
      this.giveDay(day, candidate);
      if (attempt >= 2 * FIRST_DRAWS) this.shuffledDays.add(candidate);
    }
    chosen ??= this.tradeDay(day, seen);
    if (chosen === undefined) return undefined;
    const standIn = chosen + rest;
    this.byValue.set(value, standIn);
    this.taken.add(standIn);
    this.valuesOfDay.set(day, [...(this.valuesOfDay.get(day) ?? []), value]);
    return standIn;
  }

  /** Whether a stand-in given was drawn among the other values of a crowded shape (so it may spell one, or start as one). */
  shuffled(standIn: string): boolean {
    return this.shuffledValues.has(standIn) || this.shuffledDays.has(datedValue(standIn)?.day ?? '');
  }

  private giveDay(day: string, standIn: string): void {
    this.byDay.set(day, standIn);
    this.takenDays.add(standIn);
    this.dayOfStandIn.set(standIn, day);
  }

  /**
   * Every day of `day`'s shape is given but `day` itself: it takes the stand-in of a day given
   * before (one of `seen`, so of the same shape), which takes `day` instead; that day's values follow.
   */
  private tradeDay(day: string, seen: ReadonlySet<string>): string | undefined {
    const standIn = [...seen].find((candidate) => candidate !== day && this.dayOfStandIn.has(candidate));
    if (standIn === undefined) return undefined;
    const other = this.dayOfStandIn.get(standIn)!;
    this.giveDay(day, standIn);
    this.giveDay(other, day);
    this.shuffledDays.add(standIn).add(day);
    for (const value of this.valuesOfDay.get(other) ?? []) {
      const old = this.byValue.get(value)!;
      const renewed = day + old.slice(standIn.length);
      this.taken.delete(old);
      this.taken.add(renewed);
      this.byValue.set(value, renewed);
    }
    return standIn;
  }
}

/** Bytes of HMAC-SHA256 blocks, 4 at a time, as many as a long value needs. */
class ByteStream {
  private block: Buffer;
  private at = 0;
  private counter = 0;

  constructor(
    first: Buffer,
    private readonly salt: Buffer,
    private readonly value: string,
    private readonly attempt: number,
  ) {
    this.block = first;
  }

  next(): number {
    if (this.at + 4 > this.block.length) {
      this.counter++;
      this.block = createHmac('sha256', this.salt).update(`${this.attempt}\u0000${this.counter}\u0000${this.value}`).digest();
      this.at = 0;
    }
    const n = this.block.readUInt32BE(this.at);
    this.at += 4;
    return n;
  }
}
