/**
 * Step 5, data types: number text becomes JS numbers, date text becomes `YYYY-MM-DDTHH:mm:ss`,
 * category and rich_text stay text. Values that do not parse become missing and are counted.
 */
import { DATA_TYPES, type DataType } from '../../contract/index.js';
import { entriesInOrder } from '../../contract/json.js';
import { UsageError } from '../../errors.js';
import { isMissing } from '../missing.js';
import { normalizeDate, parseExactNumber, parseNumber, slashDateOrder } from '../parse.js';
import { countEmptiedCell, emptyTypeEvidence, ownsRows, type Batch, type EngineConfig, type Row, type TypeEvidence, type Step, type StepContext, type Table, type Value } from '../types.js';
import { conversionZoneMinutes } from './units.js';

/** The allowed data type a configured value names, ignoring case; `undefined` when none. */
export function dataTypeOf(value: unknown): DataType | undefined {
  // Seed leaves the case of values open; we accept any case, as for methods.
  if (typeof value !== 'string') return undefined;
  const lower = value.toLowerCase();
  return DATA_TYPES.find((t) => t === lower);
}

function validate(config: EngineConfig): Map<string, DataType> {
  // A Map: a field may be named `__proto__`, which a plain object would not keep.
  const resolved = new Map<string, DataType>();
  for (const [field, value] of entriesInOrder(config.dataTypes ?? {})) {
    const type = dataTypeOf(value);
    if (!type) throw new UsageError(`Data type "${String(value)}" for field "${field}" is not one of ${DATA_TYPES.join(', ')}.`);
    resolved.set(field, type);
  }
  return resolved;
}

/** Rows a sequential run holds back while a date column's slash order is open, before it re-reads the input to decide. */
export const SLASH_HOLD_ROWS = 32_768;

/** A number column, and the first values a warning about decimal commas would name. */
interface NumberColumn {
  index: number;
  field: string;
  decimalComma?: { row: number; text: string };
  grouped?: { row: number; text: string };
}

/** A date_time column: its slash order once decided (true: day-first), and what was seen. */
interface DateColumn {
  index: number;
  field: string;
  /** true: day-first (a first part over 12 was seen); false: month-first; undefined: not decided yet. */
  dayFirst: boolean | undefined;
  /** A slash date was seen while undecided: converting must wait for the decision. */
  sawSlash: boolean;
  zoneMinutes: number | undefined;
  /** Parallel runs: month-first was assumed from the sample; a day-first value must stop the run. */
  assumed?: boolean;
  /** Day-first columns: the first value that reads only month-first (it failed), for the warning. */
  otherOrder?: { row: number; text: string };
  /** A value reads only month-first (`12/25/2024`). */
  monthFirst?: boolean;
  /** The first value with a fraction of a second (cut: the output has whole seconds), for the warning. */
  fraction?: { row: number; text: string };
  /** Without a time-zone conversion: the first value with a UTC offset, then the first with another one. */
  offset?: { row: number; text: string; minutes: number };
  otherOffset?: { row: number; text: string };
}

/**
 * Scans rows for a column's slash order (engine.md step 5): day-first as soon as any slash value
 * has a first part over 12; any other slash value is noted. The one statement of the rule, used
 * while streaming, on a re-read of the input and on a parallel run's sample.
 */
export function scanSlashOrder(column: { index: number; dayFirst: boolean | undefined; sawSlash: boolean; monthFirst?: boolean }, rows: readonly Row[]): void {
  if (column.dayFirst === true) return;
  for (const row of rows) {
    const v = row[column.index];
    if (typeof v !== 'string') continue;
    const order = slashDateOrder(v);
    if (order === undefined) continue;
    if (order === 'dayFirst') { column.dayFirst = true; return; }
    column.sawSlash = true;
    if (order === 'monthFirst') column.monthFirst = true;
  }
}

/** Adds what a column read month-first showed to the run's evidence ('proved' wins over 'ambiguous'). */
function addMonthFirst(evidence: TypeEvidence, field: string, seen: 'proved' | 'ambiguous'): void {
  if (evidence.monthFirst.get(field) !== 'proved') evidence.monthFirst.set(field, seen);
}

/** Adds a later part's evidence (rows counted from its first row, `rowOffset` rows after the run's first). */
export function mergeTypeEvidence(into: TypeEvidence, part: TypeEvidence, rowOffset: number): void {
  for (const [field, seen] of part.monthFirst) addMonthFirst(into, field, seen);
  for (const key of ['otherOrder', 'decimalComma', 'grouped', 'fraction'] as const) {
    for (const [field, first] of part[key]) {
      if (!into[key].has(field)) into[key].set(field, { row: first.row + rowOffset, text: first.text });
    }
  }
  // The first offset, then the first other one: two parts may each hold one, different from each other's.
  for (const [field, first] of part.offset) {
    const seen = into.offset.get(field);
    if (!seen) into.offset.set(field, { ...first, row: first.row + rowOffset });
    if (into.otherOffset.has(field)) continue;
    // The part's first offset, if it differs from the one seen before; else the part's own other one.
    const other = seen && seen.minutes !== first.minutes ? first : part.otherOffset.get(field);
    if (other) into.otherOffset.set(field, { row: other.row + rowOffset, text: other.text });
  }
}

/**
 * The warnings of the types step, given once every row has passed (the two-thread path merges its
 * parts' evidence first): a day-first column holding a value that reads only month-first (the
 * first one named); a month-first column whose every slash date read either way (`01/02/2024`),
 * a guess the user must hear about; a number column with decimal commas (`3,5`), which fail, and
 * values such a file means otherwise (`1,234` read as 1234, `1.234` as 1.234).
 */
export function typeWarnings(evidence: TypeEvidence | undefined): string[] {
  const warnings: string[] = [];
  for (const [field, { row, text }] of evidence?.otherOrder ?? []) {
    warnings.push(`Field "${field}" has slash dates read day-first (a first part is over 12) but row ${row} holds ${JSON.stringify(text)}, which only reads month-first; such values are missing and counted as coercion failures. Write the column's dates in one order.`);
  }
  for (const [field, seen] of evidence?.monthFirst ?? []) {
    if (seen !== 'ambiguous') continue;
    warnings.push(`Field "${field}" has slash dates that all read either way (such as 01/02/2024), so they were read month-first (MM/DD/YYYY); if they are day-first, write them as YYYY-MM-DD before the import.`);
  }
  for (const [field, { row, text }] of evidence?.decimalComma ?? []) {
    const grouped = evidence?.grouped.get(field);
    const misread = grouped ? ` Row ${grouped.row}'s ${JSON.stringify(grouped.text)} was read as ${parseNumber(grouped.text)}, which is not what it means there.` : '';
    warnings.push(`Field "${field}" has numbers written with a decimal comma (row ${row}: ${JSON.stringify(text)}), which the number type does not read: such values are missing and counted as coercion failures.${misread} Write the column's numbers with a decimal point (1234.5) before the import.`);
  }
  for (const [field, { row, text }] of evidence?.otherOffset ?? []) {
    const first = evidence!.offset.get(field)!;
    warnings.push(`Field "${field}" has times with different UTC offsets (row ${first.row}: ${JSON.stringify(first.text)}, row ${row}: ${JSON.stringify(text)}) and no time-zone conversion, so each keeps its wall time as written and its offset is lost: times hours apart may read as equal. Set its units (from, to) to move them into one zone.`);
  }
  for (const [field, { row, text }] of evidence?.fraction ?? []) {
    warnings.push(`Field "${field}" has times with fractions of a second (row ${row}: ${JSON.stringify(text)}), which the date_time form YYYY-MM-DDTHH:mm:ss cannot hold: they were cut to whole seconds.`);
  }
  return warnings;
}

/**
 * date_time fields' slash orders fixed in advance, for parallel runs where no one worker sees the
 * whole column: true when the sample proved day-first; false when it did not, which assumes
 * month-first: a worker meeting a day-first value then throws SlashOrderUnknown and the run goes
 * sequential, which decides over the whole column.
 */
export type SlashOrders = Record<string, boolean | null>;

/** Thrown by a types step with fixed orders when a value contradicts an assumed slash order. */
export class SlashOrderUnknown extends Error {}

/** A number written with a decimal comma (`3,5`, `-12,50`, `1.234,56`, `€ 1.234,5`): the number type does not read it. */
const DECIMAL_COMMA = /^\s*[-+]?[$€£¥]?\s*(?:\d{1,3}(?:\.\d{3})+|\d+),\d+\s*%?\s*$/;
/** A number whose one kind of separator sits before groups of three (`1,234`, `1.234`): a decimal-comma file means it the other way. */
const GROUPED = /^[-+]?\d{1,3}(?:(?:,\d{3})+|(?:\.\d{3})+)$/;

/** Seconds with a fraction (`:10.987`, `:10,5`); tested only on date text longer than `YYYY-MM-DDTHH:mm:ssZ`, until a column has one. */
const FRACTION = /:\d\d[.,]\d/;

/** An explicit UTC offset ending date text (`Z`, `+02:00`, `-0530`, `+01`). */
const OFFSET = /(?:[zZ]|([+-])(\d\d):?(\d\d)?)$/;

/**
 * The UTC offset in minutes of date text that parsed, or undefined without one. Only text of 19
 * characters or more can hold one after a time; of those, 19 characters only as `YYYY-MM-DDTHH:mm±hh`,
 * so the usual `YYYY-MM-DD HH:mm:ss` costs one comparison.
 */
function offsetMinutes(text: string): number | undefined {
  const n = text.length;
  if (n < 19 || (n === 19 && text.charCodeAt(16) !== 43 && text.charCodeAt(16) !== 45)) return undefined;
  const m = OFFSET.exec(text);
  if (!m) return undefined;
  if (m[1] === undefined) return 0;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0));
}

/** Whether a value read as a number may mean another one in a decimal-comma file; the first test is cheap, for the hot path. */
function isGrouped(text: string): boolean {
  const separator = text.charCodeAt(text.length - 4);
  return (separator === 44 || separator === 46) && GROUPED.test(text);
}

/**
 * Converts a number column's value; `undefined` means "failed" (counted by the caller). An integer
 * a double cannot hold (a 19-digit id) fails too: rounding it would change the value in silence.
 */
function toNumber(value: Value): number | null | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (value === null || isMissing(value)) return null;
  return parseExactNumber(value);
}

function toDate(value: Value, column: DateColumn): string | null | undefined {
  if (value === null || isMissing(value)) return null;
  // A number here (from a script) is not date text; its text form is tried like any other.
  const text = typeof value === 'number' ? String(value) : value;
  return normalizeDate(text, column.dayFirst === true, column.zoneMinutes);
}

/**
 * Step 5: applies `config.dataTypes`. Fields not among the columns are ignored (the suggestions
 * give types for every schema field, mapped or not). Slash dates are read day-first when any value
 * of the column, anywhere in it, has a first part over 12, else month-first. Rows are held back
 * only while a date column has slash dates and no day-first one yet; past SLASH_HOLD_ROWS held rows
 * the step re-reads the input (`ctx.reopen`) to look for one, so memory stays bounded. In a column
 * holding values that prove each order the rule reads day-first: the month-first ones fail (missing,
 * counted) and a warning names the first of them.
 */
export const types: Step = typesStep();

/** The data-type step; with `orders`, date_time fields take their slash order from it instead of from the data. */
export function typesStep(orders?: SlashOrders, options: { holdRows?: number } = {}): Step {
  const holdRows = options.holdRows ?? SLASH_HOLD_ROWS;
  return {
    name: 'types',
    check(config) {
      validate(config);
    },
    apply(input: Table, config: EngineConfig, ctx: StepContext): Table {
      const resolved = validate(config);
      // A field the configuration gives no type (a column the job file mapped that the
      // suggestions did not) takes the pipeline's expected type, as the destination expects it.
      for (const [field, value] of entriesInOrder(ctx.schema.fieldDataTypes ?? {})) {
        const type = dataTypeOf(value);
        if (type && !resolved.has(field)) resolved.set(field, type);
      }
      const outTypes = input.types.slice();
      const numberColumns: NumberColumn[] = [];
      const textColumns: number[] = [];
      const dateColumns: DateColumn[] = [];
      input.columns.forEach((field, index) => {
        const type = resolved.get(field);
        if (type === undefined) return;
        outTypes[index] = type;
        if (type === 'number') numberColumns.push({ index, field });
        else if (type === 'date_time') {
          // engine.md: a value with an explicit offset is first converted to the conversion's
          // `from` zone; without a time-zone conversion its wall time is kept as written.
          const fixed = orders && Object.hasOwn(orders, field) ? orders[field] === true : false;
          dateColumns.push({
            index, field, dayFirst: orders ? fixed : undefined, sawSlash: false,
            zoneMinutes: conversionZoneMinutes(config, field, 'from'), assumed: orders !== undefined && !fixed,
          });
        } else textColumns.push(index);
      });
      if (numberColumns.length + dateColumns.length + textColumns.length === 0) {
        return { columns: input.columns, types: outTypes, batches: input.batches };
      }

      const convertRow = (row: Row, rowNumber: number, inPlace: boolean): Row => {
        const out = inPlace ? row : row.slice();
        for (const column of numberColumns) {
          const { index, field } = column;
          const original = out[index];
          const n = toNumber(original ?? null);
          if (n === undefined) {
            out[index] = null;
            countEmptiedCell(ctx, { field, rule: 'number', origin: 'dataType', original, row: rowNumber, out });
            if (!column.decimalComma && typeof original === 'string' && DECIMAL_COMMA.test(original)) column.decimalComma = { row: rowNumber, text: original };
          } else {
            if (!column.grouped && typeof original === 'string' && isGrouped(original)) column.grouped = { row: rowNumber, text: original };
            out[index] = n;
          }
        }
        for (const column of dateColumns) {
          const v = out[column.index];
          if (column.assumed && typeof v === 'string') {
            const order = slashDateOrder(v);
            if (order === 'dayFirst') throw new SlashOrderUnknown(column.field);
            if (order === 'monthFirst') column.monthFirst = true;
            else if (order === 'ambiguous') column.sawSlash = true;
          }
          const d = toDate(v ?? null, column);
          if (d === undefined) {
            out[column.index] = null;
            countEmptiedCell(ctx, { field: column.field, rule: 'date_time', origin: 'dataType', original: v, row: rowNumber, out });
            if (column.dayFirst && !column.otherOrder && typeof v === 'string' && slashDateOrder(v) === 'monthFirst') column.otherOrder = { row: rowNumber, text: v };
          } else {
            out[column.index] = d;
            if (typeof v !== 'string') continue;
            if (!column.fraction && v.length > 20 && FRACTION.test(v)) column.fraction = { row: rowNumber, text: v };
            // Without a conversion offsets are dropped (engine.md step 5): two different ones lose the times' order.
            if (column.zoneMinutes === undefined && !column.otherOffset) {
              const minutes = offsetMinutes(v);
              if (minutes === undefined) continue;
              if (!column.offset) column.offset = { row: rowNumber, text: v, minutes };
              else if (column.offset.minutes !== minutes) column.otherOffset = { row: rowNumber, text: v };
            }
          }
        }
        // category / rich_text: text unchanged; a number (only a script can put one here) becomes its text.
        for (const i of textColumns) if (typeof out[i] === 'number') out[i] = String(out[i]);
        return out;
      };

      const convertBatch = (batch: Batch): Batch => {
        const rows = new Array<Row>(batch.rows.length);
        const inPlace = ownsRows(batch, ctx);
        for (let r = 0; r < rows.length; r++) rows[r] = convertRow(batch.rows[r], batch.rowNumbers[r], inPlace);
        return { rows, rowNumbers: batch.rowNumbers, owned: batch.owned };
      };

      /** Decides every open date column over the whole input by re-reading it; false when the input cannot be re-read. */
      const decideByRereading = async (): Promise<boolean> => {
        const again = await ctx.reopen?.('types', config);
        if (!again) return false;
        const open = dateColumns.filter((c) => c.dayFirst === undefined);
        const columns = open.map((c) => ({ index: again.columns.indexOf(c.field), dayFirst: undefined as boolean | undefined, sawSlash: false, monthFirst: false }));
        for await (const batch of again.batches) {
          for (const column of columns) scanSlashOrder(column, batch.rows);
          if (columns.every((c) => c.dayFirst === true)) break; // stops the re-read early
        }
        open.forEach((column, i) => { column.dayFirst = columns[i].dayFirst === true; column.monthFirst ||= columns[i].monthFirst; });
        return true;
      };

      /** At the end of the input: what the columns showed goes to the run's evidence. */
      const finish = (): void => {
        // Warned once every part has passed; a step run on its own (no evidence to merge into) warns here.
        const evidence = ctx.typeEvidence ?? emptyTypeEvidence();
        const part = emptyTypeEvidence();
        for (const column of numberColumns) {
          if (column.decimalComma) part.decimalComma.set(column.field, column.decimalComma);
          if (column.grouped) part.grouped.set(column.field, column.grouped);
        }
        for (const column of dateColumns) {
          if (column.otherOrder) part.otherOrder.set(column.field, column.otherOrder);
          if (column.fraction) part.fraction.set(column.field, column.fraction);
          if (column.offset) part.offset.set(column.field, column.offset);
          if (column.otherOffset) part.otherOffset.set(column.field, column.otherOffset);
          if (column.dayFirst) continue;
          if (column.monthFirst) part.monthFirst.set(column.field, 'proved');
          else if (column.sawSlash) part.monthFirst.set(column.field, 'ambiguous');
        }
        mergeTypeEvidence(evidence, part, 0);
        if (!ctx.typeEvidence) for (const warning of typeWarnings(evidence)) ctx.warn(warning);
      };
      return { columns: input.columns, types: outTypes, batches: typedBatches(input.batches, { dateColumns, holdRows, convertBatch, decideByRereading, finish }) };
    },
  };
}

/** What the data-type step's batches need from its apply (see typedBatches). */
interface TypesRun {
  dateColumns: DateColumn[];
  holdRows: number;
  convertBatch(batch: Batch): Batch;
  decideByRereading(): Promise<boolean>;
  finish(): void;
}

/**
 * The data-type step's batches: converted as they come, but held while a date column has slash
 * values and no decided order (see typesStep). Made once at module level, like eachBatch.
 */
async function* typedBatches(input: AsyncIterable<Batch>, run: TypesRun): AsyncGenerator<Batch> {
  const { dateColumns, holdRows } = run;
  let held: Batch[] = [];
  let heldRows = 0;
  let reread = false;
  for await (const batch of input) {
    for (const column of dateColumns) if (column.dayFirst === undefined) scanSlashOrder(column, batch.rows);
    held.push(batch);
    heldRows += batch.rows.length;
    // Date columns whose slash values must wait for a decision.
    if (dateColumns.some((c) => c.dayFirst === undefined && c.sawSlash)) {
      if (heldRows < holdRows || reread) continue;
      reread = true; // once: without a reopen, rows are held to the end (the input is in memory already)
      if (!(await run.decideByRereading())) continue;
    }
    for (const h of held) yield run.convertBatch(h);
    held = [];
    heldRows = 0;
  }
  // End of input with no day-first value: month-first.
  for (const column of dateColumns) if (column.dayFirst === undefined) column.dayFirst = false;
  for (const h of held) yield run.convertBatch(h);
  run.finish();
}
