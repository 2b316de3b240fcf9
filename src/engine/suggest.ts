/**
 * The engine's suggestions (engine.md "Suggestions"): what a job's GET bodies hold before any
 * update, derived from the header and a sample of rows, like the service. Pure and deterministic.
 */
import type {
  ColumnFieldMappingRead, DataType, DataTypesRead, ImputeRead, JobResources, PipelineSchema, SheetSelectionRead,
} from '../contract/index.js';
import { isMissing } from './missing.js';
import { detectDayFirst, isZeroPadded, parseDate, parseNumber, slashDateOrder, type SlashDateOrder } from './parse.js';
import { EXACT_SCORE, prepareName, preparedSimilarity, type PreparedName } from './similarity.js';
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

/** A best score under this leaves a column unmapped. */
export const MIN_MAPPING_CONFIDENCE = 0.5;
/** Share of non-missing values that must parse for `number` or `date_time` to be inferred. */
export const TYPE_INFERENCE_SHARE = 0.95;
/** Most distinct values a `category` column may have. */
export const MAX_CATEGORIES = 50;
/** Share of non-missing values the distinct values of a `category` column may reach. */
export const CATEGORY_SHARE = 0.2;
/** Non-missing values per column the mapping's value-shape hint looks at (the first ones of the sample). */
export const SHAPE_SAMPLE_VALUES = 1000;

// How much value shapes move a name score: up by this much when every value fits the field,
// down by as much when none does.
const SHAPE_WEIGHT = 0.2;
// A name score this low cannot reach the bar even with the shape bonus: skip the value scan.
const SHAPE_MIN_NAME_SCORE = MIN_MAPPING_CONFIDENCE - SHAPE_WEIGHT;
// Emails are unmistakable: a column of them maps to an email field on its values alone, just
// over the bar, so review shows it and any column whose name matches wins first.
const EMAIL_SHAPE_SCORE = 0.55;
// Only an exact name scores 1; every other match stays below it, whatever its values.
const MAX_INEXACT_SCORE = 0.99;

type Shape = 'email' | 'phone' | 'number' | 'date';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE_CHARS = /^\+?[\d\s().\-/]+$/;

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
  const preparedFields = fields.map(prepareName);
  const qualities = sheets.map((sheet) => {
    const preparedColumns = sheet.columns.map(prepareName);
    const assigned = assignBestFirst(sheet.columns.length, fields.length, (c, f) => preparedSimilarity(preparedColumns[c], preparedFields[f]));
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
  const samples = columns.map((_, i) => new ColumnSample(sample, i));

  // column index -> { field, confidence }
  const mapped = new Map<number, { field: string; confidence: number }>();
  if (fields.length === 0) {
    columns.forEach((column, i) => mapped.set(i, { field: column, confidence: 1 }));
  } else {
    const preparedColumns = columns.map(prepareName);
    const targets = fields.map((field) => ({ name: prepareName(field), shape: expectedShape(field, schema?.fieldDataTypes[field]) }));
    const assigned = assignBestFirst(columns.length, fields.length, (c, f) => mappingScore(preparedColumns[c], targets[f], samples[c]));
    assigned.forEach((a, c) => { if (a) mapped.set(c, { field: fields[a.field], confidence: a.score }); });
  }

  const columnMapping: Record<string, { field: string; confidence: number }> = {};
  const fieldDataTypes: DataTypesRead['fieldDataTypes'] = {};
  const mappedColumns = [...mapped.keys()].sort((a, b) => a - b);
  const stats = profileColumns(sample, mappedColumns);
  mappedColumns.forEach((c, k) => {
    const m = mapped.get(c)!;
    columnMapping[columns[c]] = { field: m.field, confidence: m.confidence };
    fieldDataTypes[m.field] = suggestDataType(stats[k], schema?.fieldDataTypes[m.field]);
  });
  const columnFieldMapping: ColumnFieldMappingRead = { [opts.sourceName]: columnMapping };

  const imputeMethods: ImputeRead['imputeMethods'] = {};
  for (const [field, method] of Object.entries(schema?.imputeMethods ?? {})) {
    if (method !== null) imputeMethods[field] = { imputeMethod: method, confidence: 1 };
  }

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

function suggestDataType(stats: TypeStats, schemaType: DataType | undefined): { dataType: DataType; confidence: number } {
  const share = (count: number) => (stats.nonMissing === 0 ? 1 : count / stats.nonMissing);
  if (schemaType) {
    // The schema decides; the confidence still says how much of the data will convert cleanly.
    // Text types never lose a value.
    const fit = schemaType === 'number' ? share(stats.numbers) : schemaType === 'date_time' ? share(stats.dates) : 1;
    return { dataType: schemaType, confidence: round2(fit) };
  }
  if (stats.nonMissing === 0) return { dataType: 'rich_text', confidence: 1 };
  // Zero-padded values are codes: the column is never a number, and its digits say nothing against text.
  const numberShare = stats.zeroPadded ? 0 : share(stats.numbers);
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
  zeroPadded: boolean;
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
  zeroPadded = false;
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
      if (parseNumber(text) !== undefined) {
        counts.numbers++;
        if (!counts.zeroPadded && isZeroPadded(text)) counts.zeroPadded = true;
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
    zeroPadded: c.zeroPadded,
    dates: c.isoDates + (c.order === 'dayFirst' ? c.slashDayFirst : c.slashMonthFirst),
    distinct: c.distinct.size,
    tooManyDistinct: c.tooManyDistinct,
  }));
}

/** One column of the sample, for the mapping's value-shape hint (computed on first use). */
class ColumnSample {
  private shapes?: Map<Shape, number> | null;

  constructor(private readonly rows: Row[], private readonly index: number) {}

  /** Share of the first SHAPE_SAMPLE_VALUES non-missing values having a shape; undefined with no values. */
  shapeShare(shape: Shape): number | undefined {
    if (this.shapes === undefined) this.shapes = this.measureShapes();
    return this.shapes?.get(shape);
  }

  private measureShapes(): Map<Shape, number> | null {
    const texts = this.texts(SHAPE_SAMPLE_VALUES);
    if (texts.length === 0) return null;
    const dayFirst = detectDayFirst(texts);
    const counts = { email: 0, phone: 0, number: 0, date: 0 };
    for (const text of texts) {
      if (text.includes('@')) {
        if (EMAIL.test(text.trim())) counts.email++;
        continue;
      }
      const first = firstCharCode(text);
      if (mayStartNumber(first) && parseNumber(text) !== undefined) counts.number++;
      if (((first >= 48 && first <= 57) || first > 127) && parseDate(text, dayFirst) !== undefined) counts.date++;
      else if (looksLikePhone(text)) counts.phone++;
    }
    return new Map((Object.keys(counts) as Shape[]).map((k) => [k, counts[k] / texts.length]));
  }

  /** The first `limit` non-missing values as text. */
  private texts(limit: number): string[] {
    const out: string[] = [];
    for (const row of this.rows) {
      if (out.length >= limit) break;
      const value = row[this.index];
      if (typeof value === 'number') out.push(String(value));
      else if (!isMissing(value)) out.push(value as string);
    }
    return out;
  }
}

/** Adds a value to a bounded distinct set; true once the set has outgrown any category. */
function addDistinct(set: Set<string>, value: string): boolean {
  set.add(value);
  return set.size > MAX_CATEGORIES;
}

/** The shape a field's values should have: from its name (email, phone), else from its schema type. */
function expectedShape(field: string, type: DataType | undefined): Shape | undefined {
  const tokens = prepareName(field).canonical;
  if (tokens.includes('email')) return 'email';
  if (tokens.includes('phone') || tokens.includes('fax')) return 'phone';
  if (type === 'number') return 'number';
  if (type === 'date_time') return 'date';
  if (type === undefined && tokens.some((t) => DATE_WORDS.has(t))) return 'date';
  return undefined;
}

const DATE_WORDS = new Set(['date', 'time', 'timestamp', 'created', 'updated', 'birth']);

/** A column's score for a field: name similarity, moved by how well its values fit the field. */
function mappingScore(column: PreparedName, field: { name: PreparedName; shape?: Shape }, sample: ColumnSample): number {
  const name = preparedSimilarity(column, field.name);
  if (name === EXACT_SCORE) return EXACT_SCORE;
  let score = name;
  if (field.shape && (name >= SHAPE_MIN_NAME_SCORE || field.shape === 'email')) {
    const fit = sample.shapeShare(field.shape);
    if (fit !== undefined) {
      score += SHAPE_WEIGHT * (2 * fit - 1);
      if (field.shape === 'email' && fit >= TYPE_INFERENCE_SHARE) score = Math.max(score, EMAIL_SHAPE_SCORE);
    }
  }
  return Math.min(MAX_INEXACT_SCORE, Math.max(0, score));
}

/**
 * Best-first assignment: every (column, field) pair whose rounded score reaches the bar, highest
 * first (ties: earlier column, then earlier field), each column and each field used once.
 * Returns, per column, the chosen field index and its rounded score.
 */
function assignBestFirst(columnCount: number, fieldCount: number, score: (column: number, field: number) => number):
  ({ field: number; score: number } | undefined)[] {
  const pairs: { column: number; field: number; score: number }[] = [];
  for (let c = 0; c < columnCount; c++) {
    for (let f = 0; f < fieldCount; f++) {
      const s = round2(score(c, f));
      if (s >= MIN_MAPPING_CONFIDENCE) pairs.push({ column: c, field: f, score: s });
    }
  }
  pairs.sort((a, b) => b.score - a.score || a.column - b.column || a.field - b.field);
  const byColumn: ({ field: number; score: number } | undefined)[] = new Array(columnCount).fill(undefined);
  const usedFields = new Set<number>();
  for (const p of pairs) {
    if (byColumn[p.column] || usedFields.has(p.field)) continue;
    byColumn[p.column] = { field: p.field, score: p.score };
    usedFields.add(p.field);
  }
  return byColumn;
}

/** Index of the sheet with the highest quality; ties: more rows, then first. */
function pickBest(sheets: SheetInfo[], quality: (index: number) => number): number {
  let best = 0;
  for (let i = 1; i < sheets.length; i++) {
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

/** 7 to 15 digits with the usual phone punctuation (`+1 (555) 010-9999`). */
function looksLikePhone(text: string): boolean {
  const t = text.trim();
  if (!PHONE_CHARS.test(t)) return false;
  let digits = 0;
  for (let i = 0; i < t.length; i++) { const c = t.charCodeAt(i); if (c >= 48 && c <= 57) digits++; }
  return digits >= 7 && digits <= 15;
}
