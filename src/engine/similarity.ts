/**
 * Name similarity between input columns and output fields (engine.md "Suggestions", mapping):
 * names are normalised (case, spaces, `_`, `-`, camelCase, accents), then common abbreviations
 * and synonyms are rewritten to one canonical spelling, then compared token by token.
 *
 * Scores, in [0, 1]:
 * - 1.0 when the names are equal once normalised (`firstName` = `first_name` = `FIRST NAME`,
 *   `E-mail` = `email`);
 * - 0.95 when they are equal once synonyms are applied (`E-mail Address` = `email`, `Qty` =
 *   `quantity`, `Tel` = `phone`, `created_at` = `Created`), in any token order;
 * - otherwise 0.9 × a soft Dice coefficient over the canonical tokens, where two tokens score 1
 *   when equal, 0.8 when related (`date`/`created`, `amount`/`total`), 0.7 when one is a prefix
 *   abbreviation of the other (`cat`/`category`), and their edit-distance similarity when that is
 *   at least 0.75 (typos: `adress`/`address`). The 0.9 factor keeps partial matches below
 *   synonym matches.
 */

/** Score of names equal once normalised. */
export const EXACT_SCORE = 1;
/** Score of names equal once synonyms and abbreviations are applied. */
export const SYNONYM_SCORE = 0.95;
/** Factor applied to partial (token overlap) matches. */
const PARTIAL_FACTOR = 0.9;
const RELATED_TOKEN = 0.8;
const PREFIX_TOKEN = 0.7;
const MIN_TYPO_SIMILARITY = 0.75;

// Multi-token phrases rewritten before single tokens (on plural-stripped raw tokens).
const RAW_PHRASES: [string[], string[]][] = [
  [['e', 'mail'], ['email']],
  [['zip', 'code'], ['postal', 'code']],
  [['post', 'code'], ['postal', 'code']],
  [['date', 'of', 'birth'], ['birth', 'date']],
  [['birth', 'day'], ['birth', 'date']],
  [['given', 'name'], ['first', 'name']],
  [['family', 'name'], ['last', 'name']],
  [['creation', 'date'], ['created']],
  [['creation', 'time'], ['created']],
];

// Single tokens (plural-stripped) rewritten to their canonical spelling.
const TOKEN_SYNONYMS: Record<string, string[]> = {
  mail: ['email'], emailaddress: ['email'], emailaddr: ['email'], emailid: ['email'],
  qty: ['quantity'], qnty: ['quantity'],
  tel: ['phone'], telephone: ['phone'], mobile: ['phone'], cell: ['phone'], cellphone: ['phone'],
  phonenumber: ['phone'], phoneno: ['phone'], telno: ['phone'], mob: ['phone'],
  amt: ['amount'],
  addr: ['address'], adr: ['address'],
  desc: ['description'], descr: ['description'],
  identifier: ['id'], key: ['id'], ids: ['id'],
  num: ['number'], no: ['number'], nr: ['number'], nbr: ['number'], nro: ['number'],
  nation: ['country'], ctry: ['country'], cntry: ['country'],
  creation: ['created'], create: ['created'],
  dob: ['birth', 'date'], birthdate: ['birth', 'date'], birthday: ['birth', 'date'],
  zip: ['postal', 'code'], zipcode: ['postal', 'code'], postcode: ['postal', 'code'], postalcode: ['postal', 'code'],
  fname: ['first', 'name'], firstname: ['first', 'name'], forename: ['first', 'name'], givenname: ['first', 'name'],
  lname: ['last', 'name'], lastname: ['last', 'name'], surname: ['last', 'name'], familyname: ['last', 'name'],
  fullname: ['full', 'name'],
  dt: ['date'],
  cust: ['customer'],
  org: ['organization'], organisation: ['organization'],
  sex: ['gender'],
  pct: ['percent'], percentage: ['percent'],
  modified: ['updated'], update: ['updated'],
};

// Phrases rewritten after single tokens (on canonical tokens).
const CANONICAL_PHRASES: [string[], string[]][] = [
  [['e', 'email'], ['email']],
  [['email', 'address'], ['email']],
  [['phone', 'number'], ['phone']],
  [['created', 'date'], ['created']],
  [['date', 'created'], ['created']],
  [['created', 'time'], ['created']],
  [['created', 'timestamp'], ['created']],
  [['updated', 'date'], ['updated']],
  [['date', 'updated'], ['updated']],
  [['last', 'updated'], ['updated']],
];

// Words that carry no meaning in a column name (`created_at` = `created`, `date of birth`).
const STOPWORDS = new Set(['of', 'the', 'at', 'on', 'a', 'an', 'in', 'by']);

// Related but not equivalent tokens: a partial match (RELATED_TOKEN).
const RELATED = new Set(
  [
    ['created', 'date'], ['created', 'timestamp'], ['date', 'timestamp'], ['date', 'time'], ['updated', 'date'],
    ['id', 'number'], ['id', 'code'],
    ['amount', 'total'], ['amount', 'value'], ['amount', 'price'], ['amount', 'sum'],
    ['quantity', 'count'],
    ['name', 'title'],
    ['description', 'note'], ['description', 'comment'], ['note', 'comment'],
    ['address', 'street'],
    ['company', 'organization'],
    ['city', 'town'], ['state', 'province'], ['state', 'region'],
  ].map(([a, b]) => pairKey(a, b)),
);

function pairKey(a: string, b: string): string {
  return a < b ? `${a}|${b}` : `${b}|${a}`;
}

/** A name prepared once for many comparisons. */
export interface PreparedName {
  /** Normalised tokens, before synonyms (`E-mail Address` → `e`, `mail`, `address`). */
  tokens: string[];
  /** The normalised tokens joined without separators, for the exact comparison. */
  joined: string;
  /** Canonical tokens: plurals stripped, synonyms applied, stopwords removed. */
  canonical: string[];
  /** The canonical tokens sorted and joined, for the order-insensitive synonym comparison. */
  canonicalKey: string;
  /** The canonical tokens joined without separators (`zip code` and `zipcode` agree). */
  canonicalJoined: string;
}

/** Splits a name into lower-case tokens: camelCase, letter/digit boundaries, any non-alphanumeric. */
export function nameTokens(name: string): string[] {
  const spaced = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/#/g, ' number ')
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, '$1 $2')
    .replace(/(\p{L})(\p{N})/gu, '$1 $2')
    .replace(/(\p{N})(\p{L})/gu, '$1 $2')
    .toLowerCase();
  return spaced.split(/[^\p{L}\p{N}]+/u).filter((t) => t.length > 0);
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
  const tokens = nameTokens(name);
  const canonical = canonicalise(tokens);
  return {
    tokens,
    joined: tokens.join(''),
    canonical,
    canonicalKey: [...canonical].sort().join(' '),
    canonicalJoined: canonical.join(''),
  };
}

/** Similarity of two names in [0, 1] (see the module comment for the scale). */
export function nameSimilarity(a: string, b: string): number {
  return preparedSimilarity(prepareName(a), prepareName(b));
}

/** Similarity of two prepared names in [0, 1], unrounded. */
export function preparedSimilarity(a: PreparedName, b: PreparedName): number {
  if (a.joined.length > 0 && a.joined === b.joined) return EXACT_SCORE;
  if (a.canonical.length === 0 || b.canonical.length === 0) return 0;
  if (a.canonicalKey === b.canonicalKey || a.canonicalJoined === b.canonicalJoined) return SYNONYM_SCORE;
  let total = 0;
  for (const t of a.canonical) total += bestTokenMatch(t, b.canonical);
  for (const t of b.canonical) total += bestTokenMatch(t, a.canonical);
  return (PARTIAL_FACTOR * total) / (a.canonical.length + b.canonical.length);
}

/** Similarity of two canonical tokens in [0, 1]. */
export function tokenSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  if (RELATED.has(pairKey(a, b))) return RELATED_TOKEN;
  // Digits only ever match exactly: `address 1` is not `address 2`.
  if (/\d/.test(a) || /\d/.test(b)) return 0;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length >= 3 && long.startsWith(short)) return PREFIX_TOKEN;
  if (short.length >= 4) {
    const similarity = 1 - levenshtein(a, b) / long.length;
    if (similarity >= MIN_TYPO_SIMILARITY) return similarity;
  }
  return 0;
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

function canonicalise(tokens: string[]): string[] {
  let out = rewritePhrases(tokens.map(stripPlural), RAW_PHRASES);
  out = out.flatMap((t) => TOKEN_SYNONYMS[t] ?? [t]);
  out = rewritePhrases(out, CANONICAL_PHRASES);
  return out.filter((t) => !STOPWORDS.has(t));
}

/** Strips an English plural so `emails`, `dates` and `categories` meet their singular. */
function stripPlural(token: string): string {
  if (token.length > 4 && token.endsWith('ies')) return `${token.slice(0, -3)}y`;
  if (token.length > 5 && token.endsWith('sses')) return token.slice(0, -2);
  if (token.length > 3 && token.endsWith('s') && !/(ss|us|is)$/.test(token)) return token.slice(0, -1);
  return token;
}

function rewritePhrases(tokens: string[], phrases: [string[], string[]][]): string[] {
  const out: string[] = [];
  let i = 0;
  outer: while (i < tokens.length) {
    for (const [from, to] of phrases) {
      if (i + from.length <= tokens.length && from.every((t, k) => tokens[i + k] === t)) {
        out.push(...to);
        i += from.length;
        continue outer;
      }
    }
    out.push(tokens[i]);
    i++;
  }
  // A rewrite can complete another phrase (`e mail address` → `email address` → `email`).
  return out.length < tokens.length ? rewritePhrases(out, phrases) : out;
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
