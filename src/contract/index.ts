/** The seed's wire shapes and allowed values: the contract of the Data Import Job Service, nothing else. */

/** Path prefix every endpoint lives under. */
export const API_PREFIX = '/public/client-side/v1';

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

// ---- Sheet selection ----
export interface SheetSelectionRead { sheetSelection: { selected: string; confidence: number; sheets: string[] } }
export interface SheetSelectionUpdate { sheetSelection: { selected: string } }

// ---- Fields ----
export interface FieldMappingRead { field: string; confidence: number }
/** data source name -> column name -> mapping. A column absent from the map is unmapped. */
export type ColumnFieldMappingRead = Record<string, Record<string, FieldMappingRead>>;
export type ColumnFieldMappingUpdate = Record<string, Record<string, { field: string }>>;
export interface FieldsRead {
  expectedFields: string[];
  optionalFields: string[];
  inputColumns: string[];
  columnFieldMapping: ColumnFieldMappingRead;
}
export interface FieldsUpdate { columnFieldMapping: ColumnFieldMappingUpdate; allowColumnCombining?: boolean }

// ---- Column combining ----
export interface CombiningConfig {
  method?: CombiningMethod;
  methodConfig?: { separator?: string };
  combiningOrder?: string[];
}
export interface ColumnCombiningRead { columnsBeingCombined: Record<string, CombiningConfig> }
export type ColumnCombiningUpdate = ColumnCombiningRead;

// ---- Data types ----
export interface DataTypesRead {
  fieldDataTypes: Record<string, { dataType: DataType; confidence: number }>;
  expectedFieldDataTypes: Record<string, DataType>;
}
export interface DataTypesUpdate { fieldDataTypes: Record<string, { dataType: DataType }> }

// ---- Units ----
export interface UnitConversionRead { columnName: string; to: string | null; from: string | null; confidence: number }
export interface UnitsRead {
  fieldUnitConversions: Record<string, UnitConversionRead>;
  expectedFieldUnits: Record<string, string | null>;
}
export interface UnitsUpdate { fieldUnitConversions: Record<string, { from: string | null; to: string | null }> }

// ---- Impute ----
export interface ImputeConfig { imputeMethod: ImputeMethod; imputeMethodConfig?: { fillValue?: unknown } }
export interface ImputeRead {
  imputeMethods: Record<string, ImputeConfig & { confidence: number }>;
  expectedImputeMethods: Record<string, ImputeMethod>;
}
export interface ImputeUpdate { imputeMethods: Record<string, ImputeConfig> }

// ---- Pivot ----
export interface PivotConfig {
  pivotColumns: { columnNames: string[] };
  valueColumns: { columnNames: string[] };
  indexColumns: { columnNames: string[]; aggregationMethod: AggregationMethod };
}
export interface PivotRead {
  pivot: {
    pivotColumns: { columnNames: string[]; confidence: number };
    valueColumns: { columnNames: string[]; confidence: number };
    indexColumns: { columnNames: string[]; aggregationMethod: AggregationMethod; confidence: number };
  } | null;
}
export interface PivotUpdate { pivot: PivotConfig | null }

// ---- Row dropping ----
export interface RowDroppingRule { method: RowDroppingMethod; methodConfig: { fields: string[] } }
export interface RowDroppingRead {
  presetRowDroppingMethods: RowDroppingRule[];
  additionalRowDroppingMethods: (RowDroppingRule & { confidence: number })[];
}
export interface RowDroppingUpdate { additionalRowDroppingMethods: RowDroppingRule[] }

// ---- Text processing ----
export interface TextProcessingConfig {
  regexReplacement?: Record<string, Record<string, string>>;
  casing?: Record<string, Casing>;
}
export interface TextProcessingRead { textProcessingMethods: TextProcessingConfig }
export type TextProcessingUpdate = TextProcessingRead;

// ---- Scripts ----
export interface ScriptsRead { preColumnMapping: string[]; postClean: string[] }

// ---- start / run ----
/** The `start` form fields, already parsed (the wire carries them as multipart text parts). */
export interface StartForm {
  pipelineId?: string | string[];
  jobName?: string;
  gsUrl?: string;
  gsSheetName?: string;
  jsonData?: Record<string, unknown>[];
  destinationFileName?: string;
  useFullData?: boolean;
  useVariableFields?: boolean;
  scripts?: { preColumnMapping: string[] };
  webhookUrl?: string;
  outputFileType?: OutputFileType;
}
export interface StartResponse { jobId: string }
export interface RunRequest { webhookUrl?: string; returnWhenComplete?: boolean }

// ---- Webhooks ----
export interface StartWebhookBody {
  jobId: string;
  dataLength: Record<string, number>;
  inputColumns: Record<string, string[]>;
  expectedFields: string[];
  columnFieldMapping: ColumnFieldMappingRead;
  expectedFieldDataTypes: Record<string, DataType>;
  fieldDataTypes: Record<string, { dataType: DataType; confidence: number }>;
  uniqueRatio: Record<string, Record<string, number>>;
  missingRowIndices: Record<string, Record<string, number[]>>;
}
export interface RunWebhookBody {
  jobId: string;
  dataTable: (string | number | null)[][];
  dataTypes: Record<string, DataType>;
}

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
