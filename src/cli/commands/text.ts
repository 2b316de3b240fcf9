/** `import text get|update <jobId>`: casing and regular-expression replacement per field. */
import type { Command } from 'commander';
import type { Casing } from '../../contract/index.js';
import { orderedObject } from '../../contract/json.js';
import type { JobFileConfig } from '../../jobfile/types.js';
import type { Deps } from '../deps.js';
import { UsageError } from '../../errors.js';
import { collect, parseCase, parseClearReplace, parseJobId, parseReplace } from '../flags.js';
import { getResource, resourceCommand, updateResource, updateSubcommand, type GetOptions, type UpdatableSpec, type UpdateOptions } from '../resource-command.js';

/** How the text processing resource is read, written and shown. */
export const textSpec: UpdatableSpec<'text'> = {
  noun: 'text', key: 'text', label: 'text processing methods', hint: "--case <field>=<casing>, --replace '<field>=/<regex>/<replacement>/' or --clear-replace <field>",
  get: (client, jobId) => client.text.getWithBody(jobId),
  update: (client, jobId, body) => client.text.update(jobId, body),
  table: 'textTable',
};

/** Options of `text update`. */
export interface TextUpdateOptions extends UpdateOptions {
  casing: { field: string; casing: Casing }[];
  /** Per field, the replacements that become its whole rule set (empty: none). */
  replace: Record<string, Record<string, string>>;
  warnings: string[];
}

/** `text get`. */
export function textGet(opts: GetOptions, deps: Deps): Promise<void> {
  return getResource(textSpec, opts, deps);
}

/** `text update`: `--case` values and each `--replace`d field's rules laid over the current methods. */
export function textUpdate(opts: TextUpdateOptions, deps: Deps): Promise<void> {
  const replaced = Object.keys(opts.replace).length > 0;
  return updateResource(textSpec, opts, deps, {
    hasFlags: opts.casing.length > 0 || replaced,
    warnings: opts.warnings,
    flags: () => {
      const text: NonNullable<JobFileConfig['text']> = {};
      if (opts.casing.length) text.casing = Object.fromEntries(opts.casing.map((c) => [c.field, c.casing]));
      if (replaced) text.regexReplacement = Object.fromEntries(Object.entries(opts.replace).map(([field, rules]) => [field, new Map(Object.entries(rules))]));
      return Object.keys(text).length ? { text } : {};
    },
  });
}

/** Commander's values of `text update` as options (throws UsageError on a bad flag). */
export function textUpdateOptions(jobId: string, raw: TextRawOptions): TextUpdateOptions {
  const parsed = (raw.case ?? []).map(parseCase);
  // Rules keep the order given ("9" before "0" too): they apply in that order.
  const rules = new Map<string, [string, string][]>();
  for (const { field, pattern, replacement } of (raw.replace ?? []).map(parseReplace)) rules.set(field, [...(rules.get(field) ?? []), [pattern, replacement]]);
  for (const field of (raw.clearReplace ?? []).map(parseClearReplace)) {
    if (rules.has(field)) throw new UsageError(`--replace and --clear-replace both name the field "${field}"; keep one.`);
    rules.set(field, []);
  }
  const replace = orderedObject([...rules].map(([field, pairs]) => [field, orderedObject(pairs)] as const));
  return {
    jobId: parseJobId(jobId), data: raw.data,
    casing: parsed.map(({ field, casing }) => ({ field, casing })),
    replace,
    warnings: parsed.flatMap((p) => (p.warning ? [p.warning] : [])),
  };
}

/** Commander's raw values of `text update`. */
interface TextRawOptions { case?: string[]; replace?: string[]; clearReplace?: string[]; data?: string }

/** The `text` command. */
export function textCommand(deps: Deps, run = { get: textGet, update: textUpdate }): Command {
  const command = resourceCommand(textSpec, 'show or change text processing per field: casing and regular-expression replacement', run.get, deps);
  command.addCommand(updateSubcommand(textSpec, [
    'import text update "$JOB" --case name=title --case country=upper',
    `import text update "$JOB" --replace 'phone=/[^0-9+]//' --replace 'notes=/\\s+/ /'`,
    'import text update "$JOB" --clear-replace phone',
  ])
    .option('--case <field=casing>', 'upper, lower, title or swap (repeatable)', collect, [])
    .option('--replace <field=/regex/replacement/>', "replace the field's regular-expression rules, sed style; repeat for several rules (repeatable)", collect, [])
    .option('--clear-replace <field>', 'no regular-expression replacement for a field (repeatable)', collect, [])
    .action(async (jobId: string, raw: TextRawOptions) => run.update(textUpdateOptions(jobId, raw), deps)));
  return command;
}
