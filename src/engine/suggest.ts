/**
 * The engine's suggestions (engine.md "Suggestions"): what a job's GET bodies hold before any
 * update, derived from the header and a sample of rows, like the service. Pure and deterministic.
 */
import type {
  ColumnFieldMappingRead, DataType, DataTypesRead, ImputeMethod, ImputeRead, JobResources, PipelineSchema, SheetSelectionRead,
} from '../contract/index.js';
import { orderedObject } from '../contract/json.js';
import { isMissing } from './missing.js';
import { isZeroPadded, losesDigits, parseDate, parseNumber, slashDateOrder, type SlashDateOrder } from './parse.js';
import { assignByName, suggestMapping } from './suggest-mapping.js';
import type { Row, SheetInfo } from './types.js';

/** The sheet suggestion: the seed's `sheetSelection` read body. */
export type SheetSuggestion = SheetSelectionRead['sheetSelection'];

/** What `suggestResources` derives the suggestions from. */
export interface SuggestOptions {
  /** Key of the column mapping: the input's name (file base name, `jsonData`, sheet name). */
  sourceName: string;
  columns: string[];
  /** Rows of text or null values (the first SAMPLE_ROWS rows, or every row with useFullData). */
  sample: Row[];
  schema?: PipelineSchema;
  sheet?: SheetSuggestion | null;
  scripts?: { preColumnMapping: string[] };
}

export { MIN_MAPPING_CONFIDENCE, SHAPE_SAMPLE_VALUES } from './suggest-mapping.js';
/** Share of non-missing values that must parse for `number` or `date_time` to be inferred. */
export const TYPE_INFERENCE_SHARE = 0.95;
/** Most distinct values a `category` column may have. */
export const MAX_CATEGORIES = 50;
/** Share of non-missing values the distinct values of a `category` column may reach. */
export const CATEGORY_SHARE = 0.2;

/** Picks the sheet whose header matches the schema's fields best (ties: more rows, then first). */
export function suggestSheet(sheets: SheetInfo[], schema?: PipelineSchema): SheetSuggestion {
  const names = sheets.map((s) => s.name);
  if (sheets.length === 0) return { selected: '', confidence: 0, sheets: names };
  const fields = fieldsOf(schema);
  if (fields.length === 0) {
    // Nothing to match: the sheet holding most rows, as sure as its share of all rows.
    const best = pickBest(sheets, () => 0);
    const total = sheets.reduce((sum, s) => sum + s.rowCount, 0);
    const confidence = total === 0 ? 1 / sheets.length : sheets[best].rowCount / total;
    return { selected: names[best], confidence: round2(confidence), sheets: names };
  }
  // Quality = mean mapping score over the required fields (expected, not optional), a missing
  // field counting 0; when every field is optional, over all of them.
  const optional = new Set(schema?.optionalFields ?? []);
  const required = fields.filter((f) => !optional.has(f));
  const judged = new Set(required.length > 0 ? required : fields);
  const qualities = sheets.map((sheet) => {
    const assigned = assignByName(sheet.columns, fields);
    let sum = 0;
    for (const a of assigned) if (a && judged.has(fields[a.field])) sum += a.score;
    return round2(sum / judged.size);
  });
  const best = pickBest(sheets, (i) => qualities[i]);
  return { selected: names[best], confidence: qualities[best], sheets: names };
}

/** Every GET body of a new job: the suggestions for its input, schema and sheet. */
export function suggestResources(opts: SuggestOptions): JobResources {
  const { schema, columns, sample } = opts;
  const fields = fieldsOf(schema);

  // column index -> { field, confidence }
  const mapped = new Map<number, { field: string; confidence: number }>();
  if (fields.length === 0) {
    columns.forEach((column, i) => mapped.set(i, { field: column, confidence: 1 }));
  } else {
    const suggested = suggestMapping(columns, fields, schema?.fieldDataTypes ?? {}, sample);
    for (const [c, m] of suggested) mapped.set(c, { field: fields[m.field], confidence: m.confidence });
  }

  // Keyed by the user's names (`__proto__` and "1962" are column names too), in column order.
  const mappedColumns = [...mapped.keys()].sort((a, b) => a - b);
  const stats = profileColumns(sample, mappedColumns);
  const columnMapping = orderedObject(mappedColumns.map((c) => [columns[c], { ...mapped.get(c)! }] as const));
  const fieldDataTypes: DataTypesRead['fieldDataTypes'] = orderedObject(mappedColumns.map((c, k) => {
    const field = mapped.get(c)!.field;
    return [field, suggestDataType(stats[k], schemaTypeOf(schema, field))] as const;
  }));
  const columnFieldMapping: ColumnFieldMappingRead = orderedObject([[opts.sourceName, columnMapping]]);

  const imputeMethods: ImputeRead['imputeMethods'] = orderedObject(Object.entries(schema?.imputeMethods ?? {})
    .filter((entry): entry is [string, NonNullable<ImputeMethod>] => entry[1] !== null)
    .map(([field, method]) => [field, { imputeMethod: method, confidence: 1 }] as const));

  return {
    sheet: opts.sheet ? { sheetSelection: { ...opts.sheet, sheets: [...opts.sheet.sheets] } } : null,
    fields: {
      expectedFields: [...(schema?.expectedFields ?? [])],
      optionalFields: [...(schema?.optionalFields ?? [])],
      inputColumns: [...columns],
      columnFieldMapping,
    },
    combining: { columnsBeingCombined: {} },
    dataTypes: { fieldDataTypes, expectedFieldDataTypes: { ...(schema?.fieldDataTypes ?? {}) } },
    units: { fieldUnitConversions: {}, expectedFieldUnits: { ...(schema?.fieldUnits ?? {}) } },
    impute: { imputeMethods, expectedImputeMethods: { ...(schema?.imputeMethods ?? {}) } },
    pivot: { pivot: null },
    rowDropping: { presetRowDroppingMethods: structuredClone(schema?.rowDropping ?? []), additionalRowDroppingMethods: [] },
    text: { textProcessingMethods: {} },
    scripts: { preColumnMapping: [...(opts.scripts?.preColumnMapping ?? [])], postClean: [] },
  };
}

/**
 * The data type suggested for a column's values: the schema's type when it gives one, else
 * `number`, `date_time`, `category` or `rich_text` as inferred (engine.md "Suggestions").
 */
export function inferDataType(sample: Row[], column: number, schemaType?: DataType): { dataType: DataType; confidence: number } {
  return suggestDataType(profileColumns(sample, [column])[0], schemaType);
}

/**
 * Every column's inferred type and the share of its values that fit number and date_time, from
 * one pass over the sample: what inferDataType gives for each column and type, at a third of the cost.
 */
export function columnTypeFits(sample: Row[], width: number): { inferred: { dataType: DataType; confidence: number }; fit: { number: number; date_time: number } }[] {
  return profileColumns(sample, Array.from({ length: width }, (_, i) => i)).map((stats) => ({
    inferred: suggestDataType(stats, undefined),
    fit: { number: suggestDataType(stats, 'number').confidence, date_time: suggestDataType(stats, 'date_time').confidence },
  }));
}

function suggestDataType(stats: TypeStats, schemaType: DataType | undefined): { dataType: DataType; confidence: number } {
  const share = (count: number) => (stats.nonMissing === 0 ? 1 : count / stats.nonMissing);
  if (schemaType) {
    // The schema decides; the confidence still says how much of the data will convert cleanly.
    // Text types never lose a value.
    const fit = schemaType === 'number' ? share(stats.numbers) : schemaType === 'date_time' ? share(stats.dates) : 1;
    return { dataType: schemaType, confidence: round2(fit) };
  }
  if (stats.nonMissing === 0) return { dataType: 'rich_text', confidence: 1 };
  // Codes (zero-padded, or integers a double cannot hold) never make a number column, and their digits say nothing against text.
  const numberShare = stats.codes ? 0 : share(stats.numbers);
  if (numberShare >= TYPE_INFERENCE_SHARE) return { dataType: 'number', confidence: round2(numberShare) };
  const dateShare = share(stats.dates);
  if (dateShare >= TYPE_INFERENCE_SHARE) return { dataType: 'date_time', confidence: round2(dateShare) };
  // For text types the confidence is the share of values that are not numbers or dates: a column
  // that is mostly numbers but short of 95% gets a low confidence, so review points at it.
  const confidence = round2(1 - Math.max(numberShare, dateShare));
  const limit = Math.min(MAX_CATEGORIES, Math.max(2, Math.floor(CATEGORY_SHARE * stats.nonMissing)));
  const isCategory = !stats.tooManyDistinct && stats.distinct < stats.nonMissing && stats.distinct <= limit;
  return { dataType: isCategory ? 'category' : 'rich_text', confidence };
}

interface TypeStats {
  nonMissing: number;
  /** Values that parse as numbers (zero-padded ones included). */
  numbers: number;
  /** Some value is a code, not a quantity: zero-padded (`00123`) or an integer a double cannot hold. */
  codes: boolean;
  /** Values that parse as dates, slash dates read in the order the column proves. */
  dates: number;
  /** Distinct non-missing values, counted up to MAX_CATEGORIES + 1. */
  distinct: number;
  tooManyDistinct: boolean;
}

/** Running counts of one column while the sample is scanned. */
class ColumnCounts {
  nonMissing = 0;
  numbers = 0;
  codes = false;
  isoDates = 0;
  // Slash dates (`N/N/YYYY`) valid when read day-first / month-first; the column's order is only
  // known once a value proves it, so both readings are counted.
  slashDayFirst = 0;
  slashMonthFirst = 0;
  order: SlashDateOrder | undefined = undefined;
  readonly distinct = new Set<string>();
  tooManyDistinct = false;
  constructor(readonly index: number) {}
}

/**
 * Type statistics of some columns of the sample, in one row-major pass: rows are visited in the
 * order they were read, which keeps memory access sequential (a column-by-column walk over a
 * wide sample is several times slower).
 */
function profileColumns(rows: Row[], indices: number[]): TypeStats[] {
  const all = indices.map((i) => new ColumnCounts(i));
  const width = all.length;
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r];
    for (let k = 0; k < width; k++) {
      const counts = all[k];
      const value = row[counts.index];
      if (typeof value === 'number') {
        counts.nonMissing++;
        counts.numbers++;
        if (!counts.tooManyDistinct) counts.tooManyDistinct = addDistinct(counts.distinct, String(value));
        continue;
      }
      if (isMissing(value)) continue;
      const text = value as string;
      counts.nonMissing++;
      if (!counts.tooManyDistinct) counts.tooManyDistinct = addDistinct(counts.distinct, text);
      const first = firstCharCode(text);
      if (!mayStartNumber(first)) continue;
      const n = parseNumber(text);
      if (n !== undefined) {
        counts.numbers++;
        if (!counts.codes && (isZeroPadded(text) || losesDigits(text, n))) counts.codes = true;
        continue; // text that parses as a number never parses as a date
      }
      if (!((first >= 48 && first <= 57) || first > 127)) continue; // dates start with a digit
      const order = slashDateOrder(text);
      if (order === undefined) {
        if (parseDate(text) !== undefined) counts.isoDates++;
        continue;
      }
      // As detectDayFirst (parse.ts): the first value that proves an order decides.
      if (counts.order === undefined && order !== 'ambiguous') counts.order = order;
      if (parseDate(text, true) !== undefined) counts.slashDayFirst++;
      if (parseDate(text, false) !== undefined) counts.slashMonthFirst++;
    }
  }
  return all.map((c) => ({
    nonMissing: c.nonMissing,
    numbers: c.numbers,
    codes: c.codes,
    dates: c.isoDates + (c.order === 'dayFirst' ? c.slashDayFirst : c.slashMonthFirst),
    distinct: c.distinct.size,
    tooManyDistinct: c.tooManyDistinct,
  }));
}

/** Adds a value to a bounded distinct set; true once the set has outgrown any category. */
function addDistinct(set: Set<string>, value: string): boolean {
  set.add(value);
  return set.size > MAX_CATEGORIES;
}

/**
 * Index of the sheet with the highest quality; ties: more rows, then first. A hidden sheet (a
 * lookup table the workbook keeps out of its user's sight) is picked only when every sheet is.
 */
function pickBest(sheets: SheetInfo[], quality: (index: number) => number): number {
  const visible = sheets.some((s) => !s.hidden);
  let best = -1;
  for (let i = 0; i < sheets.length; i++) {
    if (visible && sheets[i].hidden) continue;
    if (best < 0) { best = i; continue; }
    const q = quality(i);
    const b = quality(best);
    if (q > b || (q === b && sheets[i].rowCount > sheets[best].rowCount)) best = i;
  }
  return best;
}

/** Expected then optional fields, each once. */
function fieldsOf(schema: PipelineSchema | undefined): string[] {
  if (!schema) return [];
  return [...new Set([...schema.expectedFields, ...schema.optionalFields])];
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

/** The first character code after leading whitespace (NaN for blank text). */
function firstCharCode(text: string): number {
  let i = 0;
  while (i < text.length && text.charCodeAt(i) <= 32) i++;
  return text.charCodeAt(i);
}

/** Cheap test before the full number parse: digit, sign, dot, `(`, or a currency sign (or any non-ASCII: left to the parser). */
function mayStartNumber(c: number): boolean {
  return (c >= 48 && c <= 57) || c === 45 || c === 43 || c === 46 || c === 40 || c === 36 || c > 127;
}

/** The schema's type for a field, read as an own key (a field may be named `__proto__`). */
function schemaTypeOf(schema: PipelineSchema | undefined, field: string): DataType | undefined {
  const types = schema?.fieldDataTypes;
  return types && Object.prototype.hasOwnProperty.call(types, field) ? types[field] : undefined;
}
