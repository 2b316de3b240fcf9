/** The one definition of "missing" (engine.md "Values"). */
import type { Value } from './types.js';

/** True when a value is absent, null, or a string that is empty or only whitespace. */
export function isMissing(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value !== 'string') return false;
  const s = value as string;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // Printable ASCII (nearly every first character) answers with one range check.
    if (c > 32 && c < 127) return false;
    // Any other non-whitespace character means present.
    if (c > 32 && c !== 160 && !(c >= 0x2000 && c <= 0x200a) && c !== 0x3000 && c !== 0xfeff && c !== 0x2028 && c !== 0x2029 && c !== 0x202f && c !== 0x205f && c !== 0x1680 && c !== 0x85) return false;
    if (c <= 32 && c !== 9 && c !== 10 && c !== 11 && c !== 12 && c !== 13 && c !== 32) return false;
  }
  return true;
}

/** A value with missing normalised to `null`. */
export function orNull(value: Value | undefined): Value {
  return isMissing(value) ? null : (value as Value);
}
