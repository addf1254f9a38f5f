/**
 * A set of strings that keeps only a 52-bit digest of each, in typed arrays, and numbers them in
 * the order they were first added. A long run meets hundreds of thousands of distinct request
 * bodies and identity ids: as Map keys they cost ~70 bytes each on the JavaScript heap; here
 * 24 bytes, off the heap the garbage collector walks. Two different strings share a digest with
 * odds of about n²/2^53 (one in ten million for 100,000 strings): then they count as one.
 */
import { createHash } from 'node:crypto';

/** The first 52 bits of the string's SHA-1, plus one (0 marks an empty slot): exact as a double. */
function digest(text: string): number {
  const hash = createHash('sha1').update(text).digest();
  return hash.readUIntBE(0, 6) * 16 + (hash[6] >> 4) + 1;
}

export class DigestTable {
  private digests = new Float64Array(1024);
  private numbers = new Int32Array(1024);
  /** Strings added so far (distinct ones). */
  size = 0;

  /** The number of `text`: the one it got when first added, or the next one now. */
  add(text: string): { id: number; added: boolean } {
    const d = digest(text);
    const slot = this.find(d);
    if (this.digests[slot] === d) return { id: this.numbers[slot], added: false };
    this.digests[slot] = d;
    this.numbers[slot] = this.size;
    const id = this.size++;
    if (this.size * 2 > this.digests.length) this.grow();
    return { id, added: true };
  }

  /** The number of `text`, if it was added. */
  get(text: string): number | undefined {
    const d = digest(text);
    const slot = this.find(d);
    return this.digests[slot] === d ? this.numbers[slot] : undefined;
  }

  /** The slot holding `d`, or the empty one where it would go (linear probing; the table is at most half full). */
  private find(d: number): number {
    const mask = this.digests.length - 1;
    let slot = d % this.digests.length;
    while (this.digests[slot] !== 0 && this.digests[slot] !== d) slot = (slot + 1) & mask;
    return slot;
  }

  private grow(): void {
    const { digests, numbers } = this;
    this.digests = new Float64Array(digests.length * 2);
    this.numbers = new Int32Array(digests.length * 2);
    for (let i = 0; i < digests.length; i++) {
      if (digests[i] === 0) continue;
      const slot = this.find(digests[i]);
      this.digests[slot] = digests[i];
      this.numbers[slot] = numbers[i];
    }
  }
}
