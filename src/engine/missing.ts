/** The one definition of "missing" (engine.md "Values"). */
import type { Value } from './types.js';

/**
 * Whether a UTF-16 code unit is whitespace: exactly Python's `str.isspace` (which pandas and the
 * parity reference's `strip()` use), since engine.md says "whitespace" without defining it. So the
 * information separators U+001C..U+001F count and U+FEFF (a byte-order mark) does not, unlike JavaScript's `\s`.
 */
export function isWhitespace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13) || (c >= 0x1c && c <= 0x1f);
  return c === 0x85 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000;
}

/** True when a value is absent, null, or a string that is empty or only whitespace (isWhitespace). */
export function isMissing(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value !== 'string') return false;
  const s = value as string;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // Printable ASCII (nearly every first character) answers with one range check.
    if (c > 32 && c < 127) return false;
    if (!isWhitespace(c)) return false;
  }
  return true;
}

/** A value with missing normalised to `null`. */
export function orNull(value: Value | undefined): Value {
  return isMissing(value) ? null : (value as Value);
}
