/**
 * Steps 2 and 11, scripts: ES modules whose default export takes and returns
 * `{columns, rows}` (rows as objects), run in the listed order over the whole table.
 */
import { orderedObject, stringifyJson } from '../../contract/json.js';
import { UsageError } from '../../errors.js';
import { orNull } from '../missing.js';
import type { Batch, EngineConfig, Row, ScriptFn, Step, StepContext, Table, Value } from '../types.js';
import { BATCH_SIZE } from '../types.js';

/** The table a script sees and returns. */
export interface ScriptTable { columns: string[]; rows: Record<string, unknown>[] }

/**
 * A script's value as an engine value: null/undefined → null, text kept (blank → null), finite
 * numbers kept, dates as ISO text, anything else as text or JSON; `undefined` for a value that is
 * no value (NaN, ±Infinity, an invalid Date), which the caller refuses rather than empty in silence.
 */
export function toValue(value: unknown): Value | undefined {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return orNull(value);
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString();
  if (typeof value === 'object') return stringifyJson(value);
  return String(value);
}

/** Checks a script's result is `{columns: string[], rows: object[]}` with distinct columns; throws a UsageError naming the script. */
export function checkScriptResult(id: string, result: unknown): ScriptTable {
  const r = result as Partial<ScriptTable> | null | undefined;
  const problem =
    r === null || typeof r !== 'object' ? 'nothing usable (expected an object {columns, rows})'
      : !Array.isArray(r.columns) || !r.columns.every((c) => typeof c === 'string') ? '"columns" that is not a list of strings'
        : new Set(r.columns).size !== r.columns.length ? 'a column name twice'
          : !Array.isArray(r.rows) || !r.rows.every((row) => row !== null && typeof row === 'object' && !Array.isArray(row)) ? '"rows" that is not a list of objects'
            : undefined;
  if (problem) throw new UsageError(`Script "${id}" returned ${problem}; it must return {columns: string[], rows: object[]}.`);
  return r as ScriptTable;
}

/**
 * A row as an object a script can read: one own, enumerable member per column, in column order
 * (`__proto__` and integer-like names included; orderedObject remembers the written order).
 */
function rowObject(columns: string[], valueAt: (i: number) => unknown): Record<string, unknown> {
  const pairs: [string, unknown][] = new Array(columns.length);
  for (let i = 0; i < columns.length; i++) pairs[i] = [columns[i], valueAt(i)];
  return orderedObject(pairs);
}

async function collect(input: Table): Promise<ScriptTable> {
  const rows: Record<string, unknown>[] = [];
  const { columns } = input;
  for await (const batch of input.batches) {
    for (const row of batch.rows) {
      rows.push(rowObject(columns, (i) => row[i] ?? null));
    }
  }
  return { columns: columns.slice(), rows };
}

async function runScript(id: string, fn: ScriptFn, table: ScriptTable): Promise<ScriptTable> {
  let result: unknown;
  try {
    result = await fn(table);
  } catch (e) {
    throw new UsageError(`Script "${id}" failed: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
  const checked = checkScriptResult(id, result);
  // Each script sees engine values (text, numbers, null), whatever the one before it returned.
  return {
    columns: checked.columns.slice(),
    rows: checked.rows.map((row, r) => rowObject(checked.columns, (i) => {
      const column = checked.columns[i];
      // Own members only: a row without `__proto__` must not read Object.prototype as its value.
      if (!Object.hasOwn(row, column)) return null;
      const value = toValue(row[column]);
      if (value === undefined) {
        const shown = row[column] instanceof Date ? 'an invalid Date' : String(row[column]);
        throw new UsageError(`Script "${id}" returned ${shown} in column "${column}" of row ${r + 1}, which is not a value; return null for a missing value (or text to keep it as text).`);
      }
      return value;
    })),
  };
}

function runScripts(name: string, listOf: (config: EngineConfig) => string[] | undefined): Step {
  return {
    name,
    async apply(input: Table, config: EngineConfig, ctx: StepContext): Promise<Table> {
      const ids = listOf(config) ?? [];
      const fns: { id: string; fn: ScriptFn }[] = [];
      for (const id of ids) {
        const fn = await ctx.loadScript(id);
        if (fn) fns.push({ id, fn });
        else if (ctx.strictScripts) throw new UsageError(`Script "${id}" has no local module; add it to localScripts or remove it from the job.`);
        else ctx.warn(`Script "${id}" has no local module; skipped (the service would run it).`);
      }
      // No script to run: rows keep streaming instead of being held.
      if (fns.length === 0) return input;
      let table = await collect(input);
      for (const { id, fn } of fns) table = await runScript(id, fn, table);

      const { columns, rows } = table;
      // A column that keeps its name keeps its type (post-clean scripts run after the type step);
      // a new column has none.
      const types = columns.map((c) => {
        const i = input.columns.indexOf(c);
        return i >= 0 ? input.types[i] : undefined;
      });
      async function* batches(): AsyncGenerator<Batch> {
        // Row numbers after a script are 1..n: a script may reorder, add or remove rows.
        for (let start = 0; start < rows.length; start += BATCH_SIZE) {
          const slice = rows.slice(start, start + BATCH_SIZE);
          const out: Row[] = slice.map((object) => columns.map((c) => (Object.hasOwn(object, c) ? object[c] : null) as Value));
          yield { rows: out, rowNumbers: slice.map((_, k) => start + k + 1) };
        }
      }
      return { columns, types, batches: batches() };
    },
  };
}

/** Step 2: the `preColumnMapping` scripts, before mapping. */
export const preColumnMappingScripts: Step = runScripts('scripts-pre', (config) => config.scripts?.preColumnMapping);

/** Step 11: the `postClean` scripts, after everything else. */
export const postCleanScripts: Step = runScripts('scripts-post', (config) => config.scripts?.postClean);
