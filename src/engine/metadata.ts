/**
 * Webhook bodies (engine.md "Webhook bodies and metadata"): the start webhook's metadata about
 * the input, gathered while the rows stream past, and the run webhook's data table.
 */
import type { DataType, JobResources, RunWebhookBody, StartWebhookBody } from '../contract/index.js';
import { isIndexLikeKey, orderedObject } from '../contract/json.js';
import { isMissing } from './missing.js';
import { SAMPLE_ROWS, type Batch, type Value } from './types.js';

/** The start webhook's metadata members, keyed by the input's name. */
export type StartMetadata = Pick<StartWebhookBody, 'dataLength' | 'inputColumns' | 'uniqueRatio' | 'missingRowIndices'>;

/**
 * Gathers the start webhook's metadata from raw input rows: `dataLength` counts every row;
 * `uniqueRatio` and `missingRowIndices` cover the first SAMPLE_ROWS rows, or every row when
 * `full` (useFullData). Past the sample a batch costs one addition.
 */
export class MetadataCollector {
  private rows = 0;
  private readonly limit: number;
  /** Each column's distinct values until the sample is complete; then only their counts are kept (held, the values are some 100k strings). */
  private distinct: Set<string>[] | undefined;
  private distinctCounts: number[] | undefined;
  private readonly missing: number[][];

  constructor(private readonly sourceName: string, private readonly columns: string[], opts: { full: boolean }) {
    this.limit = opts.full ? Infinity : SAMPLE_ROWS;
    this.distinct = columns.map(() => new Set<string>());
    this.missing = columns.map(() => []);
  }

  /**
   * Counts `n` more rows past the sample without their values (a parallel run reads them in its
   * parts); false, counting nothing, when the sample is not complete, since those rows' values count.
   */
  countPastSample(n: number): boolean {
    if (this.rows < this.limit) return false;
    this.rows += n;
    return true;
  }

  /** Takes the next batch of raw rows (values text or null). */
  push(batch: Batch): void {
    const rows = batch.rows;
    const start = this.rows;
    this.rows += rows.length;
    if (start >= this.limit) return;
    const end = Math.min(rows.length, this.limit - start);
    const width = this.columns.length;
    const distinct = this.distinct!;
    for (let r = 0; r < end; r++) {
      const row = rows[r];
      const index = start + r; // 0-based data-row index: the header is not a row
      for (let c = 0; c < width; c++) {
        const value = row[c];
        if (isMissing(value)) this.missing[c].push(index);
        // Values are compared as written (no trimming or case folding).
        else distinct[c].add(typeof value === 'string' ? value : String(value));
      }
    }
    if (this.rows >= this.limit) {
      this.distinctCounts = distinct.map((values) => values.size);
      this.distinct = undefined;
    }
  }

  /** The metadata so far; `uniqueRatio` is rounded to 4 decimals (0 when there are no rows). */
  result(): StartMetadata {
    const considered = Math.min(this.rows, this.limit);
    // Keyed by column names, which may be `__proto__` or `"1962"`: kept as own keys in column order.
    const uniqueRatio = keyedObject(this.columns.map((column, c): [string, number] =>
      [column, considered === 0 ? 0 : Math.round(((this.distinctCounts?.[c] ?? this.distinct![c].size) / considered) * 10_000) / 10_000]));
    const missingRowIndices = keyedObject(this.columns.map((column, c): [string, number[]] => [column, [...this.missing[c]]]));
    return {
      dataLength: { [this.sourceName]: this.rows },
      inputColumns: { [this.sourceName]: [...this.columns] },
      uniqueRatio: { [this.sourceName]: uniqueRatio },
      missingRowIndices: { [this.sourceName]: missingRowIndices },
    };
  }
}

/** The start webhook body of a job: its suggestions plus the input's metadata. */
export function startWebhookBody(jobId: string, resources: JobResources, meta: StartMetadata): StartWebhookBody {
  return {
    jobId,
    dataLength: meta.dataLength,
    inputColumns: meta.inputColumns,
    expectedFields: resources.fields.expectedFields,
    columnFieldMapping: resources.fields.columnFieldMapping,
    expectedFieldDataTypes: resources.dataTypes.expectedFieldDataTypes,
    fieldDataTypes: resources.dataTypes.fieldDataTypes,
    uniqueRatio: meta.uniqueRatio,
    missingRowIndices: meta.missingRowIndices,
  };
}

/** Collects an output table's rows for the run webhook body. */
export class DataTableCollector {
  private readonly rows: (string | number | null)[][] = [];

  /** Takes the next batch of output rows. */
  push(batch: Batch): void {
    for (const row of batch.rows) this.rows.push(row.map(toCell));
  }

  /** The run webhook body: header row then value rows; columns with no type are `rich_text`. */
  body(jobId: string, columns: string[], types: (DataType | undefined)[]): RunWebhookBody {
    const dataTypes = keyedObject(columns.map((column, i): [string, DataType] => [column, types[i] ?? 'rich_text']));
    return { jobId, dataTable: [[...columns], ...this.rows], dataTypes };
  }
}

/** A cell as JSON: numbers stay numbers (non-finite ones, which JSON cannot hold, become null), missing is null, the rest text. */
function toCell(value: Value | undefined): string | number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  return isMissing(value) ? null : (value as string);
}

/**
 * An object keyed by column names in column order: a plain one when no name needs care, else
 * orderedObject's (which keeps `__proto__` as a key and remembers where `"1962"` was written).
 */
function keyedObject<T>(pairs: [string, T][]): Record<string, T> {
  if (pairs.some(([key]) => key === '__proto__' || isIndexLikeKey(key))) return orderedObject(pairs);
  const object: Record<string, T> = {};
  for (const [key, value] of pairs) object[key] = value;
  return object;
}

