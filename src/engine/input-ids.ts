/**
 * Distinct inputs, counted without a string per rule and exchange: every distinct input of the
 * run (by inputKey, a digest of what a case sent) gets a small number once, and each rule holds
 * the numbers it saw as bits. A run of 200,000 requests judged by 40 rules would otherwise keep
 * millions of keys; this keeps one key per distinct input and a bit per input and rule.
 */
import { createHash } from 'node:crypto';
import type { TestCase } from '../core/case.ts';
import { isObject } from '../rules/checks/exchange-facts.ts';

/** A short fingerprint of what a case sent (ref_ids aside, which the runner makes unique). */
export function inputKey(c: TestCase): string {
  const body = isObject(c.body) && typeof c.body.ref_id === 'string' ? { ...c.body, ref_id: undefined } : c.body;
  const sent = JSON.stringify([c.operation, c.fiatAccountId ?? null, c.auth ?? null, c.rawBody ?? null, body ?? null]);
  return createHash('sha1').update(sent).digest('base64').slice(0, 12);
}

export class InputIds {
  private readonly ids = new Map<string, number>();
  /** A case is judged by many rules: its key is computed once. */
  private readonly byCase = new WeakMap<TestCase, number>();

  /** The number of what `c` sent: equal for cases that sent the same (ref_ids aside). */
  of(c: TestCase): number {
    let id = this.byCase.get(c);
    if (id === undefined) {
      const key = inputKey(c);
      id = this.ids.get(key);
      if (id === undefined) this.ids.set(key, (id = this.ids.size));
      this.byCase.set(c, id);
    }
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
}
