/** `import types get|update <jobId>`: the data type of each output field. */
import type { Command } from 'commander';
import type { DataType } from '../../contract/index.js';
import type { Deps } from '../deps.js';
import { collect, parseJobId, parseType } from '../flags.js';
import { getResource, resourceCommand, updateResource, updateSubcommand, type GetOptions, type UpdatableSpec, type UpdateOptions } from '../resource-command.js';

/** How the data types resource is read, written and shown. */
export const typesSpec: UpdatableSpec<'dataTypes'> = {
  noun: 'types', key: 'dataTypes', label: 'data types', hint: '--type <field>=<type>',
  get: (client, jobId) => client.types.getWithBody(jobId),
  update: (client, jobId, body) => client.types.update(jobId, body),
  table: 'typesTable',
};

/** Options of `types update`. */
export interface TypesUpdateOptions extends UpdateOptions { types: { field: string; dataType: DataType }[] }

/** `types get`. */
export function typesGet(opts: GetOptions, deps: Deps): Promise<void> {
  return getResource(typesSpec, opts, deps);
}

/** `types update`: `--type` values laid over the current types. */
export function typesUpdate(opts: TypesUpdateOptions, deps: Deps): Promise<void> {
  return updateResource(typesSpec, opts, deps, {
    hasFlags: opts.types.length > 0,
    flags: () => (opts.types.length ? { dataTypes: Object.fromEntries(opts.types.map((t) => [t.field, t.dataType])) } : {}),
  });
}

/** Commander's values of `types update` as options (throws UsageError on a bad flag). */
export function typesUpdateOptions(jobId: string, raw: { type?: string[]; data?: string }): TypesUpdateOptions {
  return { jobId: parseJobId(jobId), data: raw.data, types: (raw.type ?? []).map(parseType) };
}

/** The `types` command. */
export function typesCommand(deps: Deps, run = { get: typesGet, update: typesUpdate }): Command {
  const command = resourceCommand(typesSpec, 'show or change the data type of each output field (number, rich_text, category, date_time)', run.get, deps);
  command.addCommand(updateSubcommand(typesSpec, [
    'import types update "$JOB" --type amount=number --type signup=date_time',
    `import types update "$JOB" --data '{"fieldDataTypes":{"amount":{"dataType":"number"}}}'`,
  ])
    .option('--type <field=type>', 'set a field\'s type: number, rich_text, category or date_time (repeatable)', collect, [])
    .action(async (jobId: string, raw: { type?: string[]; data?: string }) => run.update(typesUpdateOptions(jobId, raw), deps)));
  return command;
}
