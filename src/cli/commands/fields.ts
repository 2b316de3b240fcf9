/** `import fields get|update <jobId>`: the column-to-field mapping. */
import type { Command } from 'commander';
import type { FieldsRead } from '../../contract/index.js';
import { orderedObject } from '../../contract/json.js';
import { combinesColumns, flatMapping } from '../../contract/translate.js';
import { UsageError } from '../../errors.js';
import type { JobFileConfig } from '../../jobfile/types.js';
import type { Deps } from '../deps.js';
import { collect, parseJobId, parseMap, parseUnmap } from '../flags.js';
import { getResource, resourceCommand, updateResource, updateSubcommand, type GetOptions, type UpdatableSpec, type UpdateOptions } from '../resource-command.js';

/** How the fields resource is read, written and shown. */
export const fieldsSpec: UpdatableSpec<'fields'> = {
  noun: 'fields', key: 'fields', label: 'column-to-field mapping', hint: '--map <column>=<field>, --unmap <column> or --allow-combining',
  get: (client, jobId) => client.fields.getWithBody(jobId),
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

/**
 * `fields update`: `--map`/`--unmap` laid over the current mapping (or the --data body); checked
 * against the input columns. Seed: `allowColumnCombining` is update only (no read member), so a
 * current mapping that already combines columns keeps it allowed unless --no-allow-combining.
 */
export function fieldsUpdate(opts: FieldsUpdateOptions, deps: Deps): Promise<void> {
  return updateResource(fieldsSpec, opts, deps, {
    hasFlags: opts.map.length > 0 || opts.unmap.length > 0 || opts.allowCombining !== undefined,
    flags: (_base, current, data) => {
      const fragment = mappingFragment(opts);
      const allow = opts.allowCombining ?? data?.allowColumnCombining ?? (combinesColumns(current.columnFieldMapping) || undefined);
      if (allow !== undefined) fragment.allowColumnCombining = allow;
      return fragment;
    },
    check: (body, { current, base, fragment, data }) => {
      const changes = fragment.mapping ?? {};
      const named = [...new Set([...Object.keys(changes), ...Object.keys(flatMapping(data?.body.columnFieldMapping ?? {}))])];
      // The mapping as asked for: the flags over the base, before a pinned field takes its column from a suggestion.
      const asked = new Map(Object.entries(flatMapping(base.columnFieldMapping)));
      for (const [column, field] of Object.entries(changes)) {
        if (field === null) asked.delete(column);
        else asked.set(column, field);
      }
      return checkMapping(opts.jobId, asked, named, Boolean(body.allowColumnCombining), current, (m) => deps.io.warn(m));
    },
  });
}

/** The flags as a job-file fragment: mapped columns, unmapped columns as null, allowColumnCombining. */
export function mappingFragment(opts: Pick<FieldsUpdateOptions, 'map' | 'unmap' | 'allowCombining'>): JobFileConfig {
  const fragment: JobFileConfig = {};
  if (opts.map.length || opts.unmap.length) {
    fragment.mapping = orderedObject<string | null>([
      ...opts.map.map(({ column, field }) => [column, field] as const),
      ...opts.unmap.map((column) => [column, null] as const),
    ]);
  }
  if (opts.allowCombining !== undefined) fragment.allowColumnCombining = opts.allowCombining;
  return fragment;
}

/**
 * Checks the mapping about to be sent: each column the user named (`named`, by flags or --data)
 * must be an input column, and two columns may map to one field only with column combining
 * allowed. Fields outside the pipeline's lists only warn (seed: `useVariableFields` may allow
 * them; its meaning is not shown).
 */
export async function checkMapping(
  jobId: string, final: Map<string, string>, named: string[], allowCombining: boolean, current: FieldsRead, warn: (m: string) => void,
): Promise<void> {
  const { suggestKey } = await import('../../jobfile/suggest-key.js');
  const inputs = current.inputColumns ?? [];
  for (const column of named) {
    if (inputs.length && !inputs.includes(column)) {
      const near = suggestKey(column, inputs);
      throw new UsageError(`Column "${column}" is not an input column of job ${jobId}; ${near ? `did you mean "${near}"?` : `the input columns are: ${inputs.join(', ')}.`}`);
    }
  }
  const known = [...(current.expectedFields ?? []), ...(current.optionalFields ?? [])];
  for (const column of named) {
    const field = final.get(column);
    if (field !== undefined && known.length && !known.includes(field)) {
      const near = suggestKey(field, known);
      warn(`field "${field}" (for column "${column}") is not an expected or optional field of the pipeline${near ? `; did you mean "${near}"?` : ''}.`);
    }
  }
  if (allowCombining) return;
  // The columns named first, for the message; then any other pair (--no-allow-combining over a combined mapping).
  for (const column of new Set([...named, ...final.keys()])) {
    const field = final.get(column);
    const other = [...final].find(([c, f]) => f === field && c !== column)?.[0];
    if (field !== undefined && other !== undefined) {
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
