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

/** Spaces that look like a space: no-break, narrow no-break, figure, thin and other Unicode spaces. */
const ODD_SPACE = /[\u00a0\u2000-\u200a\u202f\u205f\u3000]/;
/** Characters that show as nothing: zero-width space and joiners, word joiner, byte order mark, soft hyphen. */
const INVISIBLE = /[\u200b-\u200d\u2060\ufeff\u00ad]/;

/** Unicode normalisation form a name is written in, for messages. */
function formOf(name: string): string {
  if (name === name.normalize('NFC')) return 'NFC';
  if (name === name.normalize('NFD')) return 'NFD';
  return 'neither NFC nor NFD';
}

/** How a character that looks like a space or like nothing is named in messages. */
function charName(c: string): string {
  if (c === '\u00a0') return 'a non-breaking space';
  const code = `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  return ODD_SPACE.test(c) ? `a Unicode space (${code})` : `an invisible character (${code})`;
}

/** The first character of `name` that looks like a space or like nothing but is neither a space nor nothing. */
function oddChar(name: string): string | undefined {
  return [...name].find((c) => ODD_SPACE.test(c) || INVISIBLE.test(c));
}

/**
 * When `written` (in the job file) and `known` (in `where`) look the same but are different text,
 * what differs, as a clause ("differs only in Unicode normalisation (NFC in the job file, NFD in
 * customers.csv)"); undefined when they differ visibly, or not at all.
 */
export function invisibleDifference(written: string, known: string, where: string): string | undefined {
  if (written === known) return undefined;
  if (written.normalize('NFC') === known.normalize('NFC')) {
    return `differs only in Unicode normalisation (${formOf(written)} in the job file, ${formOf(known)} in ${where})`;
  }
  const plain = (s: string) => [...s.normalize('NFC')].map((c) => (ODD_SPACE.test(c) ? ' ' : INVISIBLE.test(c) ? '' : c)).join('');
  if (plain(written) !== plain(known)) return undefined;
  const mine = oddChar(written);
  if (mine !== undefined && !known.includes(mine)) {
    return ODD_SPACE.test(mine) ? `has ${charName(mine)} in the job file where ${where} has a space` : `has ${charName(mine)} in the job file that ${where} does not have`;
  }
  const theirs = oddChar(known);
  if (theirs === undefined) return undefined;
  return ODD_SPACE.test(theirs) ? `has ${charName(theirs)} in ${where} where the job file has a space` : `has ${charName(theirs)} in ${where} that the job file does not have`;
}
