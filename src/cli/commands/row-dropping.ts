/** `import row-dropping get|update <jobId>`: constraints whose violating rows are dropped. */
import type { Command } from 'commander';
import type { RowDroppingMethod } from '../../contract/index.js';
import type { Deps } from '../deps.js';
import { collect, parseDrop, parseJobId } from '../flags.js';
import { getResource, resourceCommand, updateResource, updateSubcommand, type GetOptions, type UpdatableSpec, type UpdateOptions } from '../resource-command.js';

/** How the row dropping resource is read, written and shown. */
export const rowDroppingSpec: UpdatableSpec<'rowDropping'> = {
  noun: 'row-dropping', key: 'rowDropping', label: 'row dropping methods', hint: '--drop <method>:<fields> or --clear',
  get: (client, jobId) => client.rowDropping.getWithBody(jobId),
  update: (client, jobId, body) => client.rowDropping.update(jobId, body),
  table: 'rowDroppingTable',
};

/** Options of `row-dropping update`: the new additional list (replaces the current one), when given. */
export interface RowDroppingUpdateOptions extends UpdateOptions { drops?: { method: RowDroppingMethod; fields: string[] }[] }

/** `row-dropping get`. */
export function rowDroppingGet(opts: GetOptions, deps: Deps): Promise<void> {
  return getResource(rowDroppingSpec, opts, deps);
}

/** `row-dropping update`: `--drop` replaces the additional methods (the presets stay). */
export function rowDroppingUpdate(opts: RowDroppingUpdateOptions, deps: Deps): Promise<void> {
  return updateResource(rowDroppingSpec, opts, deps, {
    hasFlags: opts.drops !== undefined,
    flags: () => (opts.drops !== undefined ? { rowDropping: opts.drops } : {}),
  });
}

/** Commander's values of `row-dropping update` as options (throws UsageError on a bad flag). */
export function rowDroppingUpdateOptions(jobId: string, raw: { drop?: string[]; clear?: boolean; data?: string }): RowDroppingUpdateOptions {
  const drops = (raw.drop ?? []).map(parseDrop);
  return { jobId: parseJobId(jobId), data: raw.data, drops: drops.length ? drops : raw.clear ? [] : undefined };
}

/** The `row-dropping` command. */
export function rowDroppingCommand(deps: Deps, run = { get: rowDroppingGet, update: rowDroppingUpdate }): Command {
  const command = resourceCommand(rowDroppingSpec, 'show or change which rows are dropped (missingValues: NOT NULL, duplicateValues: UNIQUE)', run.get, deps);
  command.addCommand(updateSubcommand(rowDroppingSpec, [
    'import row-dropping update "$JOB" --drop missingValues:email --drop duplicateValues:email,id',
    'import row-dropping update "$JOB" --clear',
  ])
    .option('--drop <method:fields>', 'missingValues:<f1,f2> or duplicateValues:<f1,f2> (repeatable; replaces the additional list)', collect, [])
    .option('--clear', 'remove every additional method (the presets stay)')
    .action(async (jobId: string, raw: { drop?: string[]; clear?: boolean; data?: string }) => run.update(rowDroppingUpdateOptions(jobId, raw), deps)));
  return command;
}
