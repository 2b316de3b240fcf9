/** `import pivot get|update <jobId>`: pivoting the data. */
import type { Command } from 'commander';
import type { PivotRead } from '../../contract/index.js';
import { UsageError } from '../../errors.js';
import type { JobFileConfig } from '../../jobfile/types.js';
import type { Deps } from '../deps.js';
import { parseAggregation, parseJobId, parseList } from '../flags.js';
import { getResource, resourceCommand, updateResource, updateSubcommand, type GetOptions, type UpdatableSpec, type UpdateOptions } from '../resource-command.js';

/** How the pivot resource is read, written and shown. */
export const pivotSpec: UpdatableSpec<'pivot'> = {
  noun: 'pivot', key: 'pivot', label: 'pivot', hint: '--pivot-columns, --value-columns, --index-columns, --aggregation or --clear',
  get: (client, jobId) => client.pivot.getWithBody(jobId),
  update: (client, jobId, body) => client.pivot.update(jobId, body),
  table: 'pivotTable',
};

/** Options of `pivot update`: lists not given keep their current value. */
export interface PivotUpdateOptions extends UpdateOptions {
  pivotColumns?: string[];
  valueColumns?: string[];
  indexColumns?: string[];
  aggregation?: 'first';
  /** Remove the pivot (`pivot: null`). */
  clear?: boolean;
}

/** `pivot get`. */
export function pivotGet(opts: GetOptions, deps: Deps): Promise<void> {
  return getResource(pivotSpec, opts, deps);
}

/** `pivot update`: the given lists laid over the current pivot (or over --data). */
export function pivotUpdate(opts: PivotUpdateOptions, deps: Deps): Promise<void> {
  const hasLists = opts.pivotColumns !== undefined || opts.valueColumns !== undefined || opts.indexColumns !== undefined || opts.aggregation !== undefined;
  return updateResource(pivotSpec, opts, deps, {
    hasFlags: hasLists || Boolean(opts.clear),
    // --clear is the body {"pivot": null}; lists are laid over the --data body or the current pivot.
    base: (base) => (opts.clear ? { pivot: null } : base),
    flags: (base) => (hasLists ? pivotFragment(opts, base) : {}),
    check: (body) => {
      const p = body.pivot;
      if (p && (!p.pivotColumns.columnNames.length || !p.valueColumns.columnNames.length)) {
        throw new UsageError('A pivot needs pivot columns and value columns: pass --pivot-columns and --value-columns (or --clear to remove the pivot).');
      }
    },
  });
}

/** The complete pivot fragment: the given lists, else those of `base` (the --data body, or the current pivot). */
export function pivotFragment(opts: PivotUpdateOptions, current: PivotRead): JobFileConfig {
  const now = current.pivot;
  const base = now
    ? { pivotColumns: now.pivotColumns.columnNames, valueColumns: now.valueColumns.columnNames, indexColumns: now.indexColumns.columnNames }
    : { pivotColumns: [], valueColumns: [], indexColumns: [] };
  return {
    pivot: {
      pivotColumns: opts.pivotColumns ?? base.pivotColumns,
      valueColumns: opts.valueColumns ?? base.valueColumns,
      indexColumns: opts.indexColumns ?? base.indexColumns,
      aggregationMethod: 'first',
    },
  };
}

/** Commander's values of `pivot update` as options (throws UsageError on a bad flag). */
export function pivotUpdateOptions(jobId: string, raw: { pivotColumns?: string; valueColumns?: string; indexColumns?: string; aggregation?: string; clear?: boolean; data?: string }): PivotUpdateOptions {
  const opts: PivotUpdateOptions = {
    jobId: parseJobId(jobId), data: raw.data, clear: raw.clear,
    pivotColumns: raw.pivotColumns !== undefined ? parseList('--pivot-columns', raw.pivotColumns) : undefined,
    valueColumns: raw.valueColumns !== undefined ? parseList('--value-columns', raw.valueColumns) : undefined,
    indexColumns: raw.indexColumns !== undefined ? parseList('--index-columns', raw.indexColumns) : undefined,
    aggregation: raw.aggregation !== undefined ? parseAggregation(raw.aggregation) : undefined,
  };
  if (opts.clear && (opts.pivotColumns || opts.valueColumns || opts.indexColumns || opts.aggregation)) {
    throw new UsageError('--clear removes the pivot; it cannot be combined with --pivot-columns, --value-columns, --index-columns or --aggregation.');
  }
  return opts;
}

/** The `pivot` command. */
export function pivotCommand(deps: Deps, run = { get: pivotGet, update: pivotUpdate }): Command {
  const command = resourceCommand(pivotSpec, 'show or change the pivot: pivot, value and index columns', run.get, deps);
  command.addCommand(updateSubcommand(pivotSpec, [
    'import pivot update "$JOB" --pivot-columns metric --value-columns value --index-columns date,store --aggregation first',
    'import pivot update "$JOB" --clear',
  ])
    .option('--pivot-columns <columns>', 'comma list: columns whose values become the headers')
    .option('--value-columns <columns>', 'comma list: columns that fill the values')
    .option('--index-columns <columns>', 'comma list: columns that form the row index')
    .option('--aggregation <method>', 'how duplicate index rows are handled: first (the only method)')
    .option('--clear', 'remove the pivot')
    .action(async (jobId: string, raw: { pivotColumns?: string; valueColumns?: string; indexColumns?: string; aggregation?: string; clear?: boolean; data?: string }) => run.update(pivotUpdateOptions(jobId, raw), deps)));
  return command;
}
