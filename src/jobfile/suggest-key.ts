/** "Did you mean" hints for unknown keys and values in job files. */

/** Optimal-string-alignment distance: edits, with a swap of two neighbours counting as one. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/**
 * The known key closest to `input`, or undefined when none is close: case-insensitive distance
 * of at most 2 (1 for inputs of 3 characters or fewer), else one being a prefix of the other.
 */
export function suggestKey(input: string, known: readonly string[]): string | undefined {
  const wanted = input.toLowerCase();
  // Short words are close to too many others; allow one edit only.
  const limit = wanted.length <= 3 ? 1 : 2;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const distance = editDistance(wanted, candidate.toLowerCase());
    if (distance <= limit && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  if (best !== undefined) return best;
  return known.find((candidate) => {
    const c = candidate.toLowerCase();
    const shorter = Math.min(c.length, wanted.length);
    return shorter >= 3 && (c.startsWith(wanted) || wanted.startsWith(c));
  });
}
