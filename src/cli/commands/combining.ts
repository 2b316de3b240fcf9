/** `import combining get|update <jobId>`: how several columns mapped to one field are joined. */
import type { Command } from 'commander';
import type { CombiningMethod } from '../../contract/index.js';
import { UsageError } from '../../errors.js';
import type { Deps } from '../deps.js';
import { parseCombiningMethod, parseJobId, parseList } from '../flags.js';
import { getResource, resourceCommand, updateResource, updateSubcommand, type GetOptions, type UpdatableSpec, type UpdateOptions } from '../resource-command.js';

/** How the column combining resource is read, written and shown. */
export const combiningSpec: UpdatableSpec<'combining'> = {
  noun: 'combining', key: 'combining', label: 'column combining methods', hint: '--field <field> with --method, --separator or --order',
  get: (client, jobId) => client.combining.getWithBody(jobId),
  update: (client, jobId, body) => client.combining.update(jobId, body),
  table: 'combiningTable',
};

/** Options of `combining update`: one field's method, separator and order, each optional. */
export interface CombiningUpdateOptions extends UpdateOptions {
  field?: string;
  method?: CombiningMethod;
  separator?: string;
  order?: string[];
}

/** `combining get`. */
export function combiningGet(opts: GetOptions, deps: Deps): Promise<void> {
  return getResource(combiningSpec, opts, deps);
}

/** `combining update`: one field's settings laid over the current methods (unset members keep their value). */
export function combiningUpdate(opts: CombiningUpdateOptions, deps: Deps): Promise<void> {
  const { field } = opts;
  return updateResource(combiningSpec, opts, deps, {
    hasFlags: field !== undefined,
    flags: () => {
      if (field === undefined) return {};
      const entry: { method?: CombiningMethod; separator?: string; order?: string[] } = {};
      if (opts.method !== undefined) entry.method = opts.method;
      if (opts.separator !== undefined) entry.separator = opts.separator;
      if (opts.order !== undefined) entry.order = opts.order;
      return { combining: { [field]: entry } };
    },
  });
}

/** Commander's values of `combining update` as options (throws UsageError on a bad flag). */
export function combiningUpdateOptions(jobId: string, raw: { field?: string; method?: string; separator?: string; order?: string; data?: string }): CombiningUpdateOptions {
  if (raw.field === undefined && (raw.method !== undefined || raw.separator !== undefined || raw.order !== undefined)) {
    throw new UsageError('--method, --separator and --order apply to one field: add --field <field>.');
  }
  if (raw.field === '') throw new UsageError('--field is empty; pass the output field whose columns are combined, e.g. --field name.');
  return {
    jobId: parseJobId(jobId), data: raw.data, field: raw.field,
    method: raw.method !== undefined ? parseCombiningMethod(raw.method) : undefined,
    separator: raw.separator,
    order: raw.order !== undefined ? parseList('--order', raw.order) : undefined,
  };
}

/** The `combining` command. */
export function combiningCommand(deps: Deps, run = { get: combiningGet, update: combiningUpdate }): Command {
  const command = resourceCommand(combiningSpec, 'show or change how columns mapped to one field are combined (stringAppend or json)', run.get, deps);
  command.addCommand(updateSubcommand(combiningSpec, [
    'import combining update "$JOB" --field name --method stringAppend --separator " " --order First,Last',
    'import combining update "$JOB" --field address --method json',
  ])
    .option('--field <field>', 'the output field whose columns are combined')
    .option('--method <method>', 'stringAppend (default) or json')
    .option('--separator <text>', 'text between values for stringAppend (default: none)')
    .option('--order <columns>', 'comma list of columns in combining order')
    .action(async (jobId: string, raw: { field?: string; method?: string; separator?: string; order?: string; data?: string }) => run.update(combiningUpdateOptions(jobId, raw), deps)));
  return command;
}
