// Types of held-out.mjs (and the shape of every benchmark case).

/** A dataset imported into a target schema, with the true mapping written by hand. */
export interface BenchCase {
  name: string;
  source: string;
  expected: [string, string?][];
  optional: [string, string?][];
  truth: [string | string[], string][];
}
export const HELD_OUT: BenchCase[];
