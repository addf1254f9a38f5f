/**
 * Distinct inputs, counted without a string per rule and exchange: every distinct input of the
 * run (what a case sent, ref_ids aside) gets a small number once, kept as a digest
 * (src/core/digest-table.ts), and each rule holds the numbers it saw as bits. A run of 200,000
 * requests judged by 40 rules would otherwise keep millions of keys.
 */
import { createHash } from 'node:crypto';
import type { TestCase } from '../core/case.ts';
import { DigestTable } from '../core/digest-table.ts';
import { isObject } from '../rules/checks/exchange-facts.ts';

/** What a case sent, as text (ref_ids aside, which the runner makes unique). */
function sent(c: TestCase): string {
  const body = isObject(c.body) && typeof c.body.ref_id === 'string' ? { ...c.body, ref_id: undefined } : c.body;
  return JSON.stringify([c.operation, c.method ?? null, c.fiatAccountId ?? null, c.auth ?? null, c.rawBody ?? null, body ?? null]);
}

/** A short fingerprint of what a case sent. */
export function inputKey(c: TestCase): string {
  return createHash('sha1').update(sent(c)).digest('base64').slice(0, 12);
}

export class InputIds {
  private readonly table = new DigestTable();
  /** A case is judged by many rules in a row: its number is computed once. */
  private last: { c: TestCase; id: number } | undefined;

  /** The number of what `c` sent: equal for cases that sent the same (ref_ids aside). */
  of(c: TestCase): number {
    if (this.last?.c === c) return this.last.id;
    const { id } = this.table.add(sent(c));
    this.last = { c, id };
    return id;
  }
}

/** A set of input numbers, as bits. */
export class InputSet {
  private bits = new Uint8Array(64);
  /** How many distinct numbers were added. */
  size = 0;

  add(id: number): void {
    const byte = id >> 3;
    if (byte >= this.bits.length) {
      const grown = new Uint8Array(Math.max(byte + 1, this.bits.length * 2));
      grown.set(this.bits);
      this.bits = grown;
    }
    const mask = 1 << (id & 7);
    if (!(this.bits[byte] & mask)) {
      this.bits[byte] |= mask;
      this.size += 1;
    }
  }

  has(id: number): boolean {
    return ((this.bits[id >> 3] ?? 0) & (1 << (id & 7))) !== 0;
  }
}

/** A yes or no per input number, unknown until set (once): two bitsets instead of a Map. */
export class InputVerdicts {
  private readonly known = new InputSet();
  private readonly yes = new InputSet();

  get(id: number): boolean | undefined {
    return this.known.has(id) ? this.yes.has(id) : undefined;
  }

  set(id: number, verdict: boolean): void {
    this.known.add(id);
    if (verdict) this.yes.add(id);
  }
}
