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
  return runsInLinearTime(pattern) ? undefined : NOT_LINEAR;
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
