import { describe, expect, it } from 'vitest';
import { NumberSet } from '../../src/engine/number-set.js';

describe('NumberSet', () => {
  it('answers like a Set for integers, fractions, negatives, zero and NaN across growth', () => {
    const ours = new NumberSet(4);
    const reference = new Set<number>();
    let seed = 7;
    const next = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed; };
    for (let i = 0; i < 50_000; i++) {
      const r = next();
      const v = r % 5 === 0 ? (r % 1000) / 8 : r % 7 === 0 ? -(r % 3000) : r % 11 === 0 ? NaN : r % 20000;
      expect(ours.add(v)).toBe(!reference.has(v));
      reference.add(v);
    }
    expect(ours.size).toBe(reference.size);
    for (const v of reference) expect(ours.has(v)).toBe(true);
    expect(ours.has(123456789.5)).toBe(false);
  });

  it('keeps 32-bit integers, larger integers and ids sharing their low bits apart across growth', () => {
    const s = new NumberSet(4);
    const values = [-2147483648, 2147483647, 2147483648, -2147483649, 2 ** 53, 1.5];
    for (let i = 1; i <= 20_000; i++) values.push(i * 4096, -i * 65536);
    for (const v of values) expect(s.add(v)).toBe(true);
    for (const v of values) expect(s.add(v)).toBe(false);
    expect(s.size).toBe(values.length);
    expect(s.has(4096 * 20_001)).toBe(false);
    expect(s.has(2 ** 53 + 2)).toBe(false);
  });

  it('finds an integer held before the dense ids around it grew the bitmap over it', () => {
    const s = new NumberSet();
    const reference = new Set<number>();
    const wrong: number[] = [];
    const add = (v: number) => {
      if (s.add(v) !== !reference.has(v)) wrong.push(v);
      reference.add(v);
    };
    for (const v of [1_000_000, 50_000, 2 ** 31 - 1, -5]) add(v);
    for (let i = 0; i < 1_200_000; i += 1 + (i % 3)) add(i);
    for (const v of [1_000_000, 50_000, 2 ** 31 - 1, -5, 1_199_999, 1_200_001]) add(v);
    expect(wrong).toEqual([]);
    expect(s.size).toBe(reference.size);
    expect([...reference].filter((v) => !s.has(v))).toEqual([]);
  });

  it('answers like a Set for ascending ids and for integers that crowd the same slots', () => {
    const ours = new NumberSet();
    const reference = new Set<number>();
    const values: number[] = [];
    for (let i = 0; i < 20_000; i++) values.push(1_000_001 + i - (i % 100 === 50 ? 40 : 0));
    // Multiples of 2^21 (and their negatives) share their low bits: placed by value they would crowd one stretch.
    for (let k = 0; k < 3_000; k++) values.push(k * 2 ** 21, -k * 2 ** 21, k * 2 ** 21);
    for (const v of values) {
      expect(ours.add(v)).toBe(!reference.has(v));
      reference.add(v);
    }
    expect(ours.size).toBe(reference.size);
    for (const v of reference) expect(ours.has(v)).toBe(true);
    expect(ours.has(2 ** 21 + 1)).toBe(false);
  });

  it('treats -0 and 0 as one value', () => {
    const s = new NumberSet();
    expect(s.add(0)).toBe(true);
    expect(s.add(-0)).toBe(false);
  });
});
