/** A job file after loading and validation: paths absolute, method values in the seed's spelling. */
import type { DataType, OutputFileType, PipelineSchema, Casing, RowDroppingMethod, CombiningMethod } from '../contract/index.js';

/** The `config` block: the configuration the user wants instead of the suggestions. Every member optional. */
export interface JobFileConfig {
  sheet?: string;
  /** input column -> field, `null` = leave unmapped (a mapping keyed by source name is read into this, see mappingSource). */
  mapping?: Record<string, string | null>;
  /** The data source a mapping keyed by source name named (jobfile.md); the job's source must have that name. */
  mappingSource?: string;
  allowColumnCombining?: boolean;
  combining?: Record<string, { method?: CombiningMethod; separator?: string; order?: string[] }>;
  dataTypes?: Record<string, DataType>;
  units?: Record<string, { from: string | null; to: string | null }>;
  impute?: Record<string, { method: 'fill' | 'dropMissing' | null; value?: unknown }>;
  pivot?: { pivotColumns: string[]; valueColumns: string[]; indexColumns: string[]; aggregationMethod: 'first' };
  rowDropping?: { method: RowDroppingMethod; fields: string[] }[];
  /** Rules of each field are a Map: they apply in the order written, integer-like patterns ("9") included. */
  text?: { regexReplacement?: Record<string, Map<string, string>>; casing?: Record<string, Casing> };
}

/** Exactly one data input (or the placeholder `file:` that `import pull` writes). Paths are absolute. */
export interface JobFileInput {
  file?: string;
  /** `file:` written empty: to be filled in before a job is started from this file (`--job` needs no input). */
  placeholder?: true;
  googleSheet?: { url: string; sheet: string };
  rows?: Record<string, unknown>[];
  rowsFile?: string;
}

/** A 1-based position in the job file. */
export interface Position { line: number; col: number }

/**
 * A loaded, validated job file. Maps keyed by user names (mapping, dataTypes, rows...) are
 * objects that keep the written key order (`entriesInOrder`) and hold `__proto__` as a key.
 */
export interface JobFile {
  /** Absolute path of the job file. */
  path: string;
  version: 1;
  pipeline?: string | string[];
  name?: string;
  input: JobFileInput;
  options: {
    useFullData?: boolean;
    useVariableFields?: boolean;
    destinationFileName?: string;
    outputFileType?: OutputFileType;
    webhookUrl?: string;
  };
  scripts?: { preColumnMapping: string[] };
  config: JobFileConfig;
  run: { wait: boolean; webhookUrl?: string };
  review: { minConfidence?: number };
  /** The pipeline's expectations, with defaults filled (empty lists and maps). */
  schema?: PipelineSchema;
  /** script id -> absolute path of a local ES module. */
  localScripts: Record<string, string>;
  /** Position of a key path such as `config.mapping.First` (dot-joined), for error messages. */
  positionOf(path: (string | number)[]): Position | undefined;
}
