/** `import fields get|update <jobId>`: the column-to-field mapping. */
import type { Command } from 'commander';
import type { FieldsRead } from '../../contract/index.js';
import { UsageError } from '../../errors.js';
import type { JobFileConfig } from '../../jobfile/types.js';
import type { Deps } from '../deps.js';
import { collect, parseJobId, parseMap, parseUnmap } from '../flags.js';
import { getResource, resourceCommand, updateResource, updateSubcommand, type GetOptions, type UpdatableSpec, type UpdateOptions } from '../resource-command.js';

/** How the fields resource is read, written and shown. */
export const fieldsSpec: UpdatableSpec<'fields'> = {
  noun: 'fields', key: 'fields', label: 'column-to-field mapping', hint: '--map <column>=<field>, --unmap <column> or --allow-combining',
  get: (client, jobId) => client.fields.get(jobId),
  update: (client, jobId, body) => client.fields.update(jobId, body),
  table: 'fieldsTable',
};

/** Options of `fields update`. */
export interface FieldsUpdateOptions extends UpdateOptions {
  map: { column: string; field: string }[];
  unmap: string[];
  allowCombining?: boolean;
}

/** `fields get`. */
export function fieldsGet(opts: GetOptions, deps: Deps): Promise<void> {
  return getResource(fieldsSpec, opts, deps);
}

/** `fields update`: `--map`/`--unmap` laid over the current mapping; checked against the input columns. */
export function fieldsUpdate(opts: FieldsUpdateOptions, deps: Deps): Promise<void> {
  return updateResource(fieldsSpec, opts, deps, {
    hasFlags: opts.map.length > 0 || opts.unmap.length > 0 || opts.allowCombining !== undefined,
    flags: () => mappingFragment(opts),
    check: (fragment, current) => checkMapping(opts.jobId, fragment, current, (m) => deps.io.warn(m)),
  });
}

/** The flags as a job-file fragment: mapped columns, unmapped columns as null, allowColumnCombining. */
export function mappingFragment(opts: Pick<FieldsUpdateOptions, 'map' | 'unmap' | 'allowCombining'>): JobFileConfig {
  const fragment: JobFileConfig = {};
  if (opts.map.length || opts.unmap.length) {
    fragment.mapping = {};
    for (const { column, field } of opts.map) fragment.mapping[column] = field;
    for (const column of opts.unmap) fragment.mapping[column] = null;
  }
  if (opts.allowCombining !== undefined) fragment.allowColumnCombining = opts.allowCombining;
  return fragment;
}

/**
 * Checks a mapping before sending: each column must be an input column, and two columns may map
 * to one field only with column combining allowed. Fields outside the pipeline's lists only warn
 * (seed: `useVariableFields` may allow them; its meaning is not shown).
 */
export async function checkMapping(jobId: string, fragment: JobFileConfig, current: FieldsRead, warn: (m: string) => void): Promise<void> {
  const { suggestKey } = await import('../../jobfile/suggest-key.js');
  const changes = fragment.mapping ?? {};
  const inputs = current.inputColumns ?? [];
  for (const column of Object.keys(changes)) {
    if (inputs.length && !inputs.includes(column)) {
      const near = suggestKey(column, inputs);
      throw new UsageError(`Column "${column}" is not an input column of job ${jobId}; ${near ? `did you mean "${near}"?` : `the input columns are: ${inputs.join(', ')}.`}`);
    }
  }
  const known = [...(current.expectedFields ?? []), ...(current.optionalFields ?? [])];
  for (const [column, field] of Object.entries(changes)) {
    if (field !== null && known.length && !known.includes(field)) {
      const near = suggestKey(field, known);
      warn(`field "${field}" (for column "${column}") is not an expected or optional field of the pipeline${near ? `; did you mean "${near}"?` : ''}.`);
    }
  }
  const combining = fragment.allowColumnCombining ?? false;
  if (combining) return;
  const final = new Map<string, string>();
  for (const columns of Object.values(current.columnFieldMapping ?? {})) {
    for (const [column, m] of Object.entries(columns ?? {})) if (m?.field) final.set(column, m.field);
  }
  for (const [column, field] of Object.entries(changes)) {
    if (field === null) final.delete(column);
    else final.set(column, field);
  }
  for (const [column, field] of Object.entries(changes)) {
    if (field === null) continue;
    const other = [...final].find(([c, f]) => f === field && c !== column)?.[0];
    if (other !== undefined) {
      throw new UsageError(`Columns "${column}" and "${other}" would both map to field "${field}"; unmap one (--unmap "${other}") or pass --allow-combining to combine them.`);
    }
  }
}

/** Commander's values of `fields update` as options (throws UsageError on a bad flag). */
export function fieldsUpdateOptions(jobId: string, raw: { map?: string[]; unmap?: string[]; allowCombining?: boolean; data?: string }): FieldsUpdateOptions {
  const map = (raw.map ?? []).map(parseMap);
  const unmap = (raw.unmap ?? []).map(parseUnmap);
  const both = unmap.find((column) => map.some((m) => m.column === column));
  if (both !== undefined) throw new UsageError(`--map and --unmap both name the column "${both}"; keep one.`);
  return { jobId: parseJobId(jobId), data: raw.data, map, unmap, allowCombining: raw.allowCombining };
}

/** The `fields` command. */
export function fieldsCommand(deps: Deps, run = { get: fieldsGet, update: fieldsUpdate }): Command {
  const command = resourceCommand(fieldsSpec, 'show or change which input column feeds which output field', run.get, deps);
  command.addCommand(updateSubcommand(fieldsSpec, [
    'import fields update "$JOB" --map "First Name=firstName" --map "E-mail=email"',
    'import fields update "$JOB" --unmap Notes',
    'import fields update "$JOB" --map First=name --map Last=name --allow-combining',
  ])
    .option('--map <column=field>', 'map an input column to a field; split at the last "=" (repeatable)', collect, [])
    .option('--unmap <column>', 'leave an input column unmapped (repeatable)', collect, [])
    .option('--allow-combining', 'let several columns map to one field (they are then combined)')
    .option('--no-allow-combining', 'one column per field')
    .action(async (jobId: string, raw: { map?: string[]; unmap?: string[]; allowCombining?: boolean; data?: string }) => run.update(fieldsUpdateOptions(jobId, raw), deps)));
  return command;
}
