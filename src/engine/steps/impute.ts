/**
 * Step 7, imputation: `fill` replaces missing values with the field's fill value, `dropMissing`
 * drops rows where the field is missing, `null` leaves the field alone.
 */
import { IMPUTE_METHODS, type DataType, type ImputeConfig } from '../../contract/index.js';
import { UsageError } from '../../errors.js';
import { isMissing } from '../missing.js';
import { losesDigits, normalizeDate, parseNumber, slashDateOrder } from '../parse.js';
import { eachBatch, ownsRows, type Batch, type EngineConfig, type Row, type Step, type StepContext, type Table, type Value } from '../types.js';
import { dropCounter, type DropCounter } from './drop-rows.js';
import { fieldIndex } from './map.js';
import { dataTypeOf } from './types.js';
import { conversionZoneMinutes } from './units.js';

type Method = 'fill' | 'dropMissing';

/** The allowed impute method a configured value names, ignoring case; null for "no change"; `undefined` when invalid. */
export function imputeMethodOf(value: unknown): Method | null | undefined {
  if (value === null || value === undefined) return null;
  // Seed leaves the case of method values open; we accept any case.
  if (typeof value !== 'string') return undefined;
  const lower = value.toLowerCase();
  if (lower === 'null') return null;
  return IMPUTE_METHODS.find((m) => m.toLowerCase() === lower);
}

/**
 * A fill value as the field's type holds it: a number for number fields, `YYYY-MM-DDTHH:mm:ss`
 * for date_time fields, text otherwise. A date with an explicit offset is moved to `zoneMinutes`
 * (UTC+n hours as minutes), the zone the field's values are in once its time-zone conversion has
 * run; without one its wall time is kept as written, as the data-type step does. Throws a
 * UsageError naming the field when it does not fit.
 */
export function coerceFillValue(field: string, fillValue: unknown, type: DataType | undefined, zoneMinutes?: number): Value {
  if (fillValue === null || fillValue === undefined || (typeof fillValue === 'string' && isMissing(fillValue))) {
    throw new UsageError(`Impute method fill for field "${field}" needs imputeMethodConfig.fillValue, a non-empty value.`);
  }
  // A job file's integer a double cannot hold arrives as a BigInt (contract/json.ts exactNumber).
  const shown = typeof fillValue === 'bigint' ? String(fillValue) : JSON.stringify(fillValue);
  if (type === 'number') {
    const text = typeof fillValue === 'bigint' ? String(fillValue) : typeof fillValue === 'string' ? fillValue : undefined;
    const n = typeof fillValue === 'number' ? fillValue : text !== undefined ? parseNumber(text) : undefined;
    if (n !== undefined && text !== undefined && losesDigits(text, n)) {
      throw new UsageError(`Fill value ${shown} for field "${field}" would become ${n} in a number field (a number holds about 16 digits); give a value it holds, or make the field rich_text to keep every digit.`);
    }
    if (n === undefined || !Number.isFinite(n)) {
      throw new UsageError(`Fill value ${shown} for field "${field}" is not a number, but the field's data type is number.`);
    }
    return n;
  }
  const text = typeof fillValue === 'string' ? fillValue : typeof fillValue === 'object' ? JSON.stringify(fillValue) : String(fillValue);
  if (type === 'date_time') {
    // A lone fill value has no column to decide its slash order; it proves its own.
    const order = slashDateOrder(text);
    const date = normalizeDate(text, order === 'dayFirst', zoneMinutes);
    if (date === undefined) {
      throw new UsageError(`Fill value ${shown} for field "${field}" is not a date, but the field's data type is date_time; write it as YYYY-MM-DD or YYYY-MM-DDTHH:mm:ss.`);
    }
    // One that reads either way (01/02/2020) is refused: the column's order (engine.md step 5) is
    // known only from its values, and reading it month-first put 2 January into a day-first column.
    const dayFirst = order === 'ambiguous' ? normalizeDate(text, true, zoneMinutes) : undefined;
    if (dayFirst !== undefined && dayFirst !== date) {
      throw new UsageError(`Fill value ${shown} for field "${field}" reads as ${date.slice(0, 10)} month-first and as ${dayFirst.slice(0, 10)} day-first, and the column's order is known only from its values; write it as YYYY-MM-DD.`);
    }
    return date;
  }
  return text;
}

/** The zone (UTC+n hours, as minutes) a date_time field's values are in after its time-zone conversion; undefined without one. */
function zoneAfterUnits(config: EngineConfig, field: string): number | undefined {
  return conversionZoneMinutes(config, field, 'from') === undefined ? undefined : conversionZoneMinutes(config, field, 'to');
}

/** A field's impute rule as the step applies it. */
export interface ImputeRule { field: string; method: Method; fillValue: Value }

/**
 * One field's impute method as the step applies it, or null when it leaves the field alone;
 * throws a UsageError naming the field when the step cannot apply it (an unknown method, a fill
 * with no value or one that does not fit `type`). The job-file check asks this too, so a value
 * the step would refuse is refused at its line.
 */
export function imputeRuleOf(field: string, entry: ImputeConfig | undefined, type: DataType | undefined, zoneMinutes?: number): ImputeRule | null {
  const method = imputeMethodOf(entry?.imputeMethod);
  if (method === undefined) {
    throw new UsageError(`Impute method "${String(entry?.imputeMethod)}" for field "${field}" is not one of ${IMPUTE_METHODS.join(', ')}, null.`);
  }
  if (method === null) return null;
  const fillValue = method === 'fill' ? coerceFillValue(field, entry?.imputeMethodConfig?.fillValue, type, zoneMinutes) : null;
  return { field, method, fillValue };
}

function validate(config: EngineConfig): ImputeRule[] {
  const rules: ImputeRule[] = [];
  for (const [field, entry] of Object.entries(config.impute ?? {})) {
    // fillValue is taken as the output holds the field: after type coercion and unit conversion.
    const rule = imputeRuleOf(field, entry, dataTypeOf(config.dataTypes?.[field]), zoneAfterUnits(config, field));
    if (rule) rules.push(rule);
  }
  return rules;
}

/** Step 7: fills or drops missing values per field. */
export const impute: Step = {
  name: 'impute',
  check(config) {
    validate(config);
  },
  apply(input: Table, config: EngineConfig, ctx: StepContext): Table {
    const fills: { index: number; field: string; value: Value }[] = [];
    const drops: { index: number; count: DropCounter }[] = [];
    for (const rule of validate(config)) {
      const index = fieldIndex(input.columns, rule.field, ctx, `Impute method ${rule.method} for field "${rule.field}"`, { step: 'impute', field: rule.field });
      if (index < 0) continue;
      if (rule.method === 'fill') fills.push({ index, field: rule.field, value: rule.fillValue });
      else drops.push({ index, count: dropCounter(ctx, `dropMissing: ${rule.field}`, { method: 'dropMissing', origin: 'impute', fields: [rule.field] }) });
    }
    if (fills.length + drops.length === 0) return input;
    const filled = ctx.report.filled;
    const imputeBatch = (batch: Batch): Batch | undefined => {
      const rows: Row[] = [];
      const rowNumbers: number[] = [];
      const inPlace = ownsRows(batch, ctx);
      rowLoop: for (let r = 0; r < batch.rows.length; r++) {
        const row = batch.rows[r];
        // Drops first, so a dropped row is not counted as filled.
        for (const drop of drops) {
          if (isMissing(row[drop.index])) { drop.count(batch.rowNumbers[r], row); continue rowLoop; }
        }
        let out = row;
        for (const fill of fills) {
          if (!isMissing(row[fill.index])) continue;
          if (out === row && !inPlace) out = row.slice();
          out[fill.index] = fill.value;
          filled[fill.field] = (filled[fill.field] ?? 0) + 1;
        }
        rows.push(out);
        rowNumbers.push(batch.rowNumbers[r]);
      }
      return rows.length > 0 ? { rows, rowNumbers, owned: batch.owned } : undefined;
    };
    return { columns: input.columns, types: input.types, batches: eachBatch(input.batches, imputeBatch) };
  },
};
