/**
 * A set of numbers in typed arrays instead of the ~80 bytes per value a `Set<number>` costs, which
 * keeps duplicate detection over a million-row file within the engine's memory budget. Integer
 * ids, the usual key, mostly run from 0 or 1 upwards: those below a limit take one bit each in a
 * bitmap (a million ids: 128 KiB); other 32-bit integers go to an Int32Array and every other
 * number to a Float64Array (open addressing, linear probing: 5-11 and 11-21 bytes per value).
 */

const scratch = new Float64Array(1);
const halves = new Uint32Array(scratch.buffer);

/** Grown at three quarters full: linear probing stays short at this load for the dedupe step. */
const MAX_LOAD = 0.75;

/** The bitmap's first size in 32-bit words: values 0 to 32767. */
const FIRST_WORDS = 1024;
/** The bitmap grows to take a larger integer while it stays within this many bytes per value held. */
const BITMAP_BYTES_PER_VALUE = 2;

/** A set of numbers that only grows. */
export class NumberSet {
  /** Integers from 0 (-0 is 0, as in a Set) to `bits.length * 32 - 1`, one bit each. */
  private bits = new Int32Array(FIRST_WORDS);
  private bitCount = 0;
  /** Other 32-bit integers (never 0); 0 marks an empty slot. */
  private ints: Int32Array;
  private intCount = 0;
  /** Every other number but NaN; NaN marks an empty slot (made on first use). */
  private others: Float64Array | undefined;
  private otherCount = 0;
  private hasNaN = false;

  constructor(capacity = 1024) {
    this.ints = new Int32Array(tableSize(capacity));
  }

  /** How many values are in the set. */
  get size(): number {
    return this.bitCount + this.intCount + this.otherCount + (this.hasNaN ? 1 : 0);
  }

  /** Adds `value`; returns false when it was already there. */
  add(value: number): boolean {
    if ((value | 0) === value) {
      if (value >= 0 && (value >>> 5 < this.bits.length || this.growBits(value))) {
        const word = value >>> 5;
        const bit = 1 << (value & 31);
        if (this.bits[word] & bit) return false;
        this.bits[word] |= bit;
        this.bitCount++;
        return true;
      }
      const ints = this.ints;
      const mask = ints.length - 1;
      let i = intHash(value) & mask;
      for (let k = ints[i]; k !== 0; k = ints[i]) {
        if (k === value) return false;
        i = (i + 1) & mask;
      }
      ints[i] = value;
      if (++this.intCount > ints.length * MAX_LOAD) this.ints = growInts(ints);
      return true;
    }
    if (value !== value) {
      if (this.hasNaN) return false;
      this.hasNaN = true;
      return true;
    }
    const others = (this.others ??= emptyOthers(16));
    const mask = others.length - 1;
    let i = doubleHash(value) & mask;
    for (let k = others[i]; k === k; k = others[i]) {
      if (k === value) return false;
      i = (i + 1) & mask;
    }
    others[i] = value;
    if (++this.otherCount > others.length * MAX_LOAD) this.others = growOthers(others);
    return true;
  }

  /** Whether `value` is in the set. */
  has(value: number): boolean {
    if ((value | 0) === value) {
      if (value >= 0 && value >>> 5 < this.bits.length) return (this.bits[value >>> 5] & (1 << (value & 31))) !== 0;
      const ints = this.ints;
      const mask = ints.length - 1;
      for (let i = intHash(value) & mask, k = ints[i]; k !== 0; i = (i + 1) & mask, k = ints[i]) if (k === value) return true;
      return false;
    }
    if (value !== value) return this.hasNaN;
    const others = this.others;
    if (!others) return false;
    const mask = others.length - 1;
    for (let i = doubleHash(value) & mask, k = others[i]; k === k; i = (i + 1) & mask, k = others[i]) if (k === value) return true;
    return false;
  }

  /**
   * Grows the bitmap to hold `value` when it then stays within BITMAP_BYTES_PER_VALUE bytes per
   * value held (dense ids; sparse ones go to the hash table); the integers it comes to cover move
   * into it. Returns whether it grew.
   */
  private growBits(value: number): boolean {
    let words = this.bits.length * 2;
    while (value >>> 5 >= words) words *= 2;
    if (words * 4 > BITMAP_BYTES_PER_VALUE * (this.size + FIRST_WORDS * 16)) return false;
    const bits = new Int32Array(words);
    bits.set(this.bits);
    this.bits = bits;
    if (this.intCount === 0) return true;
    // Integers of the hash table that the bitmap now covers move into it; the table is rebuilt without them.
    const old = this.ints;
    const limit = words * 32;
    let kept = 0;
    for (let j = 0; j < old.length; j++) {
      const v = old[j];
      if (v === 0) continue;
      if (v > 0 && v < limit) {
        bits[v >>> 5] |= 1 << (v & 31);
        this.bitCount++;
      } else kept++;
    }
    const ints = new Int32Array(tableSize(Math.max(kept, 1024)));
    const mask = ints.length - 1;
    for (let j = 0; j < old.length; j++) {
      const v = old[j];
      if (v === 0 || (v > 0 && v < limit)) continue;
      let i = intHash(v) & mask;
      while (ints[i] !== 0) i = (i + 1) & mask;
      ints[i] = v;
    }
    this.ints = ints;
    this.intCount = kept;
    return true;
  }
}

/** The power of two that holds `capacity` values under MAX_LOAD. */
function tableSize(capacity: number): number {
  let size = 16;
  while (size * MAX_LOAD < capacity) size *= 2;
  return size;
}

function growInts(old: Int32Array): Int32Array {
  const ints = new Int32Array(old.length * 2);
  const mask = ints.length - 1;
  for (let j = 0; j < old.length; j++) {
    const v = old[j];
    if (v === 0) continue;
    let i = intHash(v) & mask;
    while (ints[i] !== 0) i = (i + 1) & mask;
    ints[i] = v;
  }
  return ints;
}

function emptyOthers(size: number): Float64Array {
  return new Float64Array(size).fill(NaN);
}

function growOthers(old: Float64Array): Float64Array {
  const others = emptyOthers(old.length * 2);
  const mask = others.length - 1;
  for (let j = 0; j < old.length; j++) {
    const v = old[j];
    if (v !== v) continue;
    let i = doubleHash(v) & mask;
    while (others[i] === others[i]) i = (i + 1) & mask;
    others[i] = v;
  }
  return others;
}

/** Mixes a 32-bit integer (murmur3's finaliser): ids that share their low bits still spread. */
function intHash(value: number): number {
  let h = Math.imul(value ^ (value >>> 16), 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** Mixes a double's 64 bits into 32 (murmur3's finaliser over both halves). */
function doubleHash(value: number): number {
  scratch[0] = value;
  let h = Math.imul(halves[0] ^ Math.imul(halves[1], 0x9e3779b1), 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}
