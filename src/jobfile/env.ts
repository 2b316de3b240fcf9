/** `${NAME}` substitution of environment variables in job-file string values. */

/** A `${NAME}` reference whose variable is not set: `index` is where it starts in the string, `ordinal` its rank among the references. */
export interface MissingVariable { name: string; index: number; ordinal: number }

/** Matches an escaped `$${` or a `${NAME}` reference (NAME as in POSIX shells). */
const REFERENCE = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Replaces each `${NAME}` in `value` with the variable's value; `$${NAME}` yields the literal
 * `${NAME}`. Unset variables are left in place and listed in `missing` (an empty value counts as set).
 */
export function substituteEnv(value: string, env: NodeJS.ProcessEnv): { value: string; missing: MissingVariable[] } {
  const missing: MissingVariable[] = [];
  if (!value.includes('${')) return { value, missing };
  let ordinal = 0;
  const out = value.replace(REFERENCE, (match: string, name: string | undefined, index: number) => {
    if (name === undefined) return '${';
    const set = env[name];
    if (set === undefined) {
      missing.push({ name, index, ordinal });
      ordinal++;
      return match;
    }
    ordinal++;
    return set;
  });
  return { value: out, missing };
}

/** Start offsets of the `${NAME}` references (not the `$${` escapes) in `text`, in order. */
export function referenceOffsets(text: string): { name: string; index: number }[] {
  const found: { name: string; index: number }[] = [];
  for (const m of text.matchAll(REFERENCE)) {
    if (m[1] !== undefined) found.push({ name: m[1], index: m.index ?? 0 });
  }
  return found;
}
