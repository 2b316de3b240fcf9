/** Shapes shared by the engine's readers, steps, writers and pipeline. */
import type { RejectOrderer } from './rejects.js';
import type {
  CombiningConfig, DataType, ImputeConfig, PivotConfig, RowDroppingRule, TextProcessingConfig, PipelineSchema,
} from '../contract/index.js';

/** A cell: text until the data-type step; numbers become JS numbers there; `null` is missing. */
export type Value = string | number | null;
/** A row: one value per column of its table, by position. */
export type Row = Value[];

/** A slice of rows moving through the pipeline, with each row's 1-based data-row number in the input. */
export interface Batch {
  rows: Row[];
  /** 1-based data-row number in the input (header excluded) of each row, for reports. */
  rowNumbers: number[];
  /**
   * Set on rows the mapping step made, which nobody else holds: the steps after it may change them
   * in place (a copy per row and step was most of the garbage of a run); see ownsRows.
   */
  owned?: true;
}

/** A stream of rows with its columns; `types[i]` is set once the data-type step has run. */
export interface Table {
  columns: string[];
  types: (DataType | undefined)[];
  batches: AsyncIterable<Batch>;
  /** What the reader changed while reading (a repeated header renamed), for the report's warnings. */
  notes?: string[];
}

/**
 * Rows per batch produced by readers: large enough to amortise async overhead, small enough that
 * little is alive at each young-generation GC (512 took 8% less CPU than 2048 on the reference job;
 * 256 as little as 512, and halves what survives each GC, so a worker thread's young generation can
 * be half as large without promoting rows: see parallel/run.ts).
 */
export const BATCH_SIZE = 256;

/** One rule that dropped rows, for the report. */
export interface DropCount { rule: string; count: number; firstRows: number[] }
/** One text rule that changed cells, for the report, with the first few changes (before and after). */
export interface TextChangeCount { rule: string; field: string; count: number; examples: { before: string; after: string | null }[] }

/** Values a unit conversion changed in a field (`rule`: `UTC_m5 -> UTC_p0`, `km -> mi`). */
export interface ConversionCount { rule: string; field: string; count: number }

/** How many before/after examples the report keeps per text rule. */
export const REPORT_TEXT_EXAMPLES = 3;

/** What a run did to the data. */
/** Where a run writes its output, and the check its result must pass before the output takes its place. */
export interface RunOutput {
  path: string;
  format: 'csv' | 'excel';
  /**
   * Runs once every row is written, with the finished report's counts: a throw keeps the output
   * from taking the target's place (a file it would replace stays as it was) and fails the run.
   */
  beforeCommit?: (report: Report) => void | Promise<void>;
}

export interface Report {
  rowsIn: number;
  rowsOut: number;
  /** Rows the reader padded or cut under `--lenient`. */
  rowsRepaired: number;
  dropped: DropCount[];
  /** field -> cells filled by imputation. */
  filled: Record<string, number>;
  /** field -> values that failed type coercion (became missing). */
  coercionFailures: Record<string, number>;
  textChanges: TextChangeCount[];
  /** Values each unit conversion changed (every value it moved to another zone or unit). */
  converted: ConversionCount[];
  warnings: string[];
}

/** How many row numbers the report keeps per drop rule. */
export const REPORT_FIRST_ROWS = 5;

/** A new, empty report. */
export function emptyReport(): Report {
  return { rowsIn: 0, rowsOut: 0, rowsRepaired: 0, dropped: [], filled: {}, coercionFailures: {}, textChanges: [], converted: [], warnings: [] };
}

/**
 * The complete configuration a run applies, every member resolved (job file over suggestions),
 * in the seed's update shapes where the seed has one.
 */
export interface EngineConfig {
  /** Selected sheet (XLSX only). */
  sheet: string | null;
  /** input column -> output field; columns absent here are unmapped. */
  mapping: Record<string, string>;
  allowColumnCombining: boolean;
  /** field -> combining method (only fields with several columns are combined). */
  combining: Record<string, CombiningConfig>;
  /** field -> data type. Fields absent here stay text. */
  dataTypes: Record<string, DataType>;
  /** field -> conversion. */
  units: Record<string, { from: string | null; to: string | null }>;
  /** field -> impute method. */
  impute: Record<string, ImputeConfig>;
  pivot: PivotConfig | null;
  presetRowDropping: RowDroppingRule[];
  additionalRowDropping: RowDroppingRule[];
  text: TextProcessingConfig;
  scripts: { preColumnMapping: string[]; postClean: string[] };
}

/** A script module's default export (engine.md step 2). */
export type ScriptFn = (table: { columns: string[]; rows: Record<string, unknown>[] }) =>
  { columns: string[]; rows: Record<string, unknown>[] } | Promise<{ columns: string[]; rows: Record<string, unknown>[] }>;

/**
 * Whether a step may change this batch's rows in place: rows the mapping step made (Batch.owned),
 * unless rejects are collected (a reject keeps a row's values as the rejecting step saw them).
 */
export function ownsRows(batch: Batch, ctx: Pick<StepContext, 'rejects'>): boolean {
  return batch.owned === true && ctx.rejects === undefined;
}

/**
 * The batches of `input`, each passed through `each`; a batch `each` gives undefined for (all its
 * rows dropped) is skipped. The per-batch steps and the parallel parts all stream through this one
 * generator function, made once: a generator function written inside a step's `apply` is a new
 * function for every table, and V8 gives each function's generator objects their own shape, so
 * the step reading them had its optimised code thrown away and compiled again for every part of
 * a parallel run (--trace-deopt, 1M rows: 15 such deopts and 26 compiles of the steps' generators).
 */
export async function* eachBatch(input: AsyncIterable<Batch>, each: (batch: Batch) => Batch | undefined): AsyncGenerator<Batch> {
  for await (const batch of input) {
    const out = each(batch);
    if (out !== undefined) yield out;
  }
}

/**
 * The rule a step's message is about, so a caller can say where it was configured: the step, the
 * field, and for a row-dropping rule its list and place, for a pivot column its role and place.
 */
export type RuleSubject =
  | { step: 'text' | 'impute' | 'units'; field: string }
  | { step: 'drop-rows'; field: string; isPreset: boolean; rule: number; at: number }
  | { step: 'pivot'; field: string; role: 'indexColumns' | 'pivotColumns' | 'valueColumns'; at: number };

/** `message` with the rule's configured place before it ("job.yaml:14:5: message"), when the context knows it. */
export function locatedMessage(ctx: Pick<StepContext, 'locate'>, rule: RuleSubject | undefined, message: string): string {
  const where = rule && ctx.locate?.(rule);
  return where ? `${where}: ${message}` : message;
}

/** Everything a step may need besides its own config. */
export interface StepContext {
  schema: PipelineSchema;
  report: Report;
  /** Loads a script by id; `undefined` when no local module is known for the id. */
  loadScript(id: string): Promise<ScriptFn | undefined>;
  /** Whether an unknown script id is an error (`import serve`) or a warning (dry run). */
  strictScripts: boolean;
  warn(message: string): void;
  /**
   * Where the rule a message is about was configured, as a prefix for it ("job.yaml:14:5"), when
   * the caller knows (a dry run knows its job file's lines); undefined otherwise.
   */
  locate?(rule: RuleSubject): string | undefined;
  /** Where steps report rejected rows and emptied cells, when the run was asked for them (rejects.ts). */
  rejects?: RejectOrderer;
  /**
   * The table entering step `step` again, from the input's first row (the input re-read and the
   * steps before `step` re-applied with `config`), for a step that must see a whole column before
   * it can stream; undefined when the input cannot be re-read (then the step holds rows instead).
   */
  reopen?(step: string, config: EngineConfig): Promise<Table | undefined>;
  /**
   * What the types step saw that a warning must name, filled as rows pass, for `typeWarnings` once
   * every row has (the parallel path merges its workers').
   */
  typeEvidence?: TypeEvidence;
}

/**
 * A cell a step emptied (a value its type or its conversion cannot hold): counted with the field's
 * coercion failures and, when the run lists rejects, listed with `rule` and the original value.
 * `out` is the step's output row: no later step changes it (with rejects, steps copy a row to change it).
 */
export function countEmptiedCell(ctx: StepContext, cell: { field: string; rule: string; origin: 'dataType' | 'units'; original: Value | undefined; row: number; out: Row }): void {
  ctx.report.coercionFailures[cell.field] = (ctx.report.coercionFailures[cell.field] ?? 0) + 1;
  ctx.rejects?.add({ row: cell.row, rule: cell.rule, origin: cell.origin, fields: [cell.field], original: cell.original === null || cell.original === undefined ? null : String(cell.original), values: cell.out });
}

/** What date_time and number fields' values showed, for the warnings given once every row has passed. Rows are data-row numbers counted from the part's first row. */
export interface TypeEvidence {
  /** Fields read month-first: 'proved' (a value reads only month-first) or 'ambiguous' (every slash date reads either way). */
  monthFirst: Map<string, 'proved' | 'ambiguous'>;
  /** Fields read day-first: the first value that reads only month-first, its data-row number counted from the part's first row. */
  otherOrder: Map<string, { row: number; text: string }>;
  /** Number fields: the first value that failed and reads as a decimal comma (`3,5`, `1.234,56`). */
  decimalComma: Map<string, { row: number; text: string }>;
  /** Number fields: the first value read with a separator a decimal-comma file uses the other way (`1,234`, `1.234`). */
  grouped: Map<string, { row: number; text: string }>;
  /** date_time fields: the first value with a fraction of a second, which the output's whole seconds cut. */
  fraction: Map<string, { row: number; text: string }>;
  /** date_time fields without a time-zone conversion: the first value with an explicit UTC offset, and its offset in minutes. */
  offset: Map<string, { row: number; text: string; minutes: number }>;
  /** Such fields: the first value whose offset differs from the first one's (both lose their offsets). */
  otherOffset: Map<string, { row: number; text: string }>;
}

/** Evidence of no rows yet. */
export function emptyTypeEvidence(): TypeEvidence {
  return { monthFirst: new Map(), otherOrder: new Map(), decimalComma: new Map(), grouped: new Map(), fraction: new Map(), offset: new Map(), otherOffset: new Map() };
}

/** One engine step (engine.md "Steps, in this order"). */
export interface Step {
  name: string;
  /** Throws a UsageError when the config does not fit the incoming columns; called before any row moves. */
  check?(config: EngineConfig, columns: string[], ctx: StepContext): void;
  /** Turns the incoming table into the outgoing one; streaming steps return at once with lazy batches. */
  apply(input: Table, config: EngineConfig, ctx: StepContext): Table | Promise<Table>;
}

/** Data rows the suggestions and start metadata are derived from unless `useFullData` (the first N rows). */
export const SAMPLE_ROWS = 10_000;

/** One sheet of a workbook: its header and how many data rows it has. */
/** A sheet of a workbook input; `hidden` when the workbook hides it from its user. */
export interface SheetInfo { name: string; columns: string[]; rowCount: number; hidden?: boolean }

/** An opened input: a CSV/TSV/XLSX/JSON file or inline rows. */
export interface InputSource {
  /** Key for start-webhook metadata: the file's base name, or `jsonData` for inline rows. */
  name: string;
  kind: 'csv' | 'xlsx' | 'json';
  /** Size in bytes (0 for inline rows), for progress bars. */
  size: number;
  /** XLSX: every sheet with its header and data-row count (reads the workbook once); null for other kinds. */
  sheets(): Promise<SheetInfo[] | null>;
  /** Opens the rows, of `sheet` for XLSX (required there). Values are text or null (missing). */
  open(opts?: OpenOptions): Promise<Table>;
}

/** Options for reading rows. */
export interface OpenOptions {
  sheet?: string;
  /** Pad or cut rows with the wrong number of cells instead of failing; counted in `report.rowsRepaired`. */
  lenient?: boolean;
  report?: Report;
  /** Called with the number of input bytes consumed so far, for progress bars. */
  onProgress?: (bytesRead: number) => void;
  /** Gives the report a warning about what was read (cells kept as numbers though formatted as dates), once the reader knows it. */
  warn?: (message: string) => void;
}
