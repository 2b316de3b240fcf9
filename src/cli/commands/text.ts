/** `import text get|update <jobId>`: casing and regular-expression replacement per field. */
import type { Command } from 'commander';
import type { Casing } from '../../contract/index.js';
import type { Deps } from '../deps.js';
import { collect, parseCase, parseJobId } from '../flags.js';
import { getResource, resourceCommand, updateResource, updateSubcommand, type GetOptions, type UpdatableSpec, type UpdateOptions } from '../resource-command.js';

/** How the text processing resource is read, written and shown. */
export const textSpec: UpdatableSpec<'text'> = {
  noun: 'text', key: 'text', label: 'text processing methods', hint: '--case <field>=<casing>',
  get: (client, jobId) => client.text.get(jobId),
  update: (client, jobId, body) => client.text.update(jobId, body),
  table: 'textTable',
};

/** Options of `text update`. */
export interface TextUpdateOptions extends UpdateOptions { casing: { field: string; casing: Casing }[]; warnings: string[] }

/** `text get`. */
export function textGet(opts: GetOptions, deps: Deps): Promise<void> {
  return getResource(textSpec, opts, deps);
}

/** `text update`: `--case` values laid over the current methods (regular expressions through --data). */
export function textUpdate(opts: TextUpdateOptions, deps: Deps): Promise<void> {
  return updateResource(textSpec, opts, deps, {
    hasFlags: opts.casing.length > 0,
    warnings: opts.warnings,
    flags: () => (opts.casing.length ? { text: { casing: Object.fromEntries(opts.casing.map((c) => [c.field, c.casing])) } } : {}),
  });
}

/** Commander's values of `text update` as options (throws UsageError on a bad flag). */
export function textUpdateOptions(jobId: string, raw: { case?: string[]; data?: string }): TextUpdateOptions {
  const parsed = (raw.case ?? []).map(parseCase);
  return {
    jobId: parseJobId(jobId), data: raw.data,
    casing: parsed.map(({ field, casing }) => ({ field, casing })),
    warnings: parsed.flatMap((p) => (p.warning ? [p.warning] : [])),
  };
}

/** The `text` command. */
export function textCommand(deps: Deps, run = { get: textGet, update: textUpdate }): Command {
  const command = resourceCommand(textSpec, 'show or change text processing per field: casing and regular-expression replacement', run.get, deps);
  command.addCommand(updateSubcommand(textSpec, [
    'import text update "$JOB" --case name=title --case country=upper',
    `import text update "$JOB" --data '{"textProcessingMethods":{"regexReplacement":{"phone":{"[^0-9+]":""}}}}'`,
  ])
    .option('--case <field=casing>', 'upper, lower, title or swap (repeatable)', collect, [])
    .action(async (jobId: string, raw: { case?: string[]; data?: string }) => run.update(textUpdateOptions(jobId, raw), deps)));
  return command;
}
