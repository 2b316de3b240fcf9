/**
 * Name similarity between input columns and output fields (engine.md "Suggestions", mapping):
 * names are normalised (case, spaces, `_`, `-`, camelCase, accents), then the abbreviations and
 * synonyms of the lexicon (lexicon.ts) are rewritten to one canonical spelling, then compared token
 * by token.
 *
 * Scores, in [0, 1]:
 * - 1.0 when the names are equal once normalised (`firstName` = `first_name` = `FIRST NAME`,
 *   `E-mail` = `email`);
 * - 0.95 when they are equal once synonyms are applied (`E-mail Address` = `email`, `Qty` =
 *   `quantity`, `lng` = `longitude`, `created_at` = `Created`), in any token order;
 * - otherwise 0.9 × a weighted soft Dice coefficient over the canonical tokens (the mean of it and
 *   1 when every word of one name is in the other: `delay` in `arr_delay_min`), where two tokens
 *   score 1 when equal, 0.85 when one is the initials of a run of the other's words (`rt` /
 *   `Rotten Tomatoes`), 0.8 when related (`date`/`created`, `team`/`club`), 0.7 when one is a
 *   prefix abbreviation of the other (`cat`/`category`) or they share a stem (`religious`/
 *   `religiosity`), 0.6 when one (not a word of the lexicon) is a shorter abbreviation
 *   spelled with the other's letters in order (`ttl`/`total`, `yr`/`year`), and their edit-distance
 *   similarity when that is at least 0.75 (typos: `adress`/`address`). Units and generic words
 *   (`mm`, `usd`, `name`) weigh less (lexicon.ts). Names ending in the same full word (`Major
 *   Genre` / `primary_genre`) are rated a third of the way from Dice to 1. The 0.9 factor keeps
 *   partial matches below synonym matches;
 * - when one name abbreviates the other's words in a way the lexicon does not list (`TOTEMP` /
 *   `total_employment`, `p_fertility` / `prev_fertility_rate`), 0.85 × the score of the words it
 *   abbreviates, if that is more.
 */
import { QUALIFIER_WEIGHTS, RELATED_PAIRS, STOPWORDS, SYNONYM_GROUPS } from './lexicon.js';

/** Score of names equal once normalised. */
export const EXACT_SCORE = 1;
/** Score of names equal once synonyms and abbreviations are applied. */
export const SYNONYM_SCORE = 0.95;
/** Factor applied to partial (token overlap) matches. */
const PARTIAL_FACTOR = 0.9;
const ACRONYM_TOKEN = 0.85;
const RELATED_TOKEN = 0.8;
const PREFIX_TOKEN = 0.7;
const ABBREVIATION_TOKEN = 0.6;
const MIN_TYPO_SIMILARITY = 0.75;
// Words sharing their first MIN_STEM letters or more, at least STEM_SHARE of the shorter, share a stem.
const MIN_STEM = 5;
const STEM_SHARE = 0.75;
// Names ending in the same word are rated this share of the way from their Dice coefficient to 1.
const SAME_HEAD_SHARE = 1 / 3;
// A word this long may be written as several (`subregion` / `sub region`).
const MIN_COMPOUND_LENGTH = 5;
// Weight of a number in a partial match with a name without numbers: `col_5` and `field 5` share little.
const NUMBER_WEIGHT = 0.5;
// A name compared as the words it abbreviates scores this share of that comparison: the
// abbreviation is read, not known.
const EXPANDED_SHARE = 0.85;
// Shortest token read as abbreviated words run together, and shortest part of it in another order.
const MIN_RUN_LENGTH = 3;
const MIN_PART = 2;
// First words that make a name a count of what follows.
const COUNT_PREFIXES = new Set(['num', 'number', 'nbr', 'nmbr']);
// Rewrites applied to a name at most this many times (a rewrite can complete another phrase).
const MAX_REWRITE_PASSES = 4;

/** A name prepared once for many comparisons. */
export interface PreparedName {
  /** Normalised tokens, before synonyms (`E-mail Address` → `e`, `mail`, `address`). */
  tokens: string[];
  /** The normalised tokens joined without separators, for the exact comparison. */
  joined: string;
  /** Canonical tokens: plurals stripped, synonyms applied, stopwords removed. */
  canonical: string[];
  /** Weight of each canonical token in a partial match (1, less for units and generic words). */
  weights: number[];
  /** The canonical tokens sorted and joined, for the order-insensitive synonym comparison. */
  canonicalKey: string;
  /** The canonical tokens joined without separators (`zip code` and `zipcode` agree). */
  canonicalJoined: string;
  /** The numbers in the name. */
  numbers: string[];
}

/** Splits a name into lower-case tokens: camelCase, letter/digit boundaries, any non-alphanumeric. */
export function nameTokens(name: string): string[] {
  // Plain ASCII names (most headers) take a scanner that does what expressionTokens does, ~10x faster.
  if (/^[\x20-\x7e]*$/.test(name)) return asciiTokens(name);
  return expressionTokens(name.normalize('NFKD').replace(/[\u0300-\u036f]/g, ''));
}

/** nameTokens by regular expressions, for any text (accents already removed). */
export function expressionTokens(name: string): string[] {
  const spaced = name
    .replace(/#/g, ' number ')
    .replace(/%/g, ' percent ')
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, '$1 $2')
    .replace(/(\p{L})(\p{N})/gu, '$1 $2')
    .replace(/(\p{N})(\p{L})/gu, '$1 $2')
    .toLowerCase();
  return spaced.split(/[^\p{L}\p{N}]+/u).filter((t) => t.length > 0);
}

const OTHER = 0;
const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;

function charKind(c: number): number {
  if (c >= 97 && c <= 122) return LOWER;
  if (c >= 65 && c <= 90) return UPPER;
  if (c >= 48 && c <= 57) return DIGIT;
  return OTHER;
}

/** nameTokens for printable ASCII: split at other characters, camelCase, `HTTPStatus`, letters/digits. */
function asciiTokens(name: string): string[] {
  const out: string[] = [];
  let start = -1;
  const flush = (end: number) => {
    if (start >= 0) out.push(name.slice(start, end).toLowerCase());
    start = -1;
  };
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    const kind = charKind(c);
    if (kind === OTHER) {
      flush(i);
      if (c === 35) out.push('number'); // #
      else if (c === 37) out.push('percent'); // %
      continue;
    }
    if (start >= 0) {
      const previous = charKind(name.charCodeAt(i - 1));
      const boundary =
        (kind === UPPER && previous !== UPPER) || // camelCase, digit then letter
        (kind === UPPER && previous === UPPER && charKind(name.charCodeAt(i + 1)) === LOWER) || // HTTPStatus
        ((kind === DIGIT) !== (previous === DIGIT)); // letters and digits
      if (boundary) flush(i);
    }
    if (start < 0) start = i;
  }
  flush(name.length);
  return out;
}

/** A name in snake_case after normalisation (`E-mail Address` → `e_mail_address`). */
export function normaliseName(name: string): string {
  return nameTokens(name).join('_');
}

/** The canonical tokens of a name: synonyms and abbreviations rewritten (`E-mail Address` → `email`). */
export function canonicalTokens(name: string): string[] {
  return canonicalise(nameTokens(name));
}

/** Prepares a name for repeated comparisons with `preparedSimilarity`. */
export function prepareName(name: string): PreparedName {
  return prepareTokens(nameTokens(name));
}

function prepareTokens(tokens: string[]): PreparedName {
  const canonical = canonicalise(tokens);
  return {
    tokens,
    joined: tokens.join(''),
    canonical,
    weights: canonical.map((t) => QUALIFIERS.get(t) ?? (isNumber(t) ? NUMBER_WEIGHT : 1)),
    canonicalKey: [...canonical].sort().join(' '),
    canonicalJoined: canonical.join(''),
    numbers: canonical.filter(isNumber),
  };
}

/**
 * Whether every canonical word of a name is a word of the lexicon and one is more than a qualifier
 * or a kind of value (`state`, not `cca2`, `name` or `code`): the name says what the column is.
 */
export function isKnownName(name: PreparedName): boolean {
  let full = false;
  for (let i = 0; i < name.canonical.length; i++) {
    const word = name.canonical[i];
    if (!KNOWN_WORDS.has(word)) return false;
    if (name.weights[i] === 1 && !KINDS_OF_VALUE.has(word)) full = true;
  }
  return full;
}

// Words naming a kind of value, not what it is about: `code` may hold currency codes, `number` ISO numbers.
const KINDS_OF_VALUE = new Set(['code', 'id', 'number', 'abbreviation', 'symbol', 'type', 'description']);

/** Similarity of two names in [0, 1] (see the module comment for the scale). */
export function nameSimilarity(a: string, b: string): number {
  return preparedSimilarity(prepareName(a), prepareName(b));
}

/**
 * Similarity of two prepared names in [0, 1], unrounded. A name abbreviating the other's words in a
 * way no lexicon lists (`TOTEMP` / `total_employment`, `p_fertility` / `prev_fertility_rate`) is
 * also compared as the words it abbreviates (`expandAbbreviations`), at EXPANDED_SHARE of that score.
 */
export function preparedSimilarity(a: PreparedName, b: PreparedName): number {
  const plain = plainSimilarity(a, b);
  if (plain >= SYNONYM_SCORE) return plain;
  let best = plain;
  const expandedA = expandAbbreviations(a, b);
  if (expandedA) best = Math.max(best, EXPANDED_SHARE * plainSimilarity(expandedA, b));
  const expandedB = expandAbbreviations(b, a);
  if (expandedB) best = Math.max(best, EXPANDED_SHARE * plainSimilarity(a, expandedB));
  return best;
}

/**
 * `name` with its abbreviations of `other`'s words written out as those words, or undefined when it
 * has none: a word that runs together prefixes of two or more consecutive words of the other
 * (`totemp` = `tot` + `emp` of `total employment`, `foodexp`, `ACIDCONC`; initials only in a name
 * of one word: `tbilrate` = `t` + `bil` + `rate` of `treasury bill rate`, `bmi`), or of two or more of its words in another order with
 * parts of at least two letters (`PERPOVERTY` / `poverty_pct`); and, in a name of several words, a
 * single letter that is the initial of the other's word at the same place (`p` of `prev` in
 * `p_fertility` / `prev_fertility_rate`). A word of the lexicon is not read as others (`rate` is
 * not `r` + `ate`).
 */
function expandAbbreviations(name: PreparedName, other: PreparedName): PreparedName | undefined {
  const words = other.tokens;
  if (words.length < 1 || other.joined === name.joined) return undefined;
  let out: string[] | undefined;
  name.tokens.forEach((token, i) => {
    let expansion: string[] | undefined;
    if (token.length === 1 && name.tokens.length > 1) {
      const word = words[i];
      if (word !== undefined && word.length > 1 && word[0] === token && !hasDigit(token)) expansion = [word];
    } else if (token.length >= MIN_RUN_LENGTH && words.length > 1 && !words.includes(token) && !hasDigit(token) && !isLexiconWord(token)) {
      // The other's words as written (`temp` in `water_temp_c`), else canonical (`percent` for `pct`).
      const canonical = other.canonical.length > 1 ? other.canonical : undefined;
      const alone = name.tokens.length === 1;
      expansion = runOfPrefixes(token, words, alone) ?? (canonical && runOfPrefixes(token, canonical, alone))
        ?? setOfPrefixes(token, words) ?? (canonical && setOfPrefixes(token, canonical));
    }
    if (expansion) {
      out ??= name.tokens.slice(0, i);
      out.push(...expansion);
    } else if (out) out.push(token);
  });
  return out ? prepareTokens(out) : undefined;
}

/** The consecutive words (two or more) of which `token` runs together prefixes, in order. */
function runOfPrefixes(token: string, words: readonly string[], mayHaveInitials: boolean): string[] | undefined {
  for (let start = 0; start < words.length - 1; start++) {
    if (words[start][0] !== token[0]) continue;
    const run = prefixesFrom(token, 0, words, start);
    if (!run || run.words.length < 2) continue;
    // Initials meet some run of a long name by chance (`cop` in `Contributions from Other Political
    // Committees`, `pac` in `Party_Code`): a run with a one-letter part must be the whole name and
    // hold every full word of the other name.
    if (run.initials && (!mayHaveInitials || !words.every((w) => run.words.includes(w) || isQualifier(w)))) continue;
    return run.words;
  }
  return undefined;
}

/** The words from `next` on whose prefixes spell `token` from `at`, and whether a prefix is one letter. */
function prefixesFrom(token: string, at: number, words: readonly string[], next: number): { words: string[]; initials: boolean } | undefined {
  if (at === token.length) return { words: [], initials: false };
  const word = words[next];
  if (word === undefined || word[0] !== token[at] || hasDigit(word)) return undefined;
  // Longest part first: `realcons` is `real` + `cons`, not `re` + ...
  for (let length = Math.min(word.length, token.length - at); length >= 1; length--) {
    if (!token.startsWith(word.slice(0, length), at)) continue;
    const rest = prefixesFrom(token, at + length, words, next + 1);
    if (rest) return { words: [word, ...rest.words], initials: rest.initials || (length === 1 && word.length > 1) };
  }
  // ... or the lexicon's abbreviation of the word (`wt` of `weight` in `bwt`, birth weight).
  for (const spelling of SHORT_SPELLINGS.get(stripPlural(word)) ?? []) {
    if (!token.startsWith(spelling, at)) continue;
    const rest = prefixesFrom(token, at + spelling.length, words, next + 1);
    if (rest) return { words: [word, ...rest.words], initials: rest.initials };
  }
  return undefined;
}

/** Whether a word (as written) only qualifies a name: a stopword, a unit or a generic word. */
function isQualifier(word: string): boolean {
  const w = stripPlural(word);
  return STOPWORDS.has(w) || QUALIFIERS.has(w);
}

/** Two or more distinct words, in any order, of which `token` runs together prefixes of MIN_PART letters or more. */
function setOfPrefixes(token: string, words: readonly string[], at = 0, used: readonly string[] = []): string[] | undefined {
  if (at === token.length) return used.length >= 2 ? [...used] : undefined;
  for (const word of words) {
    if (used.includes(word) || word[0] !== token[at] || hasDigit(word)) continue;
    for (let length = Math.min(word.length, token.length - at); length >= MIN_PART; length--) {
      if (!token.startsWith(word.slice(0, length), at)) continue;
      const found = setOfPrefixes(token, words, at + length, [...used, word]);
      if (found) return found;
    }
  }
  return undefined;
}

/** Whether a word (as written) is one the lexicon knows or rewrites: it means itself. */
function isLexiconWord(token: string): boolean {
  const word = stripPlural(token);
  return KNOWN_WORDS.has(word) || REWRITES.has(word);
}

function plainSimilarity(a: PreparedName, b: PreparedName): number {
  if (a.joined.length > 0 && a.joined === b.joined) return EXACT_SCORE;
  if (a.canonical.length === 0 || b.canonical.length === 0) return 0;
  if (a.canonicalKey === b.canonicalKey || a.canonicalJoined === b.canonicalJoined) return SYNONYM_SCORE;
  // Numbered names match only when the numbers of one are all in the other: `address 1` is not
  // `address 2`, but `VC100k96` (a rate per 100k in 1996) may be `violent_crime_per_100k`.
  if (!hasNumbersOf(a.numbers, b.numbers) && !hasNumbersOf(b.numbers, a.numbers)) return 0;
  const matchA = a.canonical.map((t) => bestTokenMatch(t, b.canonical));
  const matchB = b.canonical.map((t) => bestTokenMatch(t, a.canonical));
  creditAcronyms(a, b, matchA, matchB);
  creditAcronyms(b, a, matchB, matchA);
  creditCompounds(a.canonical, b.canonical, matchA, matchB);
  creditCompounds(b.canonical, a.canonical, matchB, matchA);
  const [sumA, weightA] = weighted(a.weights, matchA);
  const [sumB, weightB] = weighted(b.weights, matchB);
  const dice = (sumA + sumB) / (weightA + weightB);
  // A name whose every word is in the other (`damage` in `Effect Amount of damage`, `delay` in
  // `arr_delay_min`) is rated as the mean of Dice and 1: Dice alone (0.5) would rate it as low as
  // two names sharing half their words.
  const contained = matchA.every((m) => m === 1) || matchB.every((m) => m === 1);
  if (contained) return PARTIAL_FACTOR * (dice + 1) / 2;
  // ... and so is a shorter one whose every word abbreviates a word of the other (`unemp` in
  // `unemployment_rate`, `infl` in `inflation_rate`), its Dice counting the abbreviations' credit.
  const abbreviated = (match: number[], other: number[]) =>
    match.length < other.length && match.every((m) => m === 1 || m === PREFIX_TOKEN || m === ABBREVIATION_TOKEN);
  if (abbreviated(matchA, matchB) || abbreviated(matchB, matchA)) return PARTIAL_FACTOR * (dice + 1) / 2;
  // Names ending in the same word name the same kind of thing (`Major Genre` / `primary_genre`):
  // a third of the way from Dice to 1.
  const head = headOf(a);
  if (head !== undefined && head === headOf(b)) return PARTIAL_FACTOR * (dice + (1 - dice) * SAME_HEAD_SHARE);
  return PARTIAL_FACTOR * dice;
}

/** Whether `numbers` holds every one of `some` (true when either has none). */
function hasNumbersOf(numbers: readonly string[], some: readonly string[]): boolean {
  return numbers.length === 0 || some.length === 0 || some.every((n) => numbers.includes(n));
}

/** The last full word of a name (qualifiers and numbers aside): what it names. */
function headOf(name: PreparedName): string | undefined {
  for (let i = name.canonical.length - 1; i >= 0; i--) if (name.weights[i] === 1) return name.canonical[i];
  return undefined;
}

/** Similarity of two canonical tokens in [0, 1] (acronyms of several tokens aside). */
export function tokenSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  if (RELATED.get(a)?.has(b)) return RELATED_TOKEN;
  // Digits only ever match exactly: `address 1` is not `address 2`.
  if (hasDigit(a) || hasDigit(b)) return 0;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length >= 3 && long.startsWith(short)) return PREFIX_TOKEN;
  if (hasSameStem(short, long) && !(KNOWN_WORDS.has(a) && KNOWN_WORDS.has(b))) return PREFIX_TOKEN;
  // A word of the lexicon means itself, not letters of a longer word (`age` is not `average`, `is` not `INCOMESQ`).
  if (!KNOWN_WORDS.has(short) && isAbbreviation(short, long)) return ABBREVIATION_TOKEN;
  // The edit distance is at least the difference in length: skip it when that alone rules a typo out.
  // Two words of the lexicon are never typos of each other (`height` / `weight`, `county` / `country`).
  if (short.length >= 4 && short.length >= MIN_TYPO_SIMILARITY * long.length && !(KNOWN_WORDS.has(a) && KNOWN_WORDS.has(b))) {
    const similarity = 1 - levenshtein(a, b) / long.length;
    if (similarity >= MIN_TYPO_SIMILARITY) return similarity;
  }
  return 0;
}

/**
 * Whether two words share a stem: their first MIN_STEM letters or more, and at least STEM_SHARE of
 * the shorter (`religious` / `religiosity`, `electronic` / `electron`, not `department` / `departure`).
 */
function hasSameStem(short: string, long: string): boolean {
  let n = 0;
  while (n < short.length && short[n] === long[n]) n++;
  return n >= MIN_STEM && n >= STEM_SHARE * short.length;
}

/**
 * Whether `short` abbreviates `long` by keeping some of its letters in order: same first letter,
 * at most 60% of its length (`ttl`/`total`, `yr`/`year`, `lng`/`longitude`, `cvg`/`coverage`).
 */
function isAbbreviation(short: string, long: string): boolean {
  if (short.length < 2 || long.length < 4 || short[0] !== long[0] || short.length > 0.6 * long.length) return false;
  let j = 1;
  for (let i = 1; i < short.length; i++) {
    j = long.indexOf(short[i], j) + 1;
    if (j === 0) return false;
  }
  return true;
}

/**
 * Credits a token of `a` that spells the initials of a run of consecutive tokens of `b`
 * (`rt` / `Rotten Tomatoes`, `n` / `next` in `n_life_expect` / `next_life_expectancy`): the token
 * and the run both score ACRONYM_TOKEN, but only when then every word of both names has a match
 * (short initials meet some run of a long name by chance).
 */
function creditAcronyms(a: PreparedName, b: PreparedName, matchA: number[], matchB: number[]): void {
  const [ta, tb] = [a.canonical, b.canonical];
  if (tb.length < 2) return;
  let newA: number[] | undefined;
  let newB: number[] | undefined;
  ta.forEach((token, i) => {
    if (token.length > tb.length || matchA[i] >= ACRONYM_TOKEN || hasDigit(token)) return;
    for (let start = 0; start + token.length <= tb.length; start++) {
      let k = 0;
      while (k < token.length && tb[start + k][0] === token[k]) k++;
      if (k < token.length) continue;
      newA ??= [...matchA];
      newB ??= [...matchB];
      newA[i] = ACRONYM_TOKEN;
      for (let j = start; j < start + token.length; j++) newB[j] = Math.max(newB[j], ACRONYM_TOKEN);
      return;
    }
  });
  // Unmatched qualifiers (`mm`, `name`) may remain; every full word must be matched.
  const whole = (match: number[], weights: number[]) => match.every((m, i) => m > 0 || weights[i] < 1);
  if (!newA || !newB || !whole(newA, a.weights) || !whole(newB, b.weights)) return;
  newA.forEach((m, i) => { matchA[i] = m; });
  newB.forEach((m, i) => { matchB[i] = m; });
}

/**
 * Credits a word of `a` written as one that is a run of consecutive words of `b` (`subregion` /
 * `sub region`, `yearround` / `year round`): the word and the run match fully.
 */
function creditCompounds(a: string[], b: string[], matchA: number[], matchB: number[]): void {
  if (b.length < 2) return;
  a.forEach((token, i) => {
    if (matchA[i] === 1 || token.length < MIN_COMPOUND_LENGTH) return;
    for (let start = 0; start < b.length - 1; start++) {
      if (!token.startsWith(b[start])) continue;
      let joined = b[start];
      let end = start + 1;
      while (end < b.length && joined.length < token.length && token.startsWith(joined + b[end])) joined += b[end++];
      if (joined !== token || end - start < 2) continue;
      matchA[i] = 1;
      for (let j = start; j < end; j++) matchB[j] = 1;
      return;
    }
  });
}

/** Sum of weight × match, and sum of weights. */
function weighted(weights: number[], matches: number[]): [number, number] {
  let sum = 0;
  let total = 0;
  weights.forEach((w, i) => { sum += w * matches[i]; total += w; });
  return [sum, total];
}

function bestTokenMatch(token: string, others: string[]): number {
  let best = 0;
  for (const other of others) {
    const s = tokenSimilarity(token, other);
    if (s > best) best = s;
    if (best === 1) break;
  }
  return best;
}

// Words ending like plurals that are not (`species` is not `specy`), and plural unit abbreviations the
// lexicon spells itself (`mins` is minutes, not `min`, the minimum).
const NOT_PLURAL = new Set([
  'species', 'series', 'news', 'means', 'physics', 'economics', 'statistics', 'politics', 'headquarters', 'mins', 'secs', 'kgs',
  'kms', 'lbs',
]);

// The lexicon as lookup tables: phrases (token sequences) → canonical tokens, longest first.
interface Rewrite { from: string[]; to: string[] }
const REWRITES: Map<string, Rewrite[]> = buildRewrites();
const RELATED = buildRelated();
// The one-word spellings of the lexicon shorter than the canonical word they stand for (`weight` → `wt`, `wgt`).
const SHORT_SPELLINGS = buildShortSpellings();
const QUALIFIERS = new Map([...QUALIFIER_WEIGHTS].map(([word, weight]) => [stripPlural(word), weight]));
// The canonical words of the lexicon: what a name may hold once rewritten.
const KNOWN_WORDS = new Set([
  ...SYNONYM_GROUPS.flatMap((group) => group[0].split(' ')), ...RELATED_PAIRS.flat().flatMap((w) => w.split(' ')),
  ...QUALIFIER_WEIGHTS.keys(),
].map(stripPlural));

function buildRelated(): Map<string, Set<string>> {
  const related = new Map<string, Set<string>>();
  const add = (a: string, b: string) => { const set = related.get(a) ?? new Set(); set.add(b); related.set(a, set); };
  // Names reach the table plural-stripped (`fips` as `fip`), so its words must too.
  for (const [a, b] of RELATED_PAIRS) { add(stripPlural(a), stripPlural(b)); add(stripPlural(b), stripPlural(a)); }
  return related;
}

function buildShortSpellings(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [canonical, ...variants] of SYNONYM_GROUPS) {
    if (canonical.includes(' ')) continue;
    const short = variants.filter((v) => !v.includes(' ') && v.length >= 2 && v.length < canonical.length && !canonical.startsWith(v));
    if (short.length > 0) out.set(canonical, short);
  }
  return out;
}

function isNumber(token: string): boolean {
  return /^\d+$/.test(token);
}

function hasDigit(token: string): boolean {
  for (let i = 0; i < token.length; i++) { const c = token.charCodeAt(i); if (c >= 48 && c <= 57) return true; }
  return false;
}

function buildRewrites(): Map<string, Rewrite[]> {
  const byFirst = new Map<string, Rewrite[]>();
  for (const group of SYNONYM_GROUPS) {
    const to = group[0].split(' ');
    // The canonical spelling maps to itself, so `postal code` is not read as `postal` + `code`.
    for (const variant of group) {
      const from = variant.split(' ').map(stripPlural);
      const list = byFirst.get(from[0]) ?? [];
      list.push({ from, to });
      byFirst.set(from[0], list);
    }
  }
  for (const list of byFirst.values()) list.sort((x, y) => y.from.length - x.from.length);
  return byFirst;
}


function canonicalise(tokens: string[]): string[] {
  let out = tokens.map(stripPlural);
  // Later passes join phrases that earlier rewrites completed (`mobile no` → `phone number` →
  // `phone`); they rewrite phrases only, so a canonical word is never rewritten again.
  for (let pass = 0; pass < MAX_REWRITE_PASSES; pass++) {
    const next = rewrite(out, pass === 0 ? 1 : 2);
    if (next === out) break;
    out = next;
  }
  // A name starting with `num` counts what follows (`num_children`, `NumEmployees`), unless the
  // lexicon read it otherwise (`number of employees` is a headcount).
  if (out.length > 1 && out[0] === 'number' && COUNT_PREFIXES.has(tokens[0]) && !isNumber(out[1])) out = ['count', ...out.slice(1)];
  return out.filter((t) => !STOPWORDS.has(t));
}

/**
 * One left-to-right pass of the lexicon's rewrites of at least `minLength` words, longest first at
 * each position. Returns `tokens` itself when nothing changed.
 */
function rewrite(tokens: string[], minLength: number): string[] {
  const out: string[] = [];
  let changed = false;
  let i = 0;
  outer: while (i < tokens.length) {
    for (const { from, to } of REWRITES.get(tokens[i]) ?? []) {
      if (from.length < minLength) break; // sorted longest first
      if (i + from.length <= tokens.length && from.every((t, k) => tokens[i + k] === t)) {
        out.push(...to);
        changed ||= from.length !== to.length || from.some((t, k) => t !== to[k]);
        i += from.length;
        continue outer;
      }
    }
    out.push(tokens[i]);
    i++;
  }
  return changed ? out : tokens;
}

/** Strips an English plural so `emails`, `dates` and `categories` meet their singular. */
function stripPlural(token: string): string {
  if (NOT_PLURAL.has(token)) return token;
  if (token.length > 4 && token.endsWith('ies')) return `${token.slice(0, -3)}y`;
  if (token.length > 5 && token.endsWith('sses')) return token.slice(0, -2);
  if (token.length > 3 && token.endsWith('s') && !/(ss|us|is)$/.test(token)) return token.slice(0, -1);
  return token;
}

function levenshtein(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
    }
    previous = current;
  }
  return previous[b.length];
}
