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

/** Matches what `${` starts: an escape, a reference, or anything else up to its `}` (or the line's end). */
const DOLLAR_BRACE = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$\{[^}\n]*\}?/g;

/**
 * The `${` forms in `text` that are neither a `${NAME}` reference nor a `$${` escape, such as a
 * shell default (`${PIPELINE:-pl_customers}`) or spaces (`${ TOKEN }`): substitution would leave
 * them in the value as written, so a pipeline id or a URL would be sent with the braces in it.
 */
export function invalidReferences(text: string): { text: string; index: number }[] {
  const found: { text: string; index: number }[] = [];
  if (!text.includes('${')) return found;
  for (const m of text.matchAll(DOLLAR_BRACE)) {
    if (m[0] !== '$${' && m[1] === undefined) found.push({ text: m[0], index: m.index ?? 0 });
  }
  return found;
}

/** Why a `${...}` form is not a reference, and how to write it, as the end of a sentence. */
export function invalidReferenceFix(form: string): string {
  const shell = /^\$\{([A-Za-z_][A-Za-z0-9_]*)(:?[-=?+])/.exec(form);
  if (shell) {
    return `job files read only \${NAME}, with no shell forms such as "${shell[2]}" (a default), so it would be kept as written; set ${shell[1]} in the environment and write \${${shell[1]}}, or write the value itself`;
  }
  return 'job files read only ${NAME} (letters, digits and _, no spaces), so it would be kept as written; fix the name, or write $${ for a literal "${"';
}

/** Start offsets of the `${NAME}` references (not the `$${` escapes) in `text`, in order. */
export function referenceOffsets(text: string): { name: string; index: number }[] {
  const found: { name: string; index: number }[] = [];
  for (const m of text.matchAll(REFERENCE)) {
    if (m[1] !== undefined) found.push({ name: m[1], index: m.index ?? 0 });
  }
  return found;
}
