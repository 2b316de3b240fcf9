/**
 * The regular-expression engine of text rules (`regexReplacement`): the one place a user's
 * pattern is checked and compiled, for the engine, `validate`, the flag and body parsers and
 * `import serve`.
 *
 * A user's pattern must never be able to freeze a run: `(a+)+$` on forty `a`s and a `!` backtracks
 * for hours in a backtracking engine. Patterns run on V8's own RegExp (ECMAScript semantics,
 * `$1`-style references, native speed) with V8's linear-time engine as the fallback: a match that
 * backtracks more than BACKTRACKS_BEFORE_FALLBACK times is finished by the linear engine, which
 * gives the same result. A pattern the linear engine cannot run (a back-reference, a lookahead or
 * lookbehind, a repetition count over 16) is refused here with a reason and a way out.
 *
 * Measured on the reference job's rule (`[^0-9]` -> "" on 1M phone numbers): V8 0.2-0.5 s,
 * re2js (pure JS RE2) 2.7-2.8 s, re2-wasm 20-32 s, V8's linear engine alone 2.6-3.1 s; with the
 * fallback on, as fast as V8 alone. So the fallback keeps the speed and the semantics.
 */
import { setFlagsFromString } from 'node:v8';
import { UsageError } from '../errors.js';

/**
 * Backtracks one match may take before the linear engine finishes it. Normal patterns on normal
 * values stay far below; a hostile match then costs about 0.1 ms (measured on `(a+)+$` and
 * `^(a|a)+$` over forty `a` and a `!`: 0.1-0.16 ms a value at 10,000, 0.7-0.85 ms at V8's default
 * 50,000, 0.03-0.06 ms at 2,000), while a legitimate but heavy match rarely pays the linear
 * engine's slower (same-result) pace.
 */
const BACKTRACKS_BEFORE_FALLBACK = 10_000;

let linearEngine: boolean | undefined;

/**
 * Turns on V8's linear-time fallback for every RegExp compiled from now on, in every thread of the
 * process (V8 flags are per process), and reports whether this V8 has the linear engine. Must run
 * before a user's pattern is first compiled: V8 fixes a RegExp's backtrack limit when it compiles it.
 */
function enableLinearEngine(): boolean {
  if (linearEngine !== undefined) return linearEngine;
  try {
    // Already on (another thread of this process set it): setting V8 flags again is not needed.
    new RegExp('', 'l');
    linearEngine = true;
    return true;
  } catch { /* not yet */ }
  setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
  setFlagsFromString(`--regexp-backtracks-before-fallback=${BACKTRACKS_BEFORE_FALLBACK}`);
  // The `l` flag: compiling a pattern with it is how we learn whether the linear engine can run it.
  setFlagsFromString('--enable-experimental-regexp-engine');
  try {
    new RegExp('', 'l');
    linearEngine = true;
  } catch {
    linearEngine = false;
  }
  return linearEngine;
}

/** What the linear engine cannot run, and the way out: the end of a sentence naming the pattern. */
export const NOT_LINEAR = 'cannot be run in linear time, so one value could make a run take hours: '
  + 'back-references (\\1), lookaheads and lookbehinds ((?=, (?!, (?<=, (?<!) and repetition counts over 16 (as in {1,20}) are not supported; '
  + 'rewrite it without them (\\d+ for \\d{1,20}) or split it into several rules';

/**
 * Whether V8's linear-time engine can run `pattern` (which compiles as an ECMAScript regular
 * expression); true on a V8 without that engine, where nothing more can be checked.
 */
export function runsInLinearTime(pattern: string): boolean {
  if (!enableLinearEngine()) return true;
  try {
    new RegExp(pattern, 'gl');
    return true;
  } catch {
    return false;
  }
}

/**
 * Why `pattern` cannot be a text rule, as the end of a sentence naming it ("does not compile
 * (...); fix or escape it", or NOT_LINEAR); undefined when it can. The one check every layer
 * uses: flags, `--data`, job files, the service's bodies and the engine.
 */
export function regexProblem(pattern: string): string | undefined {
  enableLinearEngine();
  try {
    new RegExp(pattern, 'g');
  } catch (e) {
    return `does not compile (${(e as Error).message.replace(/^Invalid regular expression: /, '')}); fix or escape it`;
  }
  // Without the u flag `\p{L}` compiles, as the text "p{L}": a Unicode property that matches nothing it names.
  const property = /(?<!\\)(?:\\\\)*\\([pP])\{([^}]*)\}/.exec(pattern);
  if (property) {
    const escape = `\\${property[1]}{${property[2]}}`;
    return `uses ${escape}, a Unicode property, which text rules do not read: they run without the u flag, where ${escape} is the text "${escape.slice(1)}"; spell the characters out in a class instead, such as [A-Za-zÀ-ÖØ-öø-ÿ]`;
  }
  return runsInLinearTime(pattern) ? undefined : NOT_LINEAR;
}

/**
 * Why a replacement's `$` references do not do what they look like with `pattern` (which compiles),
 * as the end of a sentence naming the replacement; undefined when they do. In ECMAScript a
 * reference to a group the pattern does not have is inserted as written (`$2` with one group, `$0`,
 * `$<name>` with no named groups) or as nothing (`$<name>` with other named groups), so the output
 * would hold the reference or lose text without a word. `$$` is a literal `$`.
 */
export function replacementProblem(pattern: string, replacement: string): string | undefined {
  if (!replacement.includes('$')) return undefined;
  const match = new RegExp(`${pattern}|`).exec('')!;
  const groups = match.length - 1;
  const names = Object.keys(match.groups ?? {});
  const counted = `the pattern has ${groups === 0 ? 'no groups' : groups === 1 ? 'one group' : `${groups} groups`}`;
  for (let i = 0; i < replacement.length; i++) {
    if (replacement[i] !== '$') continue;
    const next = replacement[i + 1];
    if (next === '$' || next === '&' || next === '`' || next === "'") { i++; continue; }
    if (next !== undefined && next >= '0' && next <= '9') {
      const two = /^\d\d/.test(replacement.slice(i + 1)) ? Number(replacement.slice(i + 1, i + 3)) : undefined;
      if (two !== undefined && two >= 1 && two <= groups) { i += 2; continue; }
      const one = Number(next);
      if (one === 0 && two === undefined) return 'holds $0, which ECMAScript inserts as written (it has no group 0); write $& for the whole match, or $$0 for the text "$0"';
      if (one >= 1 && one <= groups) { i++; continue; }
      const ref = two !== undefined && one === 0 ? replacement.slice(i, i + 3) : `$${next}`;
      return `refers to group ${ref.slice(1)} with ${ref}, but ${counted}, so ${ref} would be inserted as written; refer to a group the pattern has, or write $${ref} for the text "${ref}"`;
    }
    const named = next === '<' ? /^\$<([^>]*)>/.exec(replacement.slice(i)) : null;
    if (named) {
      const [ref, name] = named;
      if (names.length === 0) return `refers to the group "${name}" with ${ref}, but the pattern has no named groups, so ${ref} would be inserted as written; name the group in the pattern ((?<${name}>...)), or write $${ref} for the text "${ref}"`;
      if (!names.includes(name)) return `refers to the group "${name}" with ${ref}, but the pattern's named groups are ${names.join(', ')}, so it would insert nothing; use one of those names`;
      i += ref.length - 1;
    }
  }
  return undefined;
}

/**
 * A text rule's regular expression, compiled as the engine runs it (ECMAScript, global, with the
 * linear-time fallback), or a UsageError naming `where`, the pattern and the reason.
 */
export function compileRegex(pattern: string, where: string): RegExp {
  const problem = regexProblem(pattern);
  if (problem) throw new UsageError(`${where}: the regular expression ${JSON.stringify(pattern)} ${problem}.`);
  return new RegExp(pattern, 'g');
}

/**
 * A text rule's replacement as a function: `text.replace(regex, replacement)` with the pattern
 * compiled by compileRegex. When the pattern is one character class of ASCII characters and the
 * replacement is ASCII text without `$`, ASCII values are replaced in JavaScript (asciiClassReplacer),
 * others by the RegExp.
 */
export function compileReplacement(pattern: string, replacement: string, where: string): (text: string) => string {
  const regex = compileRegex(pattern, where);
  const fast = asciiClassReplacer(pattern, replacement);
  return fast ? (text) => fast(text) ?? text.replace(regex, replacement) : (text) => text.replace(regex, replacement);
}

/** Buffer with Node's own Latin-1 decoding (used by Buffer#toString), called without its argument checks. */
type FastBuffer = Buffer & { latin1Slice(start: number, end: number): string };

/** Scratch bytes of asciiClassReplacer's results; longer results take the RegExp. */
const REPLACE_SCRATCH = Buffer.allocUnsafeSlow(4096) as FastBuffer;

/**
 * For a pattern that is one character class of ASCII characters (`[^0-9]`, `[-() .]`, `[\s_]`)
 * and an ASCII replacement without `$`, a function that replaces every character of the class in
 * ASCII text and gives undefined for other text; undefined for any other pattern or replacement.
 * On ASCII text such a class matches one character at a time, so the result is the RegExp's
 * exactly; the RegExp cost ~200 ns a value (the reference job's `[^0-9]` on 1M phone numbers),
 * this about half.
 */
export function asciiClassReplacer(pattern: string, replacement: string): ((text: string) => string | undefined) | undefined {
  const members = asciiClass(pattern);
  if (!members || replacement.includes('$') || !/^[\x00-\x7f]*$/.test(replacement)) return undefined;
  const inserted = Buffer.from(replacement, 'latin1');
  const grows = Math.max(1, inserted.length);
  return (text) => {
    const n = text.length;
    if (n * grows > REPLACE_SCRATCH.length) return undefined;
    const out = REPLACE_SCRATCH;
    let w = 0;
    let isChanged = false;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c >= 128) return undefined;
      if (members[c] === 0) {
        out[w++] = c;
        continue;
      }
      isChanged = true;
      for (let k = 0; k < inserted.length; k++) out[w++] = inserted[k];
    }
    return isChanged ? out.latin1Slice(0, w) : text;
  };
}

/** The ASCII characters of class escapes, as ranges, by letter (`\D`, `\W`, `\S` are their complements). */
const CLASS_ESCAPES: Record<string, [number, number][]> = {
  d: [[48, 57]],
  w: [[48, 57], [65, 90], [95, 95], [97, 122]],
  s: [[9, 13], [32, 32]],
};

/**
 * Which ASCII characters a pattern that is exactly one character class matches (1 per member of
 * 128), or undefined when it is anything else or holds what this reading does not take (a
 * character that is not ASCII, a range with an escape at an end, `\b`, `\c`, `\x`, `\u`, nested
 * `[`, an empty class). Members are literal characters, ranges `a-z`, `\d \D \w \W \s \S` and an
 * escaped punctuation character; a `-` that cannot make a range is itself, as in ECMAScript.
 */
export function asciiClass(pattern: string): Uint8Array | undefined {
  const end = pattern.length - 1;
  if (end < 2 || pattern[0] !== '[' || pattern[end] !== ']') return undefined;
  let i = 1;
  const negated = pattern[i] === '^';
  if (negated) i++;
  if (i === end) return undefined;
  const members = new Uint8Array(128);
  const isPunctuation = (c: number) => (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126);
  while (i < end) {
    let c = pattern.charCodeAt(i);
    if (c >= 128 || c === 91 || c === 93) return undefined;
    if (c === 92) {
      const escaped = pattern[i + 1];
      const lower = escaped.toLowerCase();
      if (Object.hasOwn(CLASS_ESCAPES, lower)) {
        const set = new Uint8Array(128);
        for (const [from, to] of CLASS_ESCAPES[lower]) set.fill(1, from, to + 1);
        for (let k = 0; k < 128; k++) if (set[k] === (escaped === lower ? 1 : 0)) members[k] = 1;
        i += 2;
        continue;
      }
      c = escaped.charCodeAt(0);
      if (!isPunctuation(c)) return undefined;
      i += 2;
    } else i++;
    // A range: this character, `-`, and a plain character that is not the class's closing `]`.
    if (pattern[i] === '-' && i + 1 < end) {
      const to = pattern.charCodeAt(i + 1);
      if (to >= 128 || to === 91 || to === 92 || to === 93 || to < c) return undefined;
      members.fill(1, c, to + 1);
      i += 2;
      continue;
    }
    members[c] = 1;
  }
  if (negated) for (let c = 0; c < 128; c++) members[c] ^= 1;
  return members;
}
