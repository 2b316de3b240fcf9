/**
 * Step 5, data types: number text becomes JS numbers, date text becomes `YYYY-MM-DDTHH:mm:ss`,
 * category and rich_text stay text. Values that do not parse become missing and are counted.
 */
import { DATA_TYPES, type DataType } from '../../contract/index.js';
import { UsageError } from '../../errors.js';
import { isMissing } from '../missing.js';
import { normalizeDate, parseNumber, slashDateOrder } from '../parse.js';
import type { Batch, EngineConfig, Row, Step, StepContext, Table, Value } from '../types.js';
import { utcOffsetHours } from './units.js';

/** The allowed data type a configured value names, ignoring case; `undefined` when none. */
export function dataTypeOf(value: unknown): DataType | undefined {
  // Seed leaves the case of values open; we accept any case, as for methods.
  if (typeof value !== 'string') return undefined;
  const lower = value.toLowerCase();
  return DATA_TYPES.find((t) => t === lower);
}

function validate(config: EngineConfig): Record<string, DataType> {
  const resolved: Record<string, DataType> = {};
  for (const [field, value] of Object.entries(config.dataTypes ?? {})) {
    const type = dataTypeOf(value);
    if (!type) throw new UsageError(`Data type "${String(value)}" for field "${field}" is not one of ${DATA_TYPES.join(', ')}.`);
    resolved[field] = type;
  }
  return resolved;
}

/** Per date_time column: whether slash dates read day-first, once a value has proved it. */
interface DateColumn { index: number; field: string; dayFirst: boolean | undefined; hasAmbiguous: boolean; zoneMinutes: number | undefined; strict?: boolean }

/**
 * Updates a column's slash order from rows: the first proving value decides; an ambiguous one is
 * noted. The one statement of the rule, used while streaming and on a parallel run's sample.
 */
export function scanSlashOrder(column: { index: number; dayFirst: boolean | undefined; hasAmbiguous: boolean }, rows: readonly Row[]): void {
  if (column.dayFirst !== undefined) return;
  for (const row of rows) {
    const v = row[column.index];
    if (typeof v !== 'string') continue;
    const order = slashDateOrder(v);
    if (order === undefined) continue;
    if (order === 'ambiguous') column.hasAmbiguous = true;
    else { column.dayFirst = order === 'dayFirst'; return; }
  }
}

/**
 * A date_time field's slash order fixed in advance, for parallel runs where no one worker sees the
 * whole column: true day-first, false month-first, null when the sample held no slash date at
 * all (a slash date met later then throws SlashOrderUnknown, and the run goes sequential).
 */
export type SlashOrders = Record<string, boolean | null>;

/** Thrown by a types step with fixed orders when a slash date meets a column whose order the sample left open. */
export class SlashOrderUnknown extends Error {}

/** Converts a number column's value; `undefined` means "failed" (counted by the caller). */
function toNumber(value: Value): number | null | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (value === null || isMissing(value)) return null;
  return parseNumber(value);
}

function toDate(value: Value, column: DateColumn): string | null | undefined {
  if (value === null || isMissing(value)) return null;
  // A number here (from a script) is not date text; its text form is tried like any other.
  const text = typeof value === 'number' ? String(value) : value;
  return normalizeDate(text, column.dayFirst === true, column.zoneMinutes);
}

/**
 * Step 5: applies `config.dataTypes`. Fields not among the columns are ignored (the suggestions
 * give types for every schema field, mapped or not). Slash dates are read day-first when a value
 * of the column has a first part over 12 and month-first when one has only a second part over 12;
 * rows wait in memory only while a date column has ambiguous slash values and no proving one yet
 * (at the end of the input: month-first). In a column holding both kinds the first proving value
 * decides and the others fail — such a column has no reading under which all its values are dates.
 */
export const types: Step = typesStep();

/** The data-type step; with `orders`, date_time fields take their slash order from it instead of from the data. */
export function typesStep(orders?: SlashOrders): Step {
  return {
    name: 'types',
    check(config) {
      validate(config);
    },
    apply(input: Table, config: EngineConfig, ctx: StepContext): Table {
      const resolved = validate(config);
      const outTypes = input.types.slice();
      const numberColumns: { index: number; field: string }[] = [];
      const textColumns: number[] = [];
      const dateColumns: DateColumn[] = [];
      input.columns.forEach((field, index) => {
        if (!Object.hasOwn(resolved, field)) return;
        const type = resolved[field];
        outTypes[index] = type;
        if (type === 'number') numberColumns.push({ index, field });
        else if (type === 'date_time') {
          // engine.md: a value with an explicit offset is first converted to the conversion's
          // `from` zone; without a time-zone conversion its wall time is kept as written.
          const from = config.units?.[field]?.from;
          const hours = typeof from === 'string' ? utcOffsetHours(from) : undefined;
          // A field the orders do not name is treated as unknown: safe, since meeting a slash date then falls back.
          const fixed = orders && Object.hasOwn(orders, field) ? orders[field] : null;
          dateColumns.push({
            index, field, dayFirst: orders ? fixed ?? false : undefined, hasAmbiguous: false,
            zoneMinutes: hours === undefined ? undefined : hours * 60, strict: orders !== undefined && fixed === null,
          });
        } else textColumns.push(index);
      });
      if (numberColumns.length + dateColumns.length + textColumns.length === 0) {
        return { columns: input.columns, types: outTypes, batches: input.batches };
      }
      const coercionFailures = ctx.report.coercionFailures;
      const rejects = ctx.rejects;
      const countFailure = (field: string, type: DataType, original: Value | undefined, rowNumber: number, out: Row) => {
        coercionFailures[field] = (coercionFailures[field] ?? 0) + 1;
        // `out` is this step's output row: no later step changes it (steps copy a row to change it).
        rejects?.add({ row: rowNumber, rule: type, origin: 'dataType', fields: [field], original: original === null || original === undefined ? null : String(original), values: out });
      };

      const convertRow = (row: Row, rowNumber: number): Row => {
        const out = row.slice();
        for (const { index, field } of numberColumns) {
          const n = toNumber(out[index] ?? null);
          if (n === undefined) {
            const original = out[index];
            out[index] = null;
            countFailure(field, 'number', original, rowNumber, out);
          } else out[index] = n;
        }
        for (const column of dateColumns) {
          const v = out[column.index];
          if (column.strict && typeof v === 'string' && slashDateOrder(v) !== undefined) throw new SlashOrderUnknown(column.field);
          const d = toDate(v ?? null, column);
          if (d === undefined) {
            out[column.index] = null;
            countFailure(column.field, 'date_time', v, rowNumber, out);
          } else out[column.index] = d;
        }
        // category / rich_text: text unchanged; a number (only a script can put one here) becomes its text.
        for (const i of textColumns) if (typeof out[i] === 'number') out[i] = String(out[i]);
        return out;
      };

      const convertBatch = (batch: Batch): Batch => {
        const rows = new Array<Row>(batch.rows.length);
        for (let r = 0; r < rows.length; r++) rows[r] = convertRow(batch.rows[r], batch.rowNumbers[r]);
        return { rows, rowNumbers: batch.rowNumbers };
      };

      /** Updates each undecided date column's order from a batch; true when one still waits. */
      const isUndecided = (batch: Batch): boolean => {
        let waits = false;
        for (const column of dateColumns) {
          scanSlashOrder(column, batch.rows);
          if (column.dayFirst === undefined && column.hasAmbiguous) waits = true;
        }
        return waits;
      };

      async function* batches(): AsyncGenerator<Batch> {
        let waiting: Batch[] = [];
        for await (const batch of input.batches) {
          if (dateColumns.length > 0 && isUndecided(batch)) {
            waiting.push(batch);
            continue;
          }
          for (const held of waiting) yield convertBatch(held);
          waiting = [];
          yield convertBatch(batch);
        }
        // End of input with no proving value: month-first.
        for (const column of dateColumns) if (column.dayFirst === undefined) column.dayFirst = false;
        for (const held of waiting) yield convertBatch(held);
      }
      return { columns: input.columns, types: outTypes, batches: batches() };
    },
  };
}
