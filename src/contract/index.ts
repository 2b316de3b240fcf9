/**
 * The seed's allowed values and the types of its wire shapes: the contract of the Data Import Job
 * Service, nothing else. The types are inferred from the schemas in schemas.ts; this module imports
 * them as types only, so the constants load without valibot (start-up stays fast).
 */
import type { InferOutput } from 'valibot';
import type * as S from './schemas.js';

/** Path prefix every endpoint lives under. */
export const API_PREFIX = '/public/client-side/v1';

/**
 * Why a job id cannot be used as the seed's `{jobId}` path segment and printed for the next
 * command, or undefined when it can. The one rule for an id the user gives (exit 2) and for the
 * id `start` answers (exit 1): not empty, not `.` or `..` (no encoding keeps them one segment),
 * no control characters (a newline would split `JOB=$(import start ...)`, an escape would drive the terminal).
 */
export function jobIdProblem(id: string): string | undefined {
  if (id.trim() === '') return 'is empty';
  if (id === '.' || id === '..') return 'is a dot segment, which no URL path can carry';
  if (/[\u0000-\u001f\u007f-\u009f]/.test(id)) return 'holds control characters (a line break or a terminal escape)';
  return undefined;
}

/** Whether `text` is an absolute http(s) URL, the form of a webhook URL. */
export function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

export const DATA_TYPES = ['number', 'rich_text', 'category', 'date_time'] as const;
export type DataType = (typeof DATA_TYPES)[number];

export const COMBINING_METHODS = ['stringAppend', 'json'] as const;
export type CombiningMethod = (typeof COMBINING_METHODS)[number];

export const IMPUTE_METHODS = ['fill', 'dropMissing'] as const;
/** `null` means "leave the field's data unchanged". */
export type ImputeMethod = (typeof IMPUTE_METHODS)[number] | null;

export const ROW_DROPPING_METHODS = ['missingValues', 'duplicateValues'] as const;
export type RowDroppingMethod = (typeof ROW_DROPPING_METHODS)[number];

/** Casing values the seed lists as supported. */
export const CASINGS = ['upper', 'lower', 'title', 'swap'] as const;
/** The seed's read example also returns `capitalize`; accepted with a warning. */
export const READ_ONLY_CASINGS = ['capitalize'] as const;
export type Casing = (typeof CASINGS)[number] | (typeof READ_ONLY_CASINGS)[number];

export const AGGREGATION_METHODS = ['first'] as const;
export type AggregationMethod = (typeof AGGREGATION_METHODS)[number];

export const OUTPUT_FILE_TYPES = ['csv', 'excel'] as const;
export type OutputFileType = (typeof OUTPUT_FILE_TYPES)[number];

/** Default `stringAppend` separator (seed: "Constants of the contract"). */
export const DEFAULT_SEPARATOR = '';

/** The allowed value matching `text` in any case, in the seed's spelling; `undefined` when none does. */
export function spellingOf<T extends string>(allowed: readonly T[], text: string): T | undefined {
  const wanted = text.toLowerCase();
  return allowed.find((a) => a.toLowerCase() === wanted);
}

/**
 * Whether a suggestion needs review under the confidence bar `bar` (none when undefined). A
 * suggestion the service gave no confidence for is unknown, so it needs review under any bar.
 */
export function isUnderBar(confidence: number | undefined, bar: number | undefined): boolean {
  return bar !== undefined && (confidence === undefined || confidence < bar);
}

// ---- Sheet selection ----
/** getSelectedSheet when the job has a sheet selection (a workbook input). */
export interface SheetSelectionRead { sheetSelection: NonNullable<InferOutput<typeof S.SheetSelectionRead>['sheetSelection']> }
export type SheetSelectionUpdate = InferOutput<typeof S.SheetSelectionUpdate>;

// ---- Fields ----
export type FieldsRead = InferOutput<typeof S.FieldsRead>;
/** data source name -> column name -> mapping. A column absent from the map is unmapped. */
export type ColumnFieldMappingRead = FieldsRead['columnFieldMapping'];
/** One column's mapping in a read; `confidence` is undefined when the service gave none. */
export type FieldMappingRead = ColumnFieldMappingRead[string][string];
export type FieldsUpdate = InferOutput<typeof S.FieldsUpdate>;
export type ColumnFieldMappingUpdate = FieldsUpdate['columnFieldMapping'];

// ---- Column combining ----
export type CombiningConfig = InferOutput<typeof S.CombiningConfig>;
export type ColumnCombiningRead = InferOutput<typeof S.ColumnCombiningRead>;
export type ColumnCombiningUpdate = InferOutput<typeof S.ColumnCombiningUpdate>;

// ---- Data types ----
export type DataTypesRead = InferOutput<typeof S.DataTypesRead>;
export type DataTypesUpdate = InferOutput<typeof S.DataTypesUpdate>;

// ---- Units ----
export type UnitsRead = InferOutput<typeof S.UnitsRead>;
export type UnitConversionRead = UnitsRead['fieldUnitConversions'][string];
export type UnitsUpdate = InferOutput<typeof S.UnitsUpdate>;

// ---- Impute ----
export type ImputeConfig = InferOutput<typeof S.ImputeConfig>;
export type ImputeRead = InferOutput<typeof S.ImputeRead>;
export type ImputeUpdate = InferOutput<typeof S.ImputeUpdate>;

// ---- Pivot ----
export type PivotConfig = InferOutput<typeof S.PivotConfig>;
export type PivotRead = InferOutput<typeof S.PivotRead>;
export type PivotUpdate = InferOutput<typeof S.PivotUpdate>;

// ---- Row dropping ----
export type RowDroppingRule = InferOutput<typeof S.RowDroppingRule>;
export type RowDroppingRead = InferOutput<typeof S.RowDroppingRead>;
export type RowDroppingUpdate = InferOutput<typeof S.RowDroppingUpdate>;

// ---- Text processing ----
/** Per field, regular-expression rules in the order they apply (a Map: `"9"` may come before `"0"`) and a casing. */
export type TextProcessingConfig = InferOutput<typeof S.TextProcessingConfig>;
export type TextProcessingRead = InferOutput<typeof S.TextProcessingRead>;
export type TextProcessingUpdate = InferOutput<typeof S.TextProcessingUpdate>;

// ---- Scripts ----
export type ScriptsRead = InferOutput<typeof S.ScriptsRead>;

// ---- start / run ----
/** The `start` form fields, already parsed (the wire carries them as multipart text parts). */
export type StartForm = InferOutput<typeof S.StartForm>;
export type StartResponse = InferOutput<typeof S.StartAnswer>;
export type RunRequest = InferOutput<typeof S.RunRequest>;

// ---- Webhooks ----
export type StartWebhookBody = InferOutput<typeof S.StartWebhookBody>;
export type RunWebhookBody = InferOutput<typeof S.RunWebhookBody>;

/**
 * The whole configuration of a job in the seed's update shapes: what the engine applies and
 * what the client sends, one member per configuration resource.
 */
export interface JobConfig {
  sheet?: string;
  fields?: FieldsUpdate;
  combining?: ColumnCombiningUpdate;
  dataTypes?: DataTypesUpdate;
  units?: UnitsUpdate;
  impute?: ImputeUpdate;
  pivot?: PivotUpdate;
  rowDropping?: RowDroppingUpdate;
  text?: TextProcessingUpdate;
}

/** What a pipeline expects (a job file's `schema` block, or a schema file for `import serve`). */
export interface PipelineSchema {
  id?: string;
  expectedFields: string[];
  optionalFields: string[];
  fieldDataTypes: Record<string, DataType>;
  fieldUnits: Record<string, string | null>;
  imputeMethods: Record<string, ImputeMethod>;
  rowDropping: RowDroppingRule[];
}

/**
 * Every read body of a job, as the GET endpoints return them: the service's suggestions (or the
 * values set by updates). `sheet` is null when the input is not a workbook.
 */
export interface JobResources {
  sheet: SheetSelectionRead | null;
  fields: FieldsRead;
  combining: ColumnCombiningRead;
  dataTypes: DataTypesRead;
  units: UnitsRead;
  impute: ImputeRead;
  pivot: PivotRead;
  rowDropping: RowDroppingRead;
  text: TextProcessingRead;
  scripts: ScriptsRead;
}
