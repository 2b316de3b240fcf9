/** `import sheet get|update <jobId>`: which sheet of a workbook is imported. */
import type { Command } from 'commander';
import type { SheetSelectionRead } from '../../contract/index.js';
import { UsageError } from '../../errors.js';
import type { Deps } from '../deps.js';
import { parseJobId } from '../flags.js';
import { getResource, resourceCommand, updateResource, updateSubcommand, type GetOptions, type UpdatableSpec, type UpdateOptions } from '../resource-command.js';

/** How the sheet selection is read, written (to the fields path, seed note 6) and shown. */
export const sheetSpec: UpdatableSpec<'sheet'> = {
  noun: 'sheet', key: 'sheet', label: 'selected sheet', hint: 'the sheet name (import sheet update <jobId> <sheetName>)',
  get: (client, jobId) => client.sheet.getWithBody(jobId),
  update: (client, jobId, body) => client.sheet.update(jobId, body),
  toWire: (selected) => ({ sheetSelection: { selected } }),
  table: 'sheetTable',
};

/** Options of `sheet update`. */
export interface SheetUpdateOptions extends UpdateOptions { sheetName?: string }

/** `sheet get`. */
export function sheetGet(opts: GetOptions, deps: Deps): Promise<void> {
  return getResource(sheetSpec, opts, deps);
}

/** `sheet update`: the name is checked against the job's `sheets` before anything is sent. */
export function sheetUpdate(opts: SheetUpdateOptions, deps: Deps): Promise<void> {
  return updateResource(sheetSpec, opts, deps, {
    hasFlags: opts.sheetName !== undefined,
    flags: () => (opts.sheetName !== undefined ? { sheet: opts.sheetName } : {}),
    check: (selected, { current }) => checkSheet(opts.jobId, selected, current),
  });
}

/** Throws UsageError listing the available sheets when `name` is not one of them. */
export async function checkSheet(jobId: string, name: string | undefined, current: SheetSelectionRead): Promise<void> {
  if (name === undefined) return;
  const { suggestKey } = await import('../../jobfile/suggest-key.js');
  const sheets = current.sheetSelection?.sheets ?? [];
  if (!sheets.length) throw new UsageError(`Job ${jobId} has no sheets to choose from (its input is not a workbook).`);
  if (!sheets.includes(name)) {
    const near = suggestKey(name, sheets);
    throw new UsageError(`Sheet "${name}" is not in job ${jobId}'s workbook${near ? ` (did you mean "${near}"?)` : ''}; available sheets: ${sheets.map((s) => `"${s}"`).join(', ')}.`);
  }
}

/** Commander's values of `sheet update` as options. */
export function sheetUpdateOptions(jobId: string, sheetName: string | undefined, raw: { data?: string }): SheetUpdateOptions {
  return { jobId: parseJobId(jobId), sheetName, data: raw.data };
}

/** The `sheet` command. */
export function sheetCommand(deps: Deps, run = { get: sheetGet, update: sheetUpdate }): Command {
  const command = resourceCommand(sheetSpec, 'show or change which sheet of a workbook input is imported', run.get, deps);
  command.addCommand(updateSubcommand(sheetSpec, [
    'import sheet update "$JOB" "Q3 orders"',
    `import sheet update "$JOB" --data '{"sheetSelection":{"selected":"Q3 orders"}}'`,
  ])
    .argument('[sheetName]', 'the sheet to import; must be one of the sheets `import sheet get` lists')
    .action(async (jobId: string, sheetName: string | undefined, raw: { data?: string }) => run.update(sheetUpdateOptions(jobId, sheetName, raw), deps)));
  return command;
}
