/** `import impute get|update <jobId>`: what to do with missing values per field. */
import type { Command } from 'commander';
import type { Deps } from '../deps.js';
import { collect, parseImpute, parseJobId, type ImputeFlag } from '../flags.js';
import { getResource, resourceCommand, updateResource, updateSubcommand, type GetOptions, type UpdatableSpec, type UpdateOptions } from '../resource-command.js';

/** How the impute resource is read, written and shown. */
export const imputeSpec: UpdatableSpec<'impute'> = {
  noun: 'impute', key: 'impute', label: 'impute methods', hint: '--impute <field>=fill:<value>|dropMissing|none',
  get: (client, jobId) => client.impute.getWithBody(jobId),
  update: (client, jobId, body) => client.impute.update(jobId, body),
  table: 'imputeTable',
};

/** Options of `impute update`. */
export interface ImputeUpdateOptions extends UpdateOptions { set: ImputeFlag[] }

/** `impute get`. */
export function imputeGet(opts: GetOptions, deps: Deps): Promise<void> {
  return getResource(imputeSpec, opts, deps);
}

/** `impute update`: `--impute` values laid over the current methods. */
export function imputeUpdate(opts: ImputeUpdateOptions, deps: Deps): Promise<void> {
  return updateResource(imputeSpec, opts, deps, {
    hasFlags: opts.set.length > 0,
    flags: () => (opts.set.length
      ? { impute: Object.fromEntries(opts.set.map((m) => [m.field, m.method === 'fill' ? { method: m.method, value: m.value } : { method: m.method }])) }
      : {}),
  });
}

/** Commander's values of `impute update` as options (throws UsageError on a bad flag). */
export function imputeUpdateOptions(jobId: string, raw: { impute?: string[]; data?: string }): ImputeUpdateOptions {
  return { jobId: parseJobId(jobId), data: raw.data, set: (raw.impute ?? []).map(parseImpute) };
}

/** The `impute` command. */
export function imputeCommand(deps: Deps, run = { get: imputeGet, update: imputeUpdate }): Command {
  const command = resourceCommand(imputeSpec, 'show or change how missing values are handled per field (fill, dropMissing, none)', run.get, deps);
  command.addCommand(updateSubcommand(imputeSpec, [
    'import impute update "$JOB" --impute country=fill:US --impute email=dropMissing',
    'import impute update "$JOB" --impute amount=fill:0 --impute notes=none',
  ])
    .option('--impute <field=method>', '<field>=fill:<value>, <field>=dropMissing or <field>=none (repeatable); a numeric fill value is sent as a number', collect, [])
    .action(async (jobId: string, raw: { impute?: string[]; data?: string }) => run.update(imputeUpdateOptions(jobId, raw), deps)));
  return command;
}
