/** `import units get|update <jobId>`: unit conversion per field. */
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import type { Deps } from '../deps.js';
import { collect, parseClearUnit, parseJobId, parseUnit } from '../flags.js';
import { getResource, resourceCommand, updateResource, updateSubcommand, type GetOptions, type UpdatableSpec, type UpdateOptions } from '../resource-command.js';

/** How the units resource is read, written and shown. */
export const unitsSpec: UpdatableSpec<'units'> = {
  noun: 'units', key: 'units', label: 'unit conversions', hint: '--unit <field>=<from>:<to> or --clear-unit <field>',
  get: (client, jobId) => client.units.getWithBody(jobId),
  update: (client, jobId, body) => client.units.update(jobId, body),
  table: 'unitsTable',
};

/** Options of `units update`; `from`/`to` null = no conversion. */
export interface UnitsUpdateOptions extends UpdateOptions { units: { field: string; from: string | null; to: string | null }[] }

/** `units get`. */
export function unitsGet(opts: GetOptions, deps: Deps): Promise<void> {
  return getResource(unitsSpec, opts, deps);
}

/** `units update`: `--unit` and `--clear-unit` laid over the current conversions. */
export function unitsUpdate(opts: UnitsUpdateOptions, deps: Deps): Promise<void> {
  return updateResource(unitsSpec, opts, deps, {
    hasFlags: opts.units.length > 0,
    flags: () => (opts.units.length ? { units: Object.fromEntries(opts.units.map((u) => [u.field, { from: u.from, to: u.to }])) } : {}),
  });
}

/** Commander's values of `units update` as options (throws UsageError on a bad flag). */
export function unitsUpdateOptions(jobId: string, raw: { unit?: string[]; clearUnit?: string[]; data?: string }): UnitsUpdateOptions {
  const set = (raw.unit ?? []).map(parseUnit);
  const cleared = (raw.clearUnit ?? []).map(parseClearUnit);
  const both = cleared.find((field) => set.some((u) => u.field === field));
  if (both !== undefined) throw new UsageError(`--unit and --clear-unit both name the field "${both}"; keep one.`);
  return { jobId: parseJobId(jobId), data: raw.data, units: [...set, ...cleared.map((field) => ({ field, from: null, to: null }))] };
}

/** The `units` command. */
export function unitsCommand(deps: Deps, run = { get: unitsGet, update: unitsUpdate }): Command {
  const command = resourceCommand(unitsSpec, 'show or change unit conversions per field (time zones as UTC_p<n>/UTC_m<n>)', run.get, deps);
  command.addCommand(updateSubcommand(unitsSpec, [
    'import units update "$JOB" --unit signup=UTC_m5:UTC_p0',
    'import units update "$JOB" --clear-unit signup',
  ])
    .option('--unit <field=from:to>', 'convert a field from one unit to another (repeatable)', collect, [])
    .option('--clear-unit <field>', 'no conversion for a field: from and to both null (repeatable)', collect, [])
    .action(async (jobId: string, raw: { unit?: string[]; clearUnit?: string[]; data?: string }) => run.update(unitsUpdateOptions(jobId, raw), deps)));
  return command;
}
