import { describe, expect, it } from 'vitest';
import { assignPairs, solveBestFirst, type Candidate } from '../../src/engine/assignment.js';

/** Candidates from a score matrix (rows: columns, cells: fields; under 0.5 = not a candidate). */
function candidatesOf(matrix: number[][]): Candidate[] {
  return matrix.flatMap((row, column) => row.flatMap((score, field) => (score >= 0.5 ? [{ column, field, score }] : [])));
}

/** The chosen field of each column (-1: none). */
function fieldsOf(matrix: number[][], maxGroupWork?: number): number[] {
  return assignPairs(matrix.length, candidatesOf(matrix), maxGroupWork).map((c) => c?.field ?? -1);
}

/** Total worth of the pairs scoring at least `lowest`: score - (lowest - 0.01) each, in hundredths. */
function worth(matrix: number[][], fields: number[], lowest: number): number {
  const offset = Math.round(lowest * 100) - 1;
  return fields.reduce((sum, f, c) => (f >= 0 && matrix[c][f] >= lowest ? sum + Math.round(matrix[c][f] * 100) - offset : sum), 0);
}

/** The best worth of pairs scoring at least `lowest` by trying every assignment (small matrices only), columns in `open` only. */
function bruteForceWorth(matrix: number[][], lowest: number, open = (_c: number, _f: number) => true): number {
  const fieldCount = matrix[0]?.length ?? 0;
  const offset = Math.round(lowest * 100) - 1;
  const walk = (c: number, used: Set<number>): number => {
    if (c === matrix.length) return 0;
    let best = walk(c + 1, used); // column c unmapped
    for (let f = 0; f < fieldCount; f++) {
      if (used.has(f) || matrix[c][f] < lowest || !open(c, f)) continue;
      used.add(f);
      best = Math.max(best, Math.round(matrix[c][f] * 100) - offset + walk(c + 1, used));
      used.delete(f);
    }
    return best;
  };
  return walk(0, new Set());
}

/** A deterministic pseudo-random generator (mulberry32). */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Scores from 0.5 to 0.99, half the cells no candidate (exact names, fixed first, are tested apart). */
function randomMatrix(next: () => number, columns: number, fields: number): number[][] {
  return Array.from({ length: columns }, () => Array.from({ length: fields }, () => (next() < 0.5 ? 0 : Math.round((0.5 + next() * 0.49) * 100) / 100)));
}

describe('assignPairs', () => {
  it('does not break a tie by column order when another assignment serves both columns', () => {
    // Best-first gives field 0 to column 0 (the earlier of two 0.9s) and leaves column 1 unmapped.
    const matrix = [[0.9, 0.8], [0.9, 0]];
    expect(solveBestFirst(candidatesOf(matrix)).map((p) => [p.column, p.field])).toEqual([[0, 0]]);
    expect(fieldsOf(matrix)).toEqual([1, 0]);
  });

  it('never lets a guess (under 0.6) displace a better pair to make room for itself', () => {
    // Worth alone would prefer 0.75 + 0.54 (26 + 5) to 0.77 (28).
    expect(fieldsOf([[0.77, 0.75], [0.54, 0]])).toEqual([0, -1]);
    // A guess still takes what is left.
    expect(fieldsOf([[0.77, 0], [0, 0.54]])).toEqual([0, 1]);
  });

  it('does not trade two good pairs for three middling ones', () => {
    // Fields: name, loans, ici. A plain sum prefers name -> ici, loans from -> name, repayments -> loans
    // (0.51 + 0.51 + 0.99 = 2.01) over name -> name, loans from -> loans (0.95 + 0.99 = 1.94).
    const matrix = [[0.95, 0, 0.51], [0.51, 0.99, 0], [0, 0.99, 0]];
    expect(fieldsOf(matrix)).toEqual([0, 1, -1]);
  });

  it('fixes columns named exactly like a field first, the earlier column winning', () => {
    expect(fieldsOf([[1, 0.9], [1, 0]])).toEqual([0, -1]);
    expect(fieldsOf([[0.99, 0.98], [1, 0]])).toEqual([1, 0]);
  });

  it('gives the same result as best-first when no two columns want the same field', () => {
    const next = random(11);
    for (let trial = 0; trial < 300; trial++) {
      const matrix = randomMatrix(next, 1 + Math.floor(next() * 6), 1 + Math.floor(next() * 6));
      const bests = matrix.map((row) => { const m = Math.max(...row); return m >= 0.5 ? row.indexOf(m) : -1; });
      const wanted = bests.filter((f) => f >= 0);
      if (new Set(wanted).size !== wanted.length) continue; // a conflict: best-first may differ
      const bestFirst = new Array(matrix.length).fill(-1);
      for (const p of solveBestFirst(candidatesOf(matrix))) bestFirst[p.column] = p.field;
      expect(fieldsOf(matrix)).toEqual(bestFirst);
    }
  });

  it('finds the best total worth, round by round (checked against trying every assignment)', () => {
    const next = random(7);
    for (let trial = 0; trial < 300; trial++) {
      const matrix = randomMatrix(next, 1 + Math.floor(next() * 6), 1 + Math.floor(next() * 6));
      const fields = fieldsOf(matrix);
      expect(new Set(fields.filter((f) => f >= 0)).size).toBe(fields.filter((f) => f >= 0).length);
      // First the pairs of 0.6 and over, then the guesses among the columns and fields they leave.
      expect(worth(matrix, fields, 0.6)).toBe(bruteForceWorth(matrix, 0.6));
      const usedFields = new Set(fields.filter((f, c) => f >= 0 && matrix[c][f] >= 0.6));
      const left = (c: number, f: number) => !(fields[c] >= 0 && matrix[c][fields[c]] >= 0.6) && !usedFields.has(f);
      const guesses = fields.map((f, c) => (f >= 0 && matrix[c][f] < 0.6 ? f : -1));
      expect(worth(matrix, guesses, 0.5)).toBe(bruteForceWorth(matrix, 0.5, left));
    }
  });

  it('is deterministic under ties: earlier columns, then earlier fields', () => {
    expect(fieldsOf([[0.8, 0.8], [0.8, 0.8]])).toEqual([0, 1]);
    expect(fieldsOf([[0.7, 0.7]])).toEqual([0]);
    expect(fieldsOf([[0.7], [0.7]])).toEqual([0, -1]);
  });

  it('solves a group too large for the exact method best-first', () => {
    const matrix = [[0.9, 0.8], [0.9, 0]];
    expect(fieldsOf(matrix, 1)).toEqual([0, -1]);
  });

  it('solves independent groups on their own, so a wide input with few links stays cheap', () => {
    // 20,000 columns each linked to its own field: 20,000 groups of 1 × 1.
    const candidates = Array.from({ length: 20_000 }, (_, i) => ({ column: i, field: i, score: 0.8 }));
    const choices = assignPairs(20_000, candidates, 1);
    expect(choices.every((c, i) => c?.field === i && c.score === 0.8)).toBe(true);
  });
});
