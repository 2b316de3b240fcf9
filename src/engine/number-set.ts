/**
 * A set of numbers in typed arrays (open addressing, linear probing): 32-bit integers, the usual
 * ids, take 4-8 bytes each in an Int32Array, other numbers 8-16 in a Float64Array, instead of the
 * ~80 a `Set<number>` costs, which keeps duplicate detection over a million-row file within the
 * engine's memory budget (a million ids: 8 MiB, where one Float64Array and a flag array took 18).
 */

const scratch = new Float64Array(1);
const halves = new Uint32Array(scratch.buffer);

/** Grown at three quarters full: linear probing stays short at this load for the dedupe step. */
const MAX_LOAD = 0.75;

/** A set of numbers that only grows. */
export class NumberSet {
  /** 32-bit integers other than 0; 0 marks an empty slot. */
  private ints: Int32Array;
  private intCount = 0;
  /** Every other number but NaN; NaN marks an empty slot (made on first use). */
  private others: Float64Array | undefined;
  private otherCount = 0;
  private hasZero = false;
  private hasNaN = false;

  constructor(capacity = 1024) {
    this.ints = new Int32Array(tableSize(capacity));
  }

  /** How many values are in the set. */
  get size(): number {
    return this.intCount + this.otherCount + (this.hasZero ? 1 : 0) + (this.hasNaN ? 1 : 0);
  }

  /** Adds `value`; returns false when it was already there. */
  add(value: number): boolean {
    if ((value | 0) === value) {
      if (value === 0) { // -0 and 0 are one value, as in a Set
        if (this.hasZero) return false;
        this.hasZero = true;
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
      if (value === 0) return this.hasZero;
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
